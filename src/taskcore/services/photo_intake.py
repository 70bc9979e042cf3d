"""A photo's way from the gateway to the task (SPEC section 34, CONTRACT §3 "Images"): the bot's fetcher claims
the photos recorded by the chat, fetches their bytes (``getBase64FromMediaMessage``, the whole message passed back),
and hands them here: checked by content (JPEG, PNG, WebP) and size, stored under ``DATA_DIR/photos`` with a name
made here, and then in one unit of work the task waits for approval and the group is told who approves. Anything
refused (another type, too big, a fetch that kept failing) is answered in the group with why, and no file stays.

Each fetch is claimed with a compare-and-set (two bot instances never fetch one photo twice) for FETCH_LEASE; a
failed fetch that may pass is tried again after 5 s and 30 s: three attempts in all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection

from taskcore.chat import photo_replies as texts
from taskcore.chores.proof import file_name_for, image_kind
from taskcore.gateway.outbound import Quote, text_payload
from taskcore.i18n import speaking
from taskcore.queue_rules import JobKind
from taskcore.services.languages import group_language_of
from taskcore.services.people import group_mentions
from taskcore.services.proof import approvers_of
from taskcore.storage import proofs as q
from taskcore.storage.photo_files import PhotoFiles
from taskcore.storage.queue import enqueue
from taskcore.storage.tasks import load_tasks
from taskcore.unit import UnitOfWork

__all__ = ["FETCH_LEASE", "MAX_FETCH_ATTEMPTS", "FetchJob", "PhotoRules", "claim_fetches", "fetch_failed",
           "photo_arrived", "photo_refused"]

FETCH_LEASE = timedelta(minutes=2)
MAX_FETCH_ATTEMPTS = 3
RETRY_AFTER = (timedelta(seconds=5), timedelta(seconds=30))
PHOTO_LABEL = "photo"


@dataclass(frozen=True, slots=True)
class FetchJob:
    """One photo to fetch: its task, message (id, chat, author) and sender, what the gateway that received it needs
    to give its bytes (opaque here: ``events.InboundPhoto.media``), the attempt."""

    task_id: int
    message_id: str
    chat_id: str
    participant: str | None
    sent_by: str | None
    media: str
    attempt: int


@dataclass(frozen=True, slots=True)
class PhotoRules:
    """PHOTO_MAX_MB (in bytes), the queue's attempts and DEFAULT_LANGUAGE."""

    max_bytes: int
    max_attempts: int = 6
    default_language: str = "es"

    @property
    def max_mb(self) -> int:
        """The limit in whole MB, as the refusal names it."""
        return self.max_bytes // (1024 * 1024)


def claim_fetches(uow: UnitOfWork, *, now: datetime, limit: int = 8) -> list[FetchJob]:
    """The photos due for a fetch at ``now``, each claimed for this process (one attempt more)."""
    conn = uow.conn
    due = q.due_fetches(conn, now=now, limit=limit)
    jobs = []
    for row in due:
        if row.message_id is None or row.chat_id is None:
            continue
        if not q.claim_fetch(conn, task_id=row.task_id, message_id=row.message_id, now=now, until=now + FETCH_LEASE):
            continue
        jobs.append(FetchJob(row.task_id, row.message_id, row.chat_id, row.participant, row.sent_by, row.media or "",
                             row.attempts + 1))
    return jobs


def _post(conn: Connection, job: FetchJob, text: str, people: list[str], *, rules: PhotoRules,
          now: datetime) -> None:
    """Queue ``text`` in the photo's group quoting the photo, mentioning ``people`` (their tags are in the text)."""
    forms = group_mentions(conn, job.chat_id, people) if people else {}
    quoted = Quote(chat_id=job.chat_id, message_id=job.message_id, from_me=False,
                              participant=job.participant)
    body = text_payload(chat_id=job.chat_id, text=text, quote=quoted,
                          mentioned=[forms[person][1] for person in people])
    enqueue(conn, chat_id=job.chat_id, kind=JobKind.TEXT, payload=body, label=PHOTO_LABEL,
            dedupe_key=f"photo:{job.message_id}", max_attempts=rules.max_attempts, now=now, task_id=job.task_id)


def _tags(conn: Connection, group_id: str, people: list[str]) -> list[str]:
    return [f"@{digits}" for digits, _jid in group_mentions(conn, group_id, people).values()] if people else []


def photo_arrived(uow: UnitOfWork, files: PhotoFiles, job: FetchJob, data: bytes, *, rules: PhotoRules,
                  now: datetime) -> str:
    """The fetched bytes of a photo: kept (the task waits for approval, the group is told who approves) or refused
    with a reply; what happened, in a word."""
    if len(data) > rules.max_bytes:
        photo_refused(uow, job, "too_big", rules=rules, now=now)
        return "too_big"
    kind = image_kind(data)
    if kind is None:
        photo_refused(uow, job, "not_image", rules=rules, now=now)
        return "not_image"
    name = file_name_for(job.task_id, kind)
    files.save(name, data)
    try:
        if not q.keep_photo(uow.conn, job.task_id, job.message_id, file_name=name, now=now):
            files.delete(name)  # no longer awaited: the rule was dropped or the task deleted meanwhile
            return "stale"
        q.link_photo_message(uow.conn, message_id=job.message_id, task_id=job.task_id, chat_id=job.chat_id,
                             now=now)
        people = approvers_of(uow, job.task_id, besides=job.sent_by)
        description = _description(uow.conn, job.task_id)
        with speaking(group_language_of(uow.conn, job.chat_id, rules.default_language)):
            text = texts.kept(job.task_id, description, _tags(uow.conn, job.chat_id, people))
        _post(uow.conn, job, text, people, rules=rules, now=now)
    except BaseException:
        files.delete(name)
        raise
    return "kept"


def _description(conn: Connection, task_id: int) -> str:
    found = load_tasks(conn, [task_id])
    return found[0].description if found else ""


def photo_refused(uow: UnitOfWork, job: FetchJob, code: str, *, rules: PhotoRules, now: datetime) -> None:
    """The photo is not kept: the task waits for another one, and its sender is told why in the group."""
    found = q.proof_of(uow.conn, job.task_id)
    if found is None or found.message_id != job.message_id or found.state != q.FETCHING:
        return
    q.clear_photo(uow.conn, job.task_id)
    sender = [job.sent_by] if job.sent_by else []
    with speaking(group_language_of(uow.conn, job.chat_id, rules.default_language)):
        said = texts.refused(code, job.task_id, limit_mb=rules.max_mb)
        text = " ".join([*_tags(uow.conn, job.chat_id, sender), said])
    _post(uow.conn, job, text, sender, rules=rules, now=now)


def fetch_failed(uow: UnitOfWork, job: FetchJob, *, retryable: bool, rules: PhotoRules, now: datetime) -> bool:
    """A fetch that failed: tried again later when it may pass and attempts remain (True), else refused."""
    if retryable and job.attempt < MAX_FETCH_ATTEMPTS:
        at = now + RETRY_AFTER[min(job.attempt, len(RETRY_AFTER)) - 1]
        q.fetch_later(uow.conn, job.task_id, job.message_id, at=at)
        return True
    photo_refused(uow, job, "unreadable", rules=rules, now=now)
    return False
