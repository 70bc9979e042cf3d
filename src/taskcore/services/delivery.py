"""Every message arrives (SPEC section 31), the use cases: the status of each sent message, people the bot cannot
reach in private (marked, told once a week in a group they share, what waits for them sent when they write), and the
reach-out guard (after a 463 on a cold direct message, no direct message to anyone who never wrote in private for
GATEWAY_REACHOUT_PAUSE_HOURS). Queries in ``storage.delivery``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import Connection

from taskcore.gateway.events import StatusUpdate
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import _, speaking
from taskcore.identity import GROUP_DOMAIN, jid_domain, user_jid
from taskcore.queue_rules import DIGEST_LABEL, LOGIN_LINK_LABEL, JobKind, QueueJob
from taskcore.services.languages import group_language_of
from taskcore.services.people import group_mentions
from taskcore.storage import delivery as q
from taskcore.storage import queue as qq
from taskcore.storage.caps import mark_held
from taskcore.storage.identities import alias_target
from taskcore.storage.queue import enqueue
from taskcore.storage.users import ensure_user
from taskcore.unit import Reading, UnitOfWork

NOTE_EVERY = timedelta(days=7)  # the group note, at most once a week per person
NOTE_LABEL = "unreachable"
NAG_LABEL = "nag"
__all__ = ["DeliveryRules", "StatusOutcome", "heard_privately", "job_recorded", "reachout_paused_until",
           "record_statuses", "refused_at_once", "screen_claimed", "unreachable_note", "unreachable_people"]


@dataclass(frozen=True, slots=True)
class DeliveryRules:
    """What the use cases need of the settings: attempts of a queued job, the default language, whether every group
    not blocked counts as one the bot speaks in (gating off), and the reach-out pause."""

    max_attempts: int = 6
    default_language: str = "es"
    gating_off: bool = True
    pause_hours: int = 24


@dataclass(frozen=True, slots=True)
class StatusOutcome:
    """What a batch of status updates did: the statuses kept, people newly marked unreachable, whether a reach-out
    time-lock was recorded, and group notes queued."""

    statuses: tuple[str, ...] = ()
    marked: tuple[str, ...] = ()
    locked: bool = False
    notes: int = 0


def unreachable_note(mention: str) -> str:
    """The group note to a person the bot cannot write to in private."""
    return _("{mention}, no puedo escribirte por privado. Mándame un mensaje privado, el que sea, y queda arreglado.",
             mention=mention)


def person_of_chat(conn: Connection, chat_id: str) -> str | None:
    """The person a direct chat is with (a LID through its alias), or None for a group or a broadcast."""
    user, _at, domain = chat_id.partition("@")
    user = user.partition(":")[0]
    if not user.isdigit() or domain not in ("", "s.whatsapp.net", "c.us", "lid"):
        return None
    return (alias_target(conn, user) or user) if domain == "lid" else user


def job_recorded(uow: Reading, message_id: str) -> bool:
    """Whether a queue job records the send the gateway answered with ``message_id``."""
    conn = uow.conn
    return q.sent_job(conn, message_id) is not None


def record_statuses(uow: UnitOfWork, updates: Sequence[StatusUpdate], *, now: datetime,
                    rules: DeliveryRules) -> StatusOutcome:
    """Keep the last status of each message; a direct message that ended in ERROR marks its person (one
    transaction)."""

    conn = uow.conn
    marked: list[str] = []
    locked, notes = False, 0
    for update in updates:
        q.record_status(conn, message_id=update.message_id, chat_id=update.chat_id, status=update.status,
                        error_code=update.error_code, now=now)
        if update.failed:
            job = q.sent_job(conn, update.message_id)
            person, lock, noted = _refused(conn, job, update.chat_id, update.message_id, now=now, rules=rules)
            marked += [person] if person else []
            locked, notes = locked or lock, notes + noted
    return StatusOutcome(tuple(u.status for u in updates), tuple(marked), locked, notes)


def refused_at_once(uow: UnitOfWork, job: QueueJob, *, owner: str, error: str, now: datetime,
                    rules: DeliveryRules) -> StatusOutcome:
    """A direct message the gateway refused at once because WhatsApp would not take it (WAHA answers error 463 to the
    send itself, where Evolution accepts it and reports ERROR later): the job failed for good, and its person is
    unreachable as if its status had come back ERROR (one transaction; nothing when ``owner`` no longer holds it)."""
    conn = uow.conn
    if not qq.finish(conn, job.id, owner, qq.failed_values(error, now)):
        return StatusOutcome()
    sent = q.SentJob(job.id, job.chat_id, job.label, json.dumps(job.payload, ensure_ascii=False), None)
    person, locked, notes = _refused(conn, sent, job.chat_id, job.chosen_id or f"job:{job.id}", now=now,
                                     rules=rules)
    return StatusOutcome(("ERROR",), (person,) if person else (), locked, notes)


def _refused(conn: Connection, job: q.SentJob | None, chat_id: str, message_id: str, *, now: datetime,
             rules: DeliveryRules) -> tuple[str | None, bool, int]:
    """A message WhatsApp refused: when it was a direct message, its person is unreachable (newly: returned), what it
    carried is held for them (not resent), a cold one locks reach-outs, and they are told in a group once a week."""
    person = person_of_chat(conn, job.chat_id if job else chat_id)
    if person is None or not q.user_exists(conn, person):
        return None, False, 0
    cold = not q.private_since(conn, [person])
    newly = q.mark_unreachable(conn, person, message_id=message_id, now=now)
    if job is not None:
        _hold_job(conn, person, job, now)
    locked = cold and q.record_lock(conn, message_id=message_id, user_id=person, now=now)
    return (person if newly else None), locked, _tell(conn, person, now, rules)


def _hold_job(conn: Connection, person: str, job: q.SentJob, now: datetime) -> None:
    """Hold a direct message for an unreachable person: the last digest, the last nag, anything else but a login link
    (which expires: the person asks for a new one)."""
    if job.label == LOGIN_LINK_LABEL:
        return
    try:
        text = json.loads(job.payload).get("text")
    except (ValueError, AttributeError):
        return
    if not isinstance(text, str) or not text:
        return
    kind = job.label if job.label in (DIGEST_LABEL, NAG_LABEL) else f"{job.label or 'message'}:{job.job_id}"
    q.hold(conn, user_id=person, kind=kind, chat_id=job.chat_id, text=text, label=job.label, now=now)


def _tell(conn: Connection, person: str, now: datetime, rules: DeliveryRules) -> int:
    """The group note, once a week at most, in a group the person shares with the bot; 1 when queued."""
    told = q.told_at(conn, person)
    if told is not None and now - told < NOTE_EVERY:
        return 0
    group = q.shared_group(conn, person, any_unblocked=rules.gating_off)
    if group is None or not q.note_told(conn, person, read=told, now=now):
        return 0
    digits, jid = group_mentions(conn, group, [person])[person]  # in the form the group uses (SPEC section 32)
    with speaking(group_language_of(conn, group, rules.default_language)):  # what the bot starts in a group: SPEC 39
        text = unreachable_note(f"@{digits}")
    body = text_payload(chat_id=group, text=text, mentioned=[jid])
    enqueue(conn, chat_id=group, kind=JobKind.TEXT, payload=body, label=NOTE_LABEL,
            dedupe_key=f"unreachable:{person}:{now.isoformat()}", max_attempts=rules.max_attempts, now=now)
    return 1


def heard_privately(uow: UnitOfWork, *, phone: str | None, lid: str | None, now: datetime, max_attempts: int,
                    jid: str | None = None) -> int:
    """A person wrote to the bot in private (from the address ``jid``): they are no longer a cold contact nor
    unreachable, and what was held for them is queued now; how many messages were released."""

    conn = uow.conn
    person = phone or (alias_target(conn, lid) if lid else None) or lid
    if person is None:
        return 0
    ensure_user(conn, person, now)
    q.wrote_privately(conn, person, now, jid)
    q.clear_unreachable(conn, person)
    held = q.take_held(conn, person)
    for row in held:
        enqueue(conn, chat_id=row.chat_id, kind=JobKind.TEXT,
                payload=text_payload(chat_id=row.chat_id, text=row.text), label=row.label, dedupe_key=None,
                max_attempts=max_attempts, now=now)
    return len(held)


def forget_statuses(uow: UnitOfWork, *, before: datetime) -> int:
    """Delete delivery statuses and reach-out locks recorded before ``before``; how many rows."""
    return q.forget_statuses(uow.conn, before=before) + q.forget_locks(uow.conn, before=before)


def unreachable_people(uow: Reading) -> list[q.Unreachable]:
    """Everyone the bot cannot reach in private, longest first (for doctor and ``/admin inalcanzables``)."""
    conn = uow.conn
    return q.unreachable_people_list(conn)


def paused_until(conn: Connection, *, now: datetime, pause_hours: int) -> datetime | None:
    """When the reach-out pause ends, if one is on at ``now``."""
    last = q.last_lock(conn)
    if last is None or pause_hours <= 0:
        return None
    end = last + timedelta(hours=pause_hours)
    return end if end > now else None


def reachout_paused_until(uow: Reading, *, now: datetime, pause_hours: int) -> datetime | None:
    """When the reach-out pause ends, if one is on at ``now`` (the gauge and doctor)."""
    conn = uow.conn
    return paused_until(conn, now=now, pause_hours=pause_hours)


def screen_claimed(conn: Connection, jobs: Sequence[QueueJob], *, now: datetime, pause_hours: int) -> list[QueueJob]:
    """Inside the claim's transaction: of the claimed jobs, those to send now. A text to a person marked unreachable
    is held for them instead; during a reach-out pause, a text to a person who never wrote in private waits until the
    pause ends, its attempt given back. A login link to either is not sent (kept as failed, the link erased)."""
    direct = {job.id: person for job in jobs if job.kind is JobKind.TEXT and jid_domain(job.chat_id) != GROUP_DOMAIN
              and (person := person_of_chat(conn, job.chat_id)) is not None}
    if not direct:
        return list(jobs)
    unreachable = q.unreachable_among(conn, set(direct.values()))
    until = paused_until(conn, now=now, pause_hours=pause_hours)
    contacts = q.private_since(conn, set(direct.values())) if until is not None else {}
    held, later, links = [], [], []
    for job in jobs:
        person = direct.get(job.id)
        if person is None or job.in_doubt:  # an attempt that may have gone out is settled first, never held
            continue
        cold = until is not None and person not in contacts
        if job.label == LOGIN_LINK_LABEL and (person in unreachable or cold):
            links.append(job.id)  # it would expire before it could go: not sent, kept as failed (the link erased)
        elif person in unreachable:
            _hold_job(conn, person, q.SentJob(job.id, job.chat_id, job.label, json.dumps(job.payload), None), now)
            held.append(job.id)
        elif cold:
            later.append(job.id)
    q.delete_jobs(conn, held)
    q.fail_jobs(conn, links, "login link not sent: the person cannot be written to in private now", now=now)
    q.postpone_jobs(conn, later, until=until or now, now=now)
    mark_held(conn, later, "reach-out pause")
    kept = set(held) | set(later) | set(links)
    sent = [job for job in jobs if job.id not in kept]
    lids = q.private_addresses(conn, {direct[job.id] for job in sent if job.id in direct})
    return [_addressed(job, direct.get(job.id), lids) for job in sent]


def _addressed(job: QueueJob, person: str | None, lids: dict[str, str]) -> QueueJob:
    """A direct message goes to the person's phone-number address when the bot knows it (a LID address can fail where
    the phone number's works: whatsapp-mcp-extended #67), to their LID otherwise: a person known only by the LID they
    wrote from is written to there, not at a phone-number address made of its digits."""
    if person is None:
        return job
    user = job.chat_id.partition("@")[0]
    if job.chat_id.endswith("@lid") and user != person:
        return replace(job, payload={**job.payload, "chat": user_jid(person)})
    if user == person and not job.chat_id.endswith("@lid") and lids.get(person) == f"{person}@lid":
        return replace(job, payload={**job.payload, "chat": f"{person}@lid"})
    return job
