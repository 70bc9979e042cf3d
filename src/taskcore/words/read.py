"""One reader per kind of thing people write (SPEC section 29): a date, a time of day, a time range, a weekday, a day
and month, a period. Each reads the words of every language's lexicon (``taskcore.words``) through its one
normaliser, and nothing else in the product parses these kinds.

Choices the SPEC leaves open:

- A due date (seed D1-D3) is ``YYYY-MM-DD``, ``YY-MM-DD`` (20YY) or a date word of any language (``hoy``,
  ``amanhã``, ``tomorrow``); ``pasado mañana`` and its kin are date words the chat refuses, naming the date.
- A time of day is ``8:30``, ``8:5`` (08:05), ``8h``, ``8h30``, ``8pm``, ``8:30 pm``, ``8 p.m.`` (12am is midnight,
  12pm noon); an hour alone (``8``) is not a time. A range is two times joined by a range word of any language
  (``a``, ``até``, ``to``...) or a dash, with or without spaces (``23h-7h``, ``10pm to 7am``).
- A weekday is a full name (``miércoles``, ``segunda-feira``, ``friday``) or, where a weekday is expected, an
  abbreviation (``mié``, ``seg``, ``fri``); free text is searched for full names only (``ir al mar`` names no day).
- A day and month is numeric, day first (``30/11``, ``30-11``, ``30/11/2026``), or in words around a month name or
  abbreviation (``1 de diciembre``, ``1º de dezembro``, ``Dec 1``, ``1st of December``, ``1 dic``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, time

from taskcore.words.lexicon import (
    ACCEPTED_DATES,
    date_word,
    due_date,
    flag,
    is_date_like,
    iso_date,
    key,
    lookup,
    meaning,
    plain,
)

__all__ = [
    "ACCEPTED_DATES",
    "DayMonth",
    "date_word",
    "day_month",
    "day_months",
    "due_date",
    "flag",
    "hours",
    "is_date_like",
    "iso_date",
    "month",
    "period",
    "table_date",
    "time_of_day",
    "time_range",
    "weekday",
]

_DAY_MONTH = re.compile(r"([0-9]{1,2})[/.-]([0-9]{1,2})(?:[/.-]([0-9]{4}))?")
_ORDINAL = re.compile(r"([0-9]{1,2})(?:st|nd|rd|th|º|ª|o)?")


def weekday(word: str, *, short: bool = True) -> int | None:
    """Monday 0 to Sunday 6 for a weekday's name in any language (``short``: its abbreviations too), else None."""
    said = meaning("weekday", plain(word))
    if said is None and short:
        said = meaning("weekday_short", plain(word))
    return None if said is None else int(said)


def month(word: str, *, short: bool = True) -> int | None:
    """1 to 12 for a month's name in any language (``short``: its abbreviations too), else None."""
    said = meaning("month", plain(word))
    if said is None and short:
        said = meaning("month_short", plain(word))
    return None if said is None else int(said)


def period(word: str) -> str | None:
    """``week`` or ``month`` for a period's word in any language (``semana``, ``mês``, ``month``), else None."""
    return meaning("period", plain(word))


_HOURS = re.compile(r"([0-9]{1,4})\s*([^\W\d]*)")


def hours(text: str) -> int | None:
    """A number of hours as people write an interval: ``12``, ``12h``, ``12 h``, ``12 horas``, ``12 hours``; else
    None."""
    match = _HOURS.fullmatch(key(text))
    if match is None or (match.group(2) and meaning("unit", match.group(2)) != "hour"):
        return None
    return int(match.group(1))


@dataclass(frozen=True, slots=True)
class DayMonth:
    """A day and month as written, with the year when one was written (``30/11/2026``)."""

    day: int
    month: int
    year: int | None = None


def day_month(token: str) -> DayMonth | None:
    """A numeric day and month, day first: ``30/11``, ``30-11``, ``5.3``, ``30/11/2026`` (a year of two digits is
    not read: ``26/11/26`` could be either end); else None."""
    match = _DAY_MONTH.fullmatch(token.strip())
    if match is None:
        return None
    year = match.group(3)
    return DayMonth(int(match.group(1)), int(match.group(2)), None if year is None else int(year))


def table_date(text: str, *, month_first: bool = False) -> date | None:
    """A date of a spreadsheet's cell (SPEC section 35): ``YYYY-MM-DD``, or day first with a year of four digits
    (``DD/MM/YYYY``, also with ``-`` or ``.``; month first, ``MM/DD/YYYY``, with ``month_first``); None for anything
    else, an impossible date included."""
    token = text.strip()
    try:
        return iso_date(token)
    except ValueError:
        pass
    found = day_month(token)
    if found is None or found.year is None:
        return None
    day, month = (found.month, found.day) if month_first else (found.day, found.month)
    try:
        return date(found.year, month, day)
    except ValueError:
        return None


def _day(word: str | None) -> int | None:
    match = None if word is None else _ORDINAL.fullmatch(word)
    return None if match is None else int(match.group(1))


def day_months(words: Sequence[str]) -> Iterator[DayMonth]:
    """Every day and month written around a month's name or abbreviation in ``words``: ``1 de diciembre``,
    ``1st of December``, ``December 1``, ``Dec 1``, ``1 dic``."""
    bare = [plain(word) for word in words]
    for at, word in enumerate(bare):
        number = month(word)
        if number is None:
            continue
        before = bare[at - 1] if at >= 1 else None
        if before is not None and meaning("of", before) is not None and at >= 2:
            before = bare[at - 2]
        for day in (_day(before), _day(bare[at + 1] if at + 1 < len(bare) else None)):
            if day is not None:
                yield DayMonth(day, number)


def _clock_pattern() -> re.Pattern[str]:
    """``8``, ``8:30``, ``8h``, ``8h30``, ``8pm``, ``8:30 p.m.``: the hour, the minutes, the mark after them."""
    hours = "|".join(map(re.escape, sorted(_words_of_kind("clock", "hour"), key=len, reverse=True)))
    marks = "|".join(map(re.escape, sorted(_words_of_kind("clock", "am", "pm"), key=len, reverse=True)))
    return re.compile(rf"([0-9]{{1,2}})(?:(?::|{hours})([0-9]{{1,2}})?)?\s*({marks})?\.?")


def _words_of_kind(kind: str, *names: str) -> list[str]:
    return [word for word, said in lookup(kind).items() if said in names]


_CLOCKS: dict[int, re.Pattern[str]] = {}


def time_of_day(text: str) -> time | None:
    """The time of day ``text`` writes (module docstring), else None."""
    words, introduced = _after(key(text), "clock", "at")
    return _clock(words, bare=introduced)


def _after(words: str, kind: str, name: str) -> tuple[str, bool]:
    """``words`` without the phrase of ``kind.name`` that starts them (``a las``, ``às``, ``at``; ``de``, ``from``),
    and whether there was one."""
    for phrase in sorted(_words_of_kind(kind, name), key=len, reverse=True):
        if words.startswith(phrase + " "):
            return words[len(phrase) + 1:].strip(), True
    return words, False


def _clock(words: str, *, bare: bool) -> time | None:
    """A time of day as ``key`` writes it; ``bare``: an hour alone (``8``, ``23``) is one too (after ``a las``,
    ``às``, ``at``, or in a range after ``de``, ``from``)."""
    pattern = _CLOCKS.get(len(lookup("clock")))
    if pattern is None:  # built from the lexicons, again when a language is added
        pattern = _CLOCKS[len(lookup("clock"))] = _clock_pattern()
    match = pattern.fullmatch(words)
    if match is None or (not bare and match.group(2) is None and match.group(3) is None and words == match.group(1)):
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if ":" in words and match.group(2) is None:
        return None
    mark = meaning("clock", match.group(3)) if match.group(3) else None
    if mark is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if mark == "pm" else 0)
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def time_range(text: str) -> tuple[time, time] | None:
    """The two times of a range (``22:00-07:30``, ``23h-7h``, ``23:00 a 7:30``, ``10pm to 7am``; after ``de``,
    ``das``, ``from`` hours alone too: ``de 23 a 7``), else None."""
    joiners = sorted((word for word, said in lookup("range").items() if said == "to"), key=len, reverse=True)
    words, introduced = _after(key(text), "range", "from")
    for joiner in joiners:
        spaced = joiner.isalpha()
        parts = re.split(rf"\s+{re.escape(joiner)}\s+" if spaced else rf"\s*{re.escape(joiner)}\s*", words)
        if len(parts) == 2:
            start, end = _clock(parts[0], bare=introduced), _clock(parts[1], bare=introduced)
            if start is not None and end is not None:
                return start, end
    return None
