"""One reminder tick (SPEC section 10): find the slots due now, skip those already recorded, claim each (user, slot)
in ``reminder_deliveries`` before queueing its digest, so a restart or a second instance never sends twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode
from taskcore.gateway.outbound import chat_number, send_text_body
from taskcore.outbound import JobKind
from taskcore.reminders import slot_key
from taskcore.reminders_digest import digest_text, digest_until, plan_slots, slot_outcome
from taskcore.storage import tasks as task_queries
from taskcore.storage.db import Database
from taskcore.storage.housekeeping import claim_delivery
from taskcore.storage.queue import enqueue
from taskcore.storage.reminder_queries import undelivered_users

CHUNK = 100  # deliveries per write transaction: keeps the write lock short for the bot's other writers


@dataclass(frozen=True, slots=True)
class DueReminder:
    """A user whose slot is due and not yet recorded."""

    user_id: str
    slot: datetime
    key: str


@dataclass(frozen=True, slots=True)
class TickResult:
    """What one tick did: digests queued on time (sent) or late, slots recorded with nothing to send (skipped)."""

    sent: int = 0
    late: int = 0
    skipped: int = 0

    @property
    def queued(self) -> int:
        """How many messages the tick queued."""
        return self.sent + self.late


def due_reminders(
    db: Database, *, now: datetime, zone: ZoneInfo, grace_minutes: int, since: datetime | None = None
) -> list[DueReminder]:
    """The tick's plan: every (user, slot) due at ``now`` (after ``since``, see plan_slots) with no delivery yet."""
    by_time: dict[tuple[str, datetime], list[str]] = {}
    for (freq, time), slot in plan_slots(now, zone, grace_minutes, since=since).items():
        by_time.setdefault((time, slot), []).append(freq)
    if not by_time:
        return []
    with db.read() as conn:
        return [DueReminder(user, slot, key)
                for (time, slot), freqs in sorted(by_time.items())
                for key in [slot_key(slot)]
                for user in undelivered_users(conn, time=time, freqs=sorted(freqs), slot=key)]


def reminder_tick(
    db: Database, mode: GatingMode, *, now: datetime, zone: ZoneInfo, grace_minutes: int, max_attempts: int,
    since: datetime | None = None,
) -> TickResult:
    """Queue the digest of every due reminder (nothing when nothing is open), recording each slot once.

    ``since``: the ``now`` of the last tick that completed in this process, so that only the slots due after it
    are looked at (None, as after a start: every slot in the grace window)."""
    today = now.astimezone(zone).date()
    counts = {"sent": 0, "late": 0, "empty": 0}
    todo = due_reminders(db, now=now, zone=zone, grace_minutes=grace_minutes, since=since)
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start : start + CHUNK]
        with db.read() as conn:
            texts = [_digest(conn, mode, item.user_id, today) for item in chunk]
        for outcome in db.transact(partial(_deliver, chunk=chunk, texts=texts, now=now, max_attempts=max_attempts)):
            counts[outcome] += 1
    return TickResult(sent=counts["sent"], late=counts["late"], skipped=counts["empty"])


def _digest(conn: Connection, mode: GatingMode, user_id: str, today: date) -> str | None:
    tasks = task_queries.open_tasks_for_digest(conn, user_id, mode, until=digest_until(today))
    unassigned = task_queries.unassigned_in_my_groups(conn, user_id, mode)
    return digest_text(tasks, today=today, unassigned=unassigned)


def _deliver(
    conn: Connection, *, chunk: Sequence[DueReminder], texts: Sequence[str | None], now: datetime, max_attempts: int
) -> list[str]:
    """Claim each slot, then queue its digest; only the claimer queues. The outcomes of the claimed slots."""
    outcomes: list[str] = []
    for item, text in zip(chunk, texts, strict=True):
        outcome = "empty" if text is None else slot_outcome(item.slot, now)
        if not claim_delivery(conn, user_id=item.user_id, slot=item.key, outcome=outcome, now=now):
            continue
        outcomes.append(outcome)
        if text is not None:
            body = send_text_body(chat_id=item.user_id, text=text)
            enqueue(conn, chat_id=chat_number(item.user_id), kind=JobKind.TEXT.value, payload=body,
                    dedupe_key=f"reminder:{item.user_id}:{item.key}", max_attempts=max_attempts, now=now)
    return outcomes
