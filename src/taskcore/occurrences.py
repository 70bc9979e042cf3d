"""The dates of a recurring task's series (SPEC sections 20 and 41): its first date, the one after a completed
occurrence, each in its season's window. Values in, values out: ``today`` is always an argument. The dates are
computed by python-dateutil's ``rrule`` over plain dates (midnight, no zone), so a change of daylight saving time can
never move an occurrence to another day. ``taskcore.recurrence`` reads and writes the rules and names these too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from taskcore import seasons
from taskcore.errors import InvalidRecurrence
from taskcore.i18n import _

if TYPE_CHECKING:
    from dateutil.rrule import rrule

_DAY = timedelta(days=1)


class _Rule(Protocol):
    @property
    def rule(self) -> str: ...


def _rule_text(rule: _Rule | str) -> str:
    return rule.rule if not isinstance(rule, str) else rule


def _series(rule: str, start: date) -> rrule:
    # Loaded with the first series computed: a process that never meets a recurring task (the proxy, the supervisor,
    # a bot whose groups use none) never holds dateutil's rrule and its parser.
    from dateutil.rrule import rrule, rrulestr  # noqa: PLC0415

    try:
        series = rrulestr(rule, dtstart=datetime(start.year, start.month, start.day))
    except (ValueError, TypeError) as exc:
        raise InvalidRecurrence(_("RRULE no válida: {rule}", rule=repr(rule[:80])), field="recurrence") from exc
    if not isinstance(series, rrule):  # an RRULE value, never a set with EXDATE and the like
        raise InvalidRecurrence(_("RRULE no válida: {rule}", rule=repr(rule[:80])), field="recurrence")
    return series


def first_occurrence(rule: _Rule | str, *, today: date) -> date | None:
    """The first date of the series on or after ``today`` (the first due date when the command gives none); a
    season's first date in its window (SPEC section 41). A step (``INTERVAL``) counts from the first date, so it
    never delays it: ``cada 2 semanas`` on Mondays starts on the first Monday, not on the one after."""
    return _earliest(seasons.split(_rule_text(rule)), today,
                     lambda part: _in_season(seasons.without(part, "INTERVAL"), today, inc=True))


def next_occurrence(rule: _Rule | str, after: date, *, today: date) -> date | None:
    """The date of the occurrence that follows the one due on ``after``: the first date of the series (started on
    ``after``) later than ``after`` and not before ``today``, so missed dates are skipped, never piled up. None when
    the series has ended (an RRULE with COUNT or UNTIL). A rule with seasons (SPEC section 41) has none outside its
    windows: a date that falls outside moves to the rule's first date when its window opens again."""
    floor = max(after, today - _DAY)
    return _earliest(seasons.split(_rule_text(rule)), floor + _DAY, lambda part: _in_season(part, floor, start=after))


def _in_season(part: str, floor: date, *, start: date | None = None, inc: bool = False) -> date | None:
    """The first date of one RRULE (its series started on ``start``, else ``floor``) after ``floor`` (on it too,
    ``inc``) that falls in its window: at most two series computed, the second only when the first date is out."""
    months, bare = seasons.months_of(part), seasons.without(part, "BYMONTH")
    found = _after(bare, start or floor, floor, inc=inc)
    if found is None or months is None or found.month in months:
        return found
    opens = seasons.window_start(found, months)
    return _after(seasons.without(bare, "INTERVAL"), opens, opens, inc=True)


def _after(rule: str, start: date, floor: date, *, inc: bool) -> date | None:
    found = _series(rule, start).after(datetime(floor.year, floor.month, floor.day), inc=inc)
    return None if found is None else found.date()


def _earliest(parts: Sequence[str], first: date, date_of: Callable[[str], date | None]) -> date | None:
    """The earliest of the parts' dates (none before ``first``), computing a part's only while its window can still
    open before the earliest found: with two seasons, the one in force usually answers alone."""
    best: date | None = None
    for opens, part in sorted((_opens(part, first), part) for part in parts):
        if best is not None and best < opens:
            break
        found = date_of(part)
        best = found if best is None or (found is not None and found < best) else best
    return best


def _opens(part: str, day: date) -> date:
    """The first day on or after ``day`` in the part's window: none of its dates from ``day`` on is earlier."""
    months = seasons.months_of(part)
    return day if months is None else seasons.window_start(day, months)
