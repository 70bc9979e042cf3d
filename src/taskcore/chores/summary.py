"""Summaries (SPEC section 25): per member, the tasks completed and points earned in a period, and their overdue tasks.

Choices the SPEC leaves open:

- ``semana`` is the calendar week (Monday to Sunday, ISO) that contains today, ``mes`` the calendar month; without a
  word, the week. Both are read in the zone given: the group's (TZ) in a group, the person's in a direct message.
- Overdue tasks are those open with a due date before today, whatever the period: what is late now.
- Rows are ordered by points (most first), then tasks completed (most first), then user id; members named in
  ``members`` appear even with nothing to show.
- The weekly post summarises a whole week: the current one when posted Friday to Sunday, else the one before (a
  Monday 09:00 post tells about last week, not about the first hours of this one).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from taskcore.chores.clock import wall_instant
from taskcore.chores.rows import CompletionRow, OpenRow
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.words.read import period as period_word

_WEEK = timedelta(days=7)
_FRIDAY = 4


class Period(enum.StrEnum):
    """The span ``/t resumen`` covers."""

    WEEK = "week"
    MONTH = "month"


@dataclass(frozen=True, slots=True)
class Span:
    """Local dates ``first`` to ``last``, both included."""

    first: date
    last: date


@dataclass(frozen=True, slots=True)
class MemberSummary:
    """One member's line: tasks completed and points in the span, ids of their overdue open tasks (ascending)."""

    user_id: str
    completed: int
    points: int
    overdue: tuple[int, ...]


def parse_period(word: str | None) -> Period:
    """``semana``/``week`` or ``mes``/``mês``/``month`` (any case, accents optional); None is the week."""
    if word is None:
        return Period.WEEK
    said = period_word(word)
    if said is None:
        raise InvalidChoreSetting(_("el resumen es de una semana o de un mes"), field="period")
    return Period(said)


def period_span(period: Period, today: date) -> Span:
    """The calendar week (Monday to Sunday) or month that contains ``today``."""
    if period is Period.WEEK:
        monday = today - timedelta(days=today.weekday())
        return Span(monday, monday + timedelta(days=6))
    first = today.replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return Span(first, following - timedelta(days=1))


def weekly_span(post_day: date) -> Span:
    """The week a weekly post on ``post_day`` (local) tells about: this one from Friday on, else the one before."""
    week = period_span(Period.WEEK, post_day)
    if post_day.weekday() >= _FRIDAY:
        return week
    return Span(week.first - _WEEK, week.last - _WEEK)


def span_instants(span: Span, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The UTC instants the span starts at (included) and ends at (excluded) in ``zone``."""
    start = wall_instant(datetime.combine(span.first, time()), zone)
    return start, wall_instant(datetime.combine(span.last + timedelta(days=1), time()), zone)


def summarise(
    rows: Iterable[CompletionRow | OpenRow], period: Period | Span, today: date, zone: ZoneInfo, *,
    members: Iterable[str] = (),
) -> list[MemberSummary]:
    """Per member: completions and points in the period (in ``zone``), overdue open tasks at ``today``."""
    start, end = span_instants(period_span(period, today) if isinstance(period, Period) else period, zone)
    tally: dict[str, tuple[int, int, set[int]]] = {user: (0, 0, set()) for user in members}
    for row in rows:
        if isinstance(row, CompletionRow) and start <= row.completed_at < end:
            completed, points, overdue = tally.get(row.user_id, (0, 0, set()))
            tally[row.user_id] = (completed + 1, points + row.points, overdue)
        elif isinstance(row, OpenRow) and row.due_date is not None and row.due_date < today:
            tally.setdefault(row.user_id, (0, 0, set()))[2].add(row.task_id)
    lines = [MemberSummary(user, done, points, tuple(sorted(late))) for user, (done, points, late) in tally.items()]
    return sorted(lines, key=lambda line: (-line.points, -line.completed, line.user_id))
