"""Seasons of a recurrence (SPEC section 41): a rule with an active window of months (``cada semana de abril a
septiembre``, ``every 2 weeks from November to March``), and a chore with two windows of different periods (``cada
semana de abril a septiembre, cada 2 semanas el resto``). Pure: month sets and rule texts in and out; the dates are
``taskcore.recurrence``'s.

How a season is kept: the window is the RRULE's own ``BYMONTH`` (RFC 5545), so a calendar reads it as it is; a chore
with two windows keeps two RRULEs, one per line (``FREQ=WEEKLY;BYMONTH=4,5,6,7,8,9`` and
``FREQ=WEEKLY;INTERVAL=2;BYMONTH=1,2,3,10,11,12``). A window that wraps the year end is the months it covers
(November to March: 11, 12, 1, 2, 3).

Choices the SPEC leaves open (docs/decisions.md, "Seasons"):

- A window runs from the first day of its first month to the last day of its last one; ``de abril a abril`` and
  ``en abril`` are April alone.
- When a season opens again, its first occurrence is the rule's first date in it (the first Monday of November for
  ``every 2 weeks on Monday from November to March``), not wherever the count of 2 weeks left in March would land.
- A second rule needs its own window or ``el resto`` (``the rest``, ``o resto``); two windows may not share a month.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import date

from taskcore.errors import InvalidRecurrence
from taskcore.i18n import _, month_name
from taskcore.words import key, meaning

PART_SEPARATOR = "\n"
"""Between the two RRULEs of a chore with two windows."""
YEAR = frozenset(range(1, 13))
_KEY = "BYMONTH"


def split(rule: str) -> list[str]:
    """The RRULEs of a rule: one, or one per window."""
    return [part for part in rule.split(PART_SEPARATOR) if part.strip()]


def joined(parts: Iterable[str]) -> str:
    """The rule of these RRULEs (``split``'s inverse)."""
    return PART_SEPARATOR.join(parts)


def months_of(part: str) -> frozenset[int] | None:
    """The months of an RRULE's window (its ``BYMONTH``), None for a rule that is active all year."""
    for piece in part.split(";"):
        name, _sep, value = piece.partition("=")
        if name == _KEY:
            return frozenset(int(month) for month in value.split(",") if month.isdigit() and 1 <= int(month) <= 12)
    return None


def without(part: str, name: str) -> str:
    """The RRULE without its ``name`` part (``BYMONTH``, ``INTERVAL``)."""
    return ";".join(piece for piece in part.split(";") if piece.partition("=")[0] != name)


def _value(part: str, name: str) -> str | None:
    return next((piece.partition("=")[2] for piece in part.split(";") if piece.partition("=")[0] == name), None)


def with_days_of(first: str, second: str) -> str:
    """A weekly second rule written without days (``cada 2 semanas el resto``) on the first rule's days (``cada
    lunes de abril a septiembre``: Mondays all year)."""
    days = _value(first, "BYDAY")
    weekly = "FREQ=WEEKLY" in second.split(";")
    return f"{second};BYDAY={days}" if days and weekly and _value(second, "BYDAY") is None else second


def as_written(first: str, second: str) -> str:
    """The second rule as it is written after the first: without its days when they are the first's."""
    same = _value(second, "BYDAY") is not None and _value(second, "BYDAY") == _value(first, "BYDAY")
    return without(second, "BYDAY") if same else second


def with_months(part: str, months: Collection[int]) -> str:
    """The RRULE active in ``months`` only (all of them: active all year)."""
    bare = without(part, _KEY)
    return bare if set(months) >= YEAR else f"{bare};{_KEY}={','.join(str(m) for m in sorted(months))}"


def span(first: int, last: int) -> frozenset[int]:
    """The months from ``first`` to ``last`` (1 to 12), wrapping the year end (11 to 3: November to March)."""
    return frozenset((first - 1 + step) % 12 + 1 for step in range((last - first) % 12 + 1))


def window_start(day: date, months: frozenset[int]) -> date:
    """The first day on or after ``day`` that falls in ``months`` (``day`` itself when it does)."""
    if day.month in months:
        return day
    year, month = day.year, day.month
    for _step in range(12):
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        if month in months:
            return date(year, month, 1)
    raise InvalidRecurrence(_("una temporada necesita al menos un mes"), field="recurrence")


def runs(months: frozenset[int]) -> list[tuple[int, int]]:
    """The months as runs of consecutive ones, wrapping the year end: {11, 12, 1, 2, 3} is [(11, 3)]."""
    if not months or months >= YEAR:
        return []
    starts = sorted(m for m in months if (m - 2) % 12 + 1 not in months)
    found = []
    for first in starts:
        last = first
        while last % 12 + 1 in months:
            last = last % 12 + 1
        found.append((first, last))
    return found


def read_window(terms: Sequence[str], at: int) -> tuple[frozenset[int], int] | None:
    """The window at ``terms[at]`` (``de abril a septiembre``, ``from November to March``, ``en abril``) and how many
    terms it takes; None when none starts there."""
    if _said(terms, at, "season") == "in" and (month := _month(terms, at + 1)) is not None:
        return frozenset({month}), 2
    # its ends are a range's (the lexicons' ``range`` words: ``de ... a``, ``from ... to``), as in quiet hours
    if _said(terms, at, "range") != "from" or (first := _month(terms, at + 1)) is None or \
            _said(terms, at + 2, "range") != "to":
        return None
    last = _month(terms, at + 3)
    if last is None:
        word = terms[at + 3] if at + 3 < len(terms) else ""
        raise InvalidRecurrence(_("tras «{word}» va un mes: «{month}»", word=terms[at + 2], month=word[:40]),
                                field="recurrence")
    return span(first, last), 4


def is_rest(terms: Sequence[str], at: int) -> bool:
    """``el resto`` (``the rest``, ``o resto``) stands at ``terms[at]``."""
    return _said(terms, at, "season") == "rest"


def _said(terms: Sequence[str], at: int, kind: str) -> str | None:
    return meaning(kind, terms[at]) if at < len(terms) else None


def _month(terms: Sequence[str], at: int) -> int | None:
    if at >= len(terms):
        return None
    said = meaning("month", terms[at]) or meaning("month_short", key(terms[at]).rstrip("."))
    return None if said is None else int(said)


def rest_of(months: frozenset[int]) -> frozenset[int]:
    """The months ``el resto`` covers; InvalidRecurrence when the first window is the whole year."""
    if months >= YEAR:
        raise InvalidRecurrence(_("la primera temporada ya es todo el año: no queda resto"), field="recurrence")
    return YEAR - months


def check_apart(first: frozenset[int], second: frozenset[int]) -> None:
    """Two windows of one chore share no month (InvalidRecurrence naming the first they share)."""
    shared = sorted(first & second)
    if shared:
        raise InvalidRecurrence(_("las dos temporadas comparten {month}", month=month_name(shared[0])),
                                field="recurrence")


def window_text(months: frozenset[int]) -> str:
    """A window in words, in the language in force: ``de abril a septiembre``, ``from November to March``."""
    texts = [_("en {month}", month=month_name(first)) if first == last else
             _("de {first} a {last}", first=month_name(first), last=month_name(last)) for first, last in runs(months)]
    return _("{first} y {last}", first=", ".join(texts[:-1]), last=texts[-1]) if len(texts) > 1 else "".join(texts)


def rest_text(rule: str) -> str:
    """A second rule that covers the rest of the year, in words: ``cada 2 semanas el resto``."""
    return _("{rule} el resto", rule=rule)
