"""The reminder tick, a use case (SPEC section 10): find the slots due now, skip those the delivery ledger already
holds, claim each (user, slot) in the ledger (``reminder_deliveries``) before queueing its digest, so a restart or a
second instance never sends twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode
from taskcore.gateway.wire import chat_number, send_text_body
from taskcore.queue_rules import JobKind
from taskcore.reminders.digest import digest_text, digest_until
from taskcore.reminders.schedule import slot_key
from taskcore.reminders.slots import plan_slots, slot_outcome
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue_many
from taskcore.storage.reminders import claim_deliveries, digest_tasks, unassigned_counts, undelivered_users

READ_CHUNK = 500  # users whose digests are read together (two statements per chunk)
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
    for start in range(0, len(todo), READ_CHUNK):
        chunk = todo[start : start + READ_CHUNK]
        with db.read() as conn:
            texts = _digests(conn, mode, [item.user_id for item in chunk], today)
        for first in range(0, len(chunk), CHUNK):
            outcomes = db.transact(partial(_deliver, chunk=chunk[first : first + CHUNK],
                                           texts=texts[first : first + CHUNK], now=now, max_attempts=max_attempts))
            for outcome in outcomes:
                counts[outcome] += 1
    return TickResult(sent=counts["sent"], late=counts["late"], skipped=counts["empty"])


def _digests(conn: Connection, mode: GatingMode, user_ids: Sequence[str], today: date) -> list[str | None]:
    """The digest of each user (None: nothing to tell), read for all of them with two statements."""
    tasks = digest_tasks(conn, user_ids, mode, until=digest_until(today))
    unassigned = unassigned_counts(conn, user_ids, mode)
    return [digest_text(tasks.get(user, ()), today=today, unassigned=unassigned.get(user, 0)) for user in user_ids]


def _deliver(
    conn: Connection, *, chunk: Sequence[DueReminder], texts: Sequence[str | None], now: datetime, max_attempts: int
) -> list[str]:
    """Claim every slot (one statement), then queue the digests of the claimed ones (one driver call); only the
    claimer queues. The outcomes of the claimed slots."""
    wanted = [(item, text, "empty" if text is None else slot_outcome(item.slot, now))
              for item, text in zip(chunk, texts, strict=True)]
    claimed = claim_deliveries(conn, [(item.user_id, item.key, outcome) for item, _, outcome in wanted], now=now)
    mine = [(item, text, outcome) for item, text, outcome in wanted if (item.user_id, item.key) in claimed]
    enqueue_many(conn, [
        {"chat_id": chat_number(item.user_id), "kind": JobKind.TEXT.value,
         "payload": send_text_body(chat_id=item.user_id, text=text),
         "dedupe_key": f"reminder:{item.user_id}:{item.key}"}
        for item, text, _ in mine if text is not None
    ], max_attempts=max_attempts, now=now)
    return [outcome for _, _, outcome in mine]
