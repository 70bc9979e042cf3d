"""The reminder tick, a use case (SPEC sections 10 and 21): read the preferences whose next look has come (an index
search, so a quiet minute costs nothing however many users and zones there are), plan each in its user's zone
(``slots.plan_row``), claim each due (user, slot) in the ledger (``reminder_deliveries``) before queueing its digest,
so a restart or a second instance never sends twice, and store each row's next look in the same transaction.

Each digest is written in its reader's language (SPEC section 24), read for a whole batch of users with one statement.
The one read of the due rows brings each user's quiet hours and away date (SPEC section 25): the away get no digest
(their slot is recorded empty), a digest due inside its reader's quiet hours is held (``held_messages``) until the
window ends, when ``services.quiet.release_held`` sends it merged with whatever else was held.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode
from taskcore.gateway.outbound import chat_jid, text_payload
from taskcore.i18n import SOURCE, speaking
from taskcore.languages import effective_language
from taskcore.pacing import digest_due
from taskcore.phones import phone_region
from taskcore.queue_rules import DIGEST_LABEL, JobKind
from taskcore.reminders.digest import digest_text, digest_until
from taskcore.reminders.slots import DueReminder, Plan, Planner, slot_outcome
from taskcore.services.quiet_tick import held_releases, reachable
from taskcore.storage.queue import enqueue_many
from taskcore.storage.quiet import hold_many
from taskcore.storage.reminders import claim_deliveries, digest_tasks, due_preferences, plan_next, unassigned_counts
from taskcore.unit import Batch, Reading, UnitOfWork

# Preferences read and digests built together (a few statements per chunk): at the peak each read starts again from
# the rows not yet planned (the index is on next_due_at alone), and a group's unassigned tasks are counted once per
# read; 8,000 rows take the bench's busiest minute (5,985) in one read, ~2.5 MB more at the peak than 2,000 did.
READ_CHUNK = 8000
CHUNK = 250  # rows per write transaction: ~10 ms of write lock at the peak, short for the bot's other writers
MAX_CHUNKS = 100_000  # a bound on one tick's loop: 800 million rows


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


def plan_due(uow: Reading, *, now: datetime, zone: ZoneInfo, grace_minutes: int) -> list[Plan]:
    """The tick's plan without acting on it: every preference whose next look has come, planned in its user's zone
    (``zone``, TZ, for users with neither a chosen zone nor a country's)."""
    planner = Planner(now=now, fallback=zone, grace_minutes=grace_minutes)
    plans: list[Plan] = []
    after = None
    for _ in range(MAX_CHUNKS):
        rows = due_preferences(uow.conn, now=now, after=after, limit=READ_CHUNK)
        plans += [planner.plan(row) for row in rows]
        if len(rows) < READ_CHUNK:
            break
        after = (rows[-1].next_due_at, rows[-1].user_id)
    return plans


_Cursor = tuple[datetime, str]  # the last row read: (next_due_at, user_id)


@dataclass(frozen=True, slots=True)
class _Part:
    """Up to CHUNK planned rows, with the digests of those due and the quiet hours that hold some of them."""

    plans: Sequence[Plan]
    texts: Mapping[str, str | None]
    holds: Mapping[str, datetime]


@dataclass(frozen=True, slots=True)
class ReminderTick:
    """Queue the digest of every due reminder (nothing when nothing is open), recording each slot once, and plan
    each row looked at for its next slot (a batched use case: ``Database.run_batched``; ``result`` adds up what it
    did). ``zone`` is TZ, the zone of users with no other (SPEC section 21). ``sends_per_min``
    (GATEWAY_MAX_SENDS_PER_MIN) spreads the digests' due times at the send rate within the grace window
    (``pacing.digest_due``); None queues every digest due now. ``default_language`` (DEFAULT_LANGUAGE) is the
    language of users with neither a chosen language nor a country's."""

    mode: GatingMode
    now: datetime
    zone: ZoneInfo
    grace_minutes: int
    max_attempts: int
    sends_per_min: int | None = None
    default_language: str = SOURCE

    def read(self, uow: Reading, after: _Cursor | None) -> Batch[_Part, _Cursor]:
        """The next READ_CHUNK due rows, planned, with their digests, in parts of CHUNK rows."""
        rows = due_preferences(uow.conn, now=self.now, after=after, limit=READ_CHUNK)
        planner = Planner(now=self.now, fallback=self.zone, grace_minutes=self.grace_minutes)
        plans = [planner.plan(row) for row in rows]
        chosen = {plan.row.user_id: plan.row.lang for plan in plans if plan.row.lang}
        texts = _digests(uow.conn, self.mode, reachable(plans), chosen, self.default_language)
        holds = held_releases(plans, now=self.now, fallback=self.zone)
        parts = [_Part(plans[first:first + CHUNK], texts, holds) for first in range(0, len(plans), CHUNK)]
        # the last rows due: another read would search the index again for nothing
        return Batch(parts, (rows[-1].next_due_at, rows[-1].user_id) if len(rows) == READ_CHUNK else None)

    def write(self, uow: UnitOfWork, part: _Part, before: Sequence[list[str]]) -> list[str]:
        """Deliver one part, its digests spread after those queued before it."""
        queued = sum(outcome != "empty" for outcomes in before for outcome in outcomes)
        spread = _Spread(self.now, queued, self.grace_minutes, self.sends_per_min)
        return _deliver(uow.conn, plans=part.plans, texts=part.texts, now=self.now, max_attempts=self.max_attempts,
                        spread=spread, holds=part.holds)

    def result(self, outcomes: Sequence[list[str]]) -> TickResult:
        """What the tick did, from the outcomes of its parts."""
        counts = Counter(outcome for part in outcomes for outcome in part)
        return TickResult(sent=counts["sent"], late=counts["late"], skipped=counts["empty"])


def _digests(conn: Connection, mode: GatingMode, due: Sequence[DueReminder], chosen: Mapping[str, str],
             default: str) -> dict[str, str | None]:
    """The digest of each due user in their own today and language (``chosen``: the languages read with their rows;
    None: nothing to tell), read for all with two statements."""
    if not due:
        return {}
    users = [item.user_id for item in due]
    tasks = digest_tasks(conn, users, mode, until=digest_until(max(item.today for item in due)))
    unassigned = unassigned_counts(conn, users, mode)
    texts: dict[str, str | None] = {}
    for item in due:
        mine, free = tasks.get(item.user_id, ()), unassigned.get(item.user_id, 0)
        if not mine and free <= 0:
            texts[item.user_id] = None  # most users due at a peak: nothing to tell, no language to look up
            continue
        with speaking(effective_language(chosen.get(item.user_id), item.user_id, default)[0],
                      region=phone_region(item.user_id)):
            texts[item.user_id] = digest_text(mine, today=item.today, unassigned=free)
    return texts


@dataclass(frozen=True, slots=True)
class _Spread:
    """How a chunk's digests get their due times: the tick's ``queued`` digests so far come first."""

    now: datetime
    queued: int
    grace_minutes: int
    per_min: int | None

    def due(self, index: int, slot: datetime) -> datetime:
        if self.per_min is None:
            return self.now
        return digest_due(self.now, index=self.queued + index, per_min=self.per_min,
                          window_end=slot + timedelta(minutes=self.grace_minutes))


def _deliver(
    conn: Connection, *, plans: Sequence[Plan], texts: Mapping[str, str | None], now: datetime, max_attempts: int,
    spread: _Spread, holds: Mapping[str, datetime],
) -> list[str]:
    """Claim every due slot (one statement), queue the digests of the claimed ones (one driver call; those of
    ``holds``, inside their quiet hours, held until then instead) and store each row's next look; only the claimer
    queues. The outcomes of the claimed slots."""
    wanted = [(item, texts.get(item.user_id)) for item in (plan.due for plan in plans) if item is not None]
    outcome = {item.user_id: "empty" if text is None else slot_outcome(item.slot, now) for item, text in wanted}
    claimed = claim_deliveries(conn, [(item.user_id, item.key, outcome[item.user_id]) for item, _ in wanted],
                               now=now)
    mine = [(item, text) for item, text in wanted if (item.user_id, item.key) in claimed]
    digests = [(item, text) for item, text in mine if text is not None and item.user_id not in holds]
    hold_many(conn, [{"user_id": item.user_id, "chat_id": item.user_id, "text": text, "label": DIGEST_LABEL,
                      "dedupe_key": f"reminder:{item.user_id}:{item.key}", "held_at": now,
                      "release_at": holds[item.user_id]}
                     for item, text in mine if text is not None and item.user_id in holds])
    enqueue_many(conn, [
        {"chat_id": chat_jid(item.user_id), "kind": JobKind.TEXT.value, "label": DIGEST_LABEL,
         "payload": text_payload(chat_id=item.user_id, text=text), "due": spread.due(n, item.slot),
         "dedupe_key": f"reminder:{item.user_id}:{item.key}"}
        for n, (item, text) in enumerate(digests)
    ], max_attempts=max_attempts, now=now)
    plan_next(conn, [(plan.row.user_id, plan.row.updated_at, plan.next_due_at) for plan in plans])
    return [outcome[item.user_id] for item, _ in mine]
