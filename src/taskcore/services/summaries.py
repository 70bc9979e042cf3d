"""Summaries as use cases (SPEC section 25): ``/t resumen`` of a group or of one person, the group's weekly summary
moment, and the weekly tick that posts it once even with several bot instances.

The weekly tick reads the due groups through the ``summary_next_at`` index; for each, in one transaction, it moves
the moment to the next week with a compare-and-set on the value it read, and only when that moved a row it queues the
summary with the dedupe key ``summary:<group>:<due instant>``: a second instance's run finds nothing to move (or, when
it read the row before the first committed, its compare-and-set moves nothing), so the text is queued once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.chores.clock import local_wall
from taskcore.chores.summary import MemberSummary, Period, Span, period_span, span_instants, summarise, weekly_span
from taskcore.chores.texts import summary_text
from taskcore.chores.weekly import WeeklyMoment, next_weekly
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import speaking
from taskcore.queue_rules import JobKind
from taskcore.services.languages import group_language_of
from taskcore.shown import shown_name
from taskcore.storage import groups
from taskcore.storage import summaries as q
from taskcore.storage.members import active_members
from taskcore.storage.queue import enqueue
from taskcore.storage.users import display_names
from taskcore.unit import Batch, Reading, UnitOfWork
from taskcore.zones import zone_named

SUMMARY_LABEL = "summary"
TICK_LIMIT = 500  # groups per tick; the rest are read at the next one


@dataclass(frozen=True, slots=True)
class Whose:
    """Whose summary: a group's (its members) or, with ``group_id`` None, one person's across their groups."""

    group_id: str | None
    user_id: str | None = None


def summary_lines(conn: Connection, whose: Whose, span: Span, *, today: date, zone: ZoneInfo
                  ) -> tuple[list[MemberSummary], dict[str, str]]:
    """Per member, done and points in ``span`` (in ``zone``) and their overdue at ``today``; the members' names."""
    start, end = span_instants(span, zone)
    rows = q.summary_rows(conn, start=start, end=end, today=today, group_id=whose.group_id, user_id=whose.user_id)
    members = [p.id for p in active_members(conn, whose.group_id)] if whose.group_id else [str(whose.user_id)]
    lines = summarise(rows, span, today, zone, members=members)
    names = {user: name for user, name in display_names(conn, [line.user_id for line in lines]).items() if name}
    return lines, names


def summary_for(conn: Connection, whose: Whose, period: Period | Span, *, today: date, zone: ZoneInfo) -> str:
    """The summary text, in the language in force: per member, done and points in the period, their overdue."""
    span = period_span(period, today) if isinstance(period, Period) else period
    lines, names = summary_lines(conn, whose, span, today=today, zone=zone)
    return summary_text(period if isinstance(period, Period) else Period.WEEK, span, lines, names)


def group_week(uow: Reading, *, group_id: str, now: datetime, zone: ZoneInfo) -> list[tuple[str, MemberSummary]]:
    """This week's summary of a group (its page, SPEC section 25): each member's shown name and line."""
    today = local_wall(now, zone).date()
    conn = uow.conn
    lines, names = summary_lines(conn, Whose(group_id), period_span(Period.WEEK, today), today=today, zone=zone)
    return [(shown_name(names.get(line.user_id)), line) for line in lines]


def set_weekly(uow: UnitOfWork, *, group_id: str, moment: WeeklyMoment | None, now: datetime,
               zone: ZoneInfo) -> datetime | None:
    """Set (or with None stop) the group's weekly summary; the instant of the next one."""
    next_at = None if moment is None else next_weekly(now, moment.weekday, moment.at, zone)
    conn = uow.conn
    q.set_weekly(conn, group_id, moment.weekday if moment else None, moment.at if moment else None, next_at)
    if moment is not None and groups.group_zone(conn, group_id) is None:
        groups.save_group_zone(conn, group_id, zone.key, now)  # the group's zone is now its summary's
    return next_at


@dataclass(frozen=True, slots=True)
class WeeklyTick:
    """Post every due weekly summary once (see the module), each in its group's zone (``zone``, TZ, for a group
    without one) and in a unit of its own (a batched use case: ``Database.run_batched``; ``result``: how many were
    queued). TICK_LIMIT groups a tick; the rest are read at the next one."""

    now: datetime
    zone: ZoneInfo
    default_language: str
    max_attempts: int

    def read(self, uow: Reading, after: None) -> Batch[q.WeeklyRow, None]:
        """The summaries due now."""
        return Batch(q.due_weekly(uow.conn, now=self.now, limit=TICK_LIMIT))

    def write(self, uow: UnitOfWork, part: q.WeeklyRow, before: Sequence[bool]) -> bool:
        """Post one group's summary, if this run moved its moment."""
        return _post(uow.conn, row=part, now=self.now, zone=self.zone, default=self.default_language,
                     attempts=self.max_attempts)

    def result(self, outcomes: Sequence[bool]) -> int:
        """How many summaries were queued."""
        return sum(outcomes)


def _post(conn: Connection, *, row: q.WeeklyRow, now: datetime, zone: ZoneInfo, default: str, attempts: int) -> bool:
    """Move one group's moment (compare-and-set) and, when this run moved it, queue its summary."""
    zone = zone_named(row.time_zone, zone)
    following = next_weekly(max(now, row.next_at), row.weekday, row.at, zone)
    if not q.advance_weekly(conn, row.group_id, seen=row.next_at, next_at=following):
        return False
    post_day = local_wall(row.next_at, zone).date()
    with speaking(group_language_of(conn, row.group_id, default)):
        text = summary_for(conn, Whose(row.group_id), weekly_span(post_day), today=post_day, zone=zone)
    key = f"summary:{row.group_id}:{row.next_at.isoformat()}"
    queued = enqueue(conn, chat_id=row.group_id, kind=JobKind.TEXT, label=SUMMARY_LABEL, dedupe_key=key,
                     payload=text_payload(chat_id=row.group_id, text=text), max_attempts=attempts, now=now)
    return queued is not None
