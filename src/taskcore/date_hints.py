"""Dates as people write them (SPEC section 23): the date a word most likely means, and when a task is due.

Pure rules: words and ``today`` in, dates out; nothing here refuses or accepts a date (D1-D3 do), it only names the
date a person most likely meant. Choices the SPEC leaves open:

- Words are compared ignoring case and accents (``text.fold``) and the punctuation around them (``viernes,``).
- A weekday word may follow ``el``, ``este``, ``próximo`` (``na``, ``no``, ``esta``, ``próxima``; ``on``, ``this``,
  ``next``) or stand alone: the guess is the same, the next such weekday strictly after today (``próximo viernes``
  on a Thursday is the next day). ``segunda-feira`` reads as ``segunda``.
- A day and month in words is ``1 de diciembre``, ``1º de dezembro``, ``1 December``, ``December 1``, ``1st of
  December`` (any language's month names: ``setiembre`` too); a year written after it is not read.
- When a text holds both, the day and month in words wins over a weekday (it names one day; a weekday one in every
  week); within each kind the first in the text wins.
- A day and month that never exists (``31/04``) guesses nothing; ``29/02`` is the next leap year's.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Sequence
from datetime import MAXYEAR, date, timedelta

from taskcore.dates import format_due_date
from taskcore.i18n import N_, _
from taskcore.text import fold

__all__ = ["AHEAD_LIMIT_DAYS", "When", "day_month_guess", "day_month_words_guess", "looks_wrong", "suggestion",
           "weekday_guess", "when_mark"]

AHEAD_LIMIT_DAYS = 365
"""A due date further ahead than this many days looks wrong."""

_DAY_MONTH = re.compile(r"([0-9]{1,2})[/-]([0-9]{1,2})")
_DAY = re.compile(r"([0-9]{1,2})(?:st|nd|rd|th|o)?")
_EDGES = re.compile(r"^\W+|\W+$")
_OF = frozenset({"de", "of"})
_LEAP_CYCLE = 9  # years to look ahead: 29/02 comes back within eight (2096, then 2104)


def _table(rows: Sequence[str], first: int) -> dict[str, int]:
    return {word: first + index for row in rows for index, word in enumerate(row.split())}


_WEEKDAYS = _table(("lunes martes miercoles jueves viernes sabado domingo",
                    "segunda terca quarta quinta sexta sabado domingo",
                    "monday tuesday wednesday thursday friday saturday sunday"), 0)
_MONTHS = _table(("enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
                  "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro",
                  "january february march april may june july august september october november december"), 1)
_MONTHS["setiembre"] = 9


class When(enum.StrEnum):
    """When a listed task is due, as its listing marks it: ``(hoy)``, ``(mañana)``, ``(vencida)``."""

    TODAY = "today"
    TOMORROW = "tomorrow"
    OVERDUE = "overdue"


def looks_wrong(due: date, today: date) -> bool:
    """True for a due date before today or more than 365 days after it."""
    return due < today or (due - today).days > AHEAD_LIMIT_DAYS


def when_mark(due: date | None, today: date) -> When | None:
    """TODAY, TOMORROW or OVERDUE (before today) for a listing's due date; None otherwise or without one."""
    if due is None or (due - today).days > 1:
        return None
    if due < today:
        return When.OVERDUE
    return When.TODAY if due == today else When.TOMORROW


def _next_day_month(day: int, month: int, today: date) -> date | None:
    """The first date on or after ``today`` with this day and month; None when they never make a date."""
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    for year in range(today.year, min(today.year + _LEAP_CYCLE, MAXYEAR + 1)):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def day_month_guess(token: str, today: date) -> date | None:
    """The date a ``31/12``, ``31-12`` or ``5/3`` token most likely means (day first): the next on or after today."""
    match = _DAY_MONTH.fullmatch(token.strip())
    if match is None:
        return None
    return _next_day_month(int(match.group(1)), int(match.group(2)), today)


def _plain(word: str) -> str:
    return _EDGES.sub("", fold(word))


def _weekday(word: str) -> int | None:
    return _WEEKDAYS.get(_plain(word).removesuffix("-feira"))


def weekday_guess(words: Sequence[str], today: date) -> date | None:
    """The next date strictly after today on the first weekday the words name (``el viernes``, ``segunda``)."""
    for word in words:
        weekday = _weekday(word)
        if weekday is not None:
            try:
                return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
            except OverflowError:  # the last days of the calendar
                return None
    return None


def _day(word: str | None) -> int | None:
    match = None if word is None else _DAY.fullmatch(word)
    return None if match is None else int(match.group(1))


def _day_months(plain: list[str]) -> Iterator[tuple[int, int]]:
    """Every (day, month) written around a month name: ``1 de diciembre``, ``1st of December``, ``December 1``."""
    for at, word in enumerate(plain):
        month = _MONTHS.get(word)
        if month is None:
            continue
        before = plain[at - 1] if at >= 1 else None
        if before in _OF and at >= 2:
            before = plain[at - 2]
        for day in (_day(before), _day(plain[at + 1] if at + 1 < len(plain) else None)):
            if day is not None:
                yield day, month


def day_month_words_guess(words: Sequence[str], today: date) -> date | None:
    """The next date on or after today with the first day and month the words name (``1 de diciembre``)."""
    for day, month in _day_months([_plain(word) for word in words]):
        guess = _next_day_month(day, month, today)
        if guess is not None:
            return guess
    return None


def suggestion(words: Sequence[str], today: date) -> date | None:
    """The date a dateless task's words most likely mean: a day and month in words, else a weekday; None."""
    return day_month_words_guess(words, today) or weekday_guess(words, today)


_MARKS = {When.TODAY: N_("(hoy)"), When.TOMORROW: N_("(mañana)"), When.OVERDUE: N_("(vencida)")}


def shown_due(due: date, today: date) -> str:
    """A due date as listings show it (D4), followed by ``(hoy)``, ``(mañana)`` or ``(vencida)`` when it is today,
    tomorrow or before today, in the language in force."""
    mark = when_mark(due, today)
    return format_due_date(due) + (f" {_(_MARKS[mark])}" if mark is not None else "")
