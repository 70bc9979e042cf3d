"""Dates as people write them (SPEC section 23): the date a word most likely means, and when a task is due.

Pure rules: words and ``today`` in, dates out; nothing here refuses or accepts a date (D1-D3 do), it only names the
date a person most likely meant. Choices the SPEC leaves open:

- Words are read by the lexicons' readers (``taskcore.words.read``): any case, accents optional, the punctuation
  around them ignored (``viernes,``).
- A weekday word may follow ``el``, ``este``, ``próximo`` (``na``, ``no``, ``esta``, ``próxima``; ``on``, ``this``,
  ``next``) or stand alone: the guess is the same, the next such weekday strictly after today (``próximo viernes``
  on a Thursday is the next day). Free text is searched for full weekday names only (``mar`` is the sea).
- A day and month in words is ``1 de diciembre``, ``1º de dezembro``, ``1 December``, ``December 1``, ``1st of
  December``, ``Dec 1``, ``1 dic`` (any language's month names and abbreviations); a year written after it is not
  read.
- When a text holds both, the day and month in words wins over a weekday (it names one day; a weekday one in every
  week); within each kind the first in the text wins.
- A day and month that never exists (``31/04``) guesses nothing; ``29/02`` is the next leap year's.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import MAXYEAR, date, timedelta

from taskcore.i18n import N_, _, day_and_month
from taskcore.words.read import day_month, day_months, weekday

__all__ = [
    "AHEAD_LIMIT_DAYS",
    "When",
    "day_month_guess",
    "day_month_words_guess",
    "format_due_date",
    "hint_lines",
    "looks_wrong",
    "suggestion",
    "weekday_guess",
    "when_mark",
]

AHEAD_LIMIT_DAYS = 365
"""A due date further ahead than this many days looks wrong."""

_LEAP_CYCLE = 9  # years to look ahead: 29/02 comes back within eight (2096, then 2104)


def format_due_date(d: date) -> str:
    """Display form of D4: dd/MM."""
    return f"{d.day:02d}/{d.month:02d}"


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
    """The date a ``31/12``, ``31-12`` or ``5/3`` token most likely means (day first): the next on or after today;
    with a year (``30/11/2026``), that day."""
    written = day_month(token)
    if written is None:
        return None
    if written.year is not None:  # 30/11/2026: that very day, when it is one
        try:
            return date(written.year, written.month, written.day)
        except ValueError:
            return None
    return _next_day_month(written.day, written.month, today)


def weekday_guess(words: Sequence[str], today: date, *, short: bool = False) -> date | None:
    """The next date strictly after today on the first weekday the words name (``el viernes``, ``segunda``;
    ``short``: abbreviations too, ``fri``, where a date is expected)."""
    for word in words:
        day = weekday(word, short=short)
        if day is not None:
            try:
                return today + timedelta(days=(day - today.weekday() - 1) % 7 + 1)
            except OverflowError:  # the last days of the calendar
                return None
    return None


def day_month_words_guess(words: Sequence[str], today: date) -> date | None:
    """The next date on or after today with the first day and month the words name (``1 de diciembre``)."""
    for written in day_months(words):
        guess = _next_day_month(written.day, written.month, today)
        if guess is not None:
            return guess
    return None


def suggestion(words: Sequence[str], today: date) -> date | None:
    """The date a dateless task's words most likely mean: a day and month in words, else a weekday; None."""
    return day_month_words_guess(words, today) or weekday_guess(words, today)


_MARKS = {When.TODAY: N_("(hoy)"), When.TOMORROW: N_("(mañana)"), When.OVERDUE: N_("(vencida)")}


def shown_due(due: date, today: date) -> str:
    """A due date as listings show it (D4; in English by the month's name, ``Dec 6``), followed by ``(hoy)``,
    ``(mañana)`` or ``(vencida)`` when it is today, tomorrow or before today, in the language in force."""
    mark = when_mark(due, today)
    return day_and_month(due) + (f" {_(_MARKS[mark])}" if mark is not None else "")


def hint_lines(task_id: int, due: date | None, description: str, today: date) -> str:
    """The lines added to a reply about a task's date (SPEC section 23): ⚠️ a stored date that looks wrong (before
    today or more than a year ahead), in full, with the command that changes it; 💡 the date a text without one
    most likely meant (a weekday, a day and month in words)."""
    if due is not None:
        if not looks_wrong(due, today):
            return ""
        return "\n" + _("⚠️ La fecha guardada es {date}, ¿es la que querías? Para cambiarla: /t fecha {id} AAAA-MM-DD",
                         date=due.isoformat(), id=task_id)
    meant = suggestion(description.split(), today)
    if meant is None:
        return ""
    return "\n" + _("💡 Sin fecha. Si querías el {date}: /t fecha {id} {date}", date=meant.isoformat(), id=task_id)
