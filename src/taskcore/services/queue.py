"""Outbound queue use cases: enqueue, claim, record the outcome, report (SPEC section 9).

A worker claims jobs, sends each outside any transaction, then records the result with the owner it claimed under:
``mark_sent``, or for a failure ``gives_up(...)`` decides between ``schedule_retry`` and ``mark_failed``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Connection

from taskcore.queue_rules import FailureKind, JobKind, QueueJob, gives_up
from taskcore.reactions import ReactionPolicy, ReactionRequest
from taskcore.services.caps import SendRules, screen_caps
from taskcore.services.delivery import screen_claimed
from taskcore.services.reactions import enqueue_request
from taskcore.storage import claims
from taskcore.storage import queue as q
from taskcore.storage.delivery import postpone_jobs
from taskcore.storage.links import link_sent_message
from taskcore.storage.queue import enqueue
from taskcore.unit import Reading, UnitOfWork

__all__ = [
    "QueueJob",
    "TextJob",
    "choose_message_id",
    "claim_jobs",
    "due_count",
    "enqueue",
    "enqueue_message",
    "give_back",
    "keep_lease",
    "mark_failed",
    "mark_sent",
    "queue_all_replies",
    "queue_replies",
    "queue_stats",
    "schedule_retry",
]


def enqueue_message(
    uow: UnitOfWork,
    *,
    chat_id: str,
    kind: str,
    payload: Mapping[str, Any],
    label: str | None = None,
    dedupe_key: str | None = None,
    max_attempts: int,
    now: datetime,
) -> int | None:
    """Queue one job in its own transaction; None when ``dedupe_key`` was queued before."""
    return enqueue(
            uow.conn, chat_id=chat_id, kind=kind, payload=payload, label=label,
            dedupe_key=dedupe_key, max_attempts=max_attempts, now=now,
        )


class TextJob(Protocol):
    """A text to queue: its chat, the sendText body, a label and an optional de-duplication key."""

    @property
    def chat_id(self) -> str:
        """The chat the text goes to."""
        ...

    @property
    def payload(self) -> Mapping[str, Any]:
        """The sendText body."""
        ...

    @property
    def label(self) -> str | None:
        """What kind of text it is (reply, dm, notice), for the queue's rows."""
        ...

    @property
    def dedupe_key(self) -> str | None:
        """Queued at most once per key."""
        ...

    @property
    def task_id(self) -> int | None:
        """The one task the text is about: once sent, a reply to it or a reaction on it acts on that task."""
        ...


def queue_replies(
    uow: UnitOfWork, texts: Sequence[TextJob], reactions: Sequence[ReactionRequest], *, reaction_policy: ReactionPolicy,
    max_attempts: int, now: datetime,
) -> None:
    """Queue the texts, then the reactions the policy allows, in one transaction (what the chat sends for an event)."""
    if not texts and not reactions:
        return

    conn = uow.conn
    for text in texts:
        enqueue(conn, chat_id=text.chat_id, kind=JobKind.TEXT, payload=text.payload, label=text.label,
                dedupe_key=text.dedupe_key, max_attempts=max_attempts, now=now, task_id=text.task_id)
    for mark in reactions:
        enqueue_request(conn, reaction_policy, mark, now=now)


Sends = tuple[Sequence[TextJob], Sequence[ReactionRequest], datetime]
"""What one event sends: its texts, its reactions and its instant."""


def queue_all_replies(
    uow: UnitOfWork, sends: Sequence[Sends], *, reaction_policy: ReactionPolicy, max_attempts: int,
) -> None:
    """``queue_replies`` for several events, in their order, in one transaction (``queue_all_replies_on``)."""
    if any(texts or reactions for texts, reactions, _ in sends):
        queue_all_replies_on(uow.conn, sends, reaction_policy=reaction_policy,
                             max_attempts=max_attempts)


def queue_all_replies_on(
    conn: Connection, sends: Sequence[Sends], *, reaction_policy: ReactionPolicy, max_attempts: int,
) -> None:
    """``queue_all_replies`` on a transaction already open (the road's unit of work): the texts of consecutive
    events with the same instant go in one driver call (a reaction the policy lets through alone: it is counted only
    when queued), so the rows get the same ids in the same order as one ``queue_replies`` per event would give them."""
    texts: list[Mapping[str, Any]] = []  # queued next, all at the instant ``at``
    at: datetime | None = None
    for event_texts, reactions, now in sends:
        if texts and now != at:
            _enqueue_texts(conn, texts, max_attempts, at)
            texts = []
        texts += _text_jobs(event_texts)
        at = now
        # the reactions out of scope queue nothing (with reactions off, none is in scope)
        marks = [mark for mark in reactions if reaction_policy.in_scope(mark.chat_id)] if reaction_policy.enabled \
            else []
        if marks:
            _enqueue_texts(conn, texts, max_attempts, at)
            texts = []
            for mark in marks:
                enqueue_request(conn, reaction_policy, mark, now=now)
    _enqueue_texts(conn, texts, max_attempts, at)


def _text_jobs(texts: Sequence[TextJob]) -> list[Mapping[str, Any]]:
    return [{"chat_id": text.chat_id, "kind": JobKind.TEXT, "payload": text.payload, "label": text.label,
             "dedupe_key": text.dedupe_key, "task_id": text.task_id} for text in texts]


def _enqueue_texts(conn: Connection, jobs: Sequence[Mapping[str, Any]], max_attempts: int,
                   now: datetime | None) -> None:
    if jobs and now is not None:
        q.enqueue_many(conn, jobs, max_attempts=max_attempts, now=now)


def claim_jobs(uow: UnitOfWork, *, owner: str, now: datetime, lease: timedelta, limit: int,
               rules: SendRules | None = None) -> list[QueueJob]:
    """Lease up to ``limit`` jobs to ``owner``: the due head of each chat, never a second job of a chat in flight.
    With ``rules``, what is claimed is screened as SPEC section 31 says: a direct message held for a person the bot
    cannot reach or put back during a reach-out pause (``services.delivery``), what the bot starts held by the caps
    (``services.caps``)."""
    if limit < 1:
        return []

    conn = uow.conn
    ids = claims.claimable_ids(conn, now=now, limit=limit)
    jobs = claims.claim(conn, ids, owner=owner, now=now, lease=lease)
    if rules is None:
        return jobs
    jobs = screen_claimed(conn, jobs, now=now, pause_hours=rules.pause_hours)
    return screen_caps(conn, jobs, now=now, rules=rules)


def give_back(uow: UnitOfWork, job_ids: Sequence[int], *, now: datetime) -> None:
    """Put jobs just claimed back, due now, without spending the attempt the claim took (sending was paused while
    the claim ran: nothing of them went out)."""
    if job_ids:
        postpone_jobs(uow.conn, job_ids, until=now, now=now)


def mark_sent(uow: UnitOfWork, *, job_id: int, owner: str, gateway_message_id: str | None, now: datetime) -> bool:
    """Record that the gateway accepted the job; False when ``owner`` no longer holds it. A text about one task
    links the gateway's message id to the task in the same transaction (SPEC section 18)."""

    conn = uow.conn
    held = q.finish(conn, job_id, owner, q.sent_values(gateway_message_id, now))
    if held and gateway_message_id:
        link_sent_message(conn, job_id=job_id, message_id=gateway_message_id, now=now)
    return held


def schedule_retry(
    uow: UnitOfWork, *, job_id: int, owner: str, error: str, next_attempt_at: datetime, now: datetime
) -> bool:
    """Put the job back for ``next_attempt_at``, or fail it when its attempts are used up; False if not held."""

    conn = uow.conn
    held = q.attempts_of_held(conn, job_id, owner)
    if held is None:
        return False
    attempts, max_attempts = held
    if gives_up(FailureKind.RETRY, attempts=attempts, max_attempts=max_attempts):
        return q.finish(conn, job_id, owner, q.failed_values(error, now))
    return q.finish(conn, job_id, owner, q.retry_values(error, next_attempt_at, now))


def choose_message_id(uow: UnitOfWork, *, job_id: int, owner: str, message_id: str) -> bool:
    """Keep the id chosen for the job's message before it is sent (a gateway that takes one: WAHA), so that a send
    whose answer is lost is looked up by it, never sent twice; False when ``owner`` no longer holds the job."""
    return q.choose_id(uow.conn, job_id, owner, message_id)


def mark_failed(uow: UnitOfWork, *, job_id: int, owner: str, error: str, now: datetime) -> bool:
    """Fail the job for good (the row is kept); False when ``owner`` no longer holds it."""
    return q.finish(uow.conn, job_id, owner, q.failed_values(error, now))


def keep_lease(uow: UnitOfWork, *, job_id: int, owner: str, until: datetime) -> bool:
    """Extend ``owner``'s hold on a job in flight until ``until``; False when it no longer holds it."""
    return q.extend_lease(uow.conn, job_id, owner, until=until)


def due_count(uow: Reading, *, now: datetime) -> int:
    """How many pending jobs are due at ``now``: what waits for the worker (and its send rate)."""
    conn = uow.conn
    return claims.count_due(conn, now=now)


def queue_stats(uow: Reading) -> dict[str, int]:
    """How many jobs are pending, sending, sent and failed."""
    conn = uow.conn
    return q.count_by_status(conn)
