"""The nag tick, a use case (SPEC section 25): read the assignments whose next nag has come through their index
(``task_assignments.nag_next_at``, in bounded batches), and for each decide in one transaction, writing with a
compare-and-set on the ``nag_next_at`` read, so two bot instances send each nag once:

- the task completed, the part done, the task no longer nagging: no more nags for it;
- the person away (their ``away_until`` on or after their today): the next look is the day after the away ends;
- else a direct message naming the task, in their language, through ``services.outreach.start_message`` (quiet
  hours hold it there), and the next one ``every_hours`` later. When a pending person has had their third, the group
  is told once (``tasks.nag_escalated_at``, a compare-and-set too), mentioning everyone still pending.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.chat import chore_replies as texts
from taskcore.chores.away import is_away
from taskcore.chores.nagging import ESCALATE_AFTER, Nag, NagKind, first_nag_at, group_notice, nag_due, next_nag_at
from taskcore.gateway.outbound import chat_jid
from taskcore.i18n import speaking
from taskcore.phones import phone_region
from taskcore.services.chore_notices import post_in_group, tags
from taskcore.services.languages import group_language_of, languages_of
from taskcore.services.outreach import start_message
from taskcore.services.zones import zone_of
from taskcore.storage import nags as q
from taskcore.unit import Batch, Reading, UnitOfWork

BATCH = 200  # assignments read at once; each is then decided in its own short transaction
NAG_LABEL = "nag"


@dataclass(frozen=True, slots=True)
class NagTickResult:
    """What one tick did: nags queued, group notices queued, parts stopped, looks moved (away or not due yet)."""

    sent: int = 0
    notices: int = 0
    stopped: int = 0
    moved: int = 0


_Cursor = tuple[datetime, int, str]  # the last nag read: (next_at, task_id, user_id)


@dataclass(frozen=True, slots=True)
class NagTick:
    """Decide every nag due at ``now``, each in a unit of its own (a batched use case: ``Database.run_batched``;
    ``result`` adds up what it did). ``zone``: TZ, for people with no other; ``default_language``:
    DEFAULT_LANGUAGE."""

    now: datetime
    zone: ZoneInfo
    max_attempts: int
    default_language: str

    def read(self, uow: Reading, after: _Cursor | None) -> Batch[q.DueNag, _Cursor]:
        """The next BATCH due nags."""
        due = q.due_nags(uow.conn, now=self.now, after=after, limit=BATCH)
        return Batch(due, (due[-1].next_at, due[-1].task_id, due[-1].user_id) if len(due) == BATCH else None)

    def write(self, uow: UnitOfWork, part: q.DueNag, before: Sequence[list[str]]) -> list[str]:
        """Decide one nag: what it did, in words (``sent``, ``notice``, ``stopped``, ``moved``)."""
        return _decide(uow.conn, item=part, tick=self)

    def result(self, outcomes: Sequence[list[str]]) -> NagTickResult:
        """What the tick did, from the outcomes of its nags."""
        counts = Counter(word for words in outcomes for word in words)
        return NagTickResult(sent=counts["sent"], notices=counts["notice"], stopped=counts["stopped"],
                             moved=counts["moved"])


def _decide(conn: Connection, *, item: q.DueNag, tick: NagTick) -> list[str]:
    facts = q.nag_facts(conn, item.task_id, item.user_id)
    if facts is None:
        return []
    if facts.completed or facts.done or facts.every_hours is None or facts.due_date is None:
        return ["stopped"] if _move(conn, item, nag_next_at=None) else []
    zone = zone_of(conn, item.user_id, tick.zone).zone
    if facts.away_until is not None and is_away(facts.away_until, tick.now.astimezone(zone).date()):
        return ["moved"] if _move(conn, item, nag_next_at=first_nag_at(facts.away_until, zone)) else []
    action = nag_due(facts.due_date, zone, Nag(facts.every_hours), sent_count=facts.count, last_sent=facts.last_at,
                     now=tick.now, part_done=False, away=False, quiet_window=None)
    if action.kind is NagKind.WAIT:
        return ["moved"] if _move(conn, item, nag_next_at=action.at) else []
    sent = _move(conn, item, nag_count=facts.count + 1, nag_last_at=tick.now,
                 nag_next_at=next_nag_at(tick.now, facts.every_hours))
    if not sent:
        return []
    _send(conn, item, facts, tick)
    return ["sent", *(["notice"] if _escalate(conn, item, facts, tick) else [])]


def _move(conn: Connection, item: q.DueNag, **values: Any) -> bool:
    return q.move_nag(conn, item.task_id, item.user_id, read=item.next_at, values=values)


def _send(conn: Connection, item: q.DueNag, facts: q.NagFacts, tick: NagTick) -> None:
    with speaking(languages_of(conn, [item.user_id], tick.default_language)[item.user_id],
                  region=phone_region(item.user_id)):
        text = texts.nag_message(item.task_id, facts.description, facts.due_date or tick.now.date())
    key = f"nag:{item.task_id}:{item.user_id}:{facts.count + 1}:{int(item.next_at.timestamp())}"
    start_message(conn, user_id=item.user_id, chat_id=chat_jid(item.user_id), text=text, label=NAG_LABEL,
                  max_attempts=tick.max_attempts, now=tick.now, dedupe_key=key, task_id=item.task_id,
                  fallback=tick.zone)


def _escalate(conn: Connection, item: q.DueNag, facts: q.NagFacts, tick: NagTick) -> bool:
    """Tell the group once, when a pending person has had their third nag."""
    if facts.group_id is None:
        return False
    counts = q.pending_counts(conn, item.task_id)
    people = group_notice(counts, counts.keys(), facts.escalated)
    if not people or not q.escalate(conn, item.task_id, tick.now):
        return False
    with speaking(group_language_of(conn, facts.group_id, tick.default_language)):
        written = tags(conn, facts.group_id, people)
        text = texts.nag_escalation(item.task_id, facts.description, [written[user] for user in people],
                                    ESCALATE_AFTER)
    post_in_group(conn, facts.group_id, text, people, dedupe_key=f"nag-group:{item.task_id}:{item.next_at.timestamp()}",
                  task_id=item.task_id, max_attempts=tick.max_attempts, now=tick.now)
    return True
