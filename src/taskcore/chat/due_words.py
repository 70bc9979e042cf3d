"""The date words of the chat in every language (SPEC sections 5, 23 and 24), read before the seed's D1-D3.

``taskcore.parse_due_date`` stays the seed's Spanish reader; the chat reads ``today``/``hoje`` as ``hoy`` and
``tomorrow``/``amanhã``/``amanha`` as ``mañana``, and knows ``pasado mañana`` (``depois de amanhã``, ``day after
tomorrow``) as one token that it refuses, naming the date it means.
"""

from __future__ import annotations

from datetime import date, timedelta

from taskcore.dates import is_date_like
from taskcore.i18n import _
from taskcore.words import meaning

__all__ = ["is_due_word", "refused_phrase", "word_date"]

_OFFSETS = {"today": 0, "tomorrow": 1}


def is_due_word(token: str) -> bool:
    """A chat token that is a due date, accepted or not: a date-like token or a date word of any language."""
    return is_date_like(token) or meaning("date", token) is not None


def word_date(token: str, today: date) -> date | None:
    """The day a date word names (``today``, ``amanhã``...), None for any other token."""
    offset = _OFFSETS.get(meaning("date", token) or "")
    return None if offset is None else today + timedelta(days=offset)


def refused_phrase(token: str, today: date, command: str, task_id: int | None) -> str | None:
    """The refusal of ``pasado mañana`` (or its equivalents) in ``command``, naming the date it means and the
    command that sets it; None for any other token."""
    if meaning("date", token) != "after_tomorrow":
        return None
    day = (today + timedelta(days=2)).isoformat()
    fix = f"/t fecha {task_id} {day}" if command == "fecha" else _("/t nueva <texto> {date}", date=day)
    return _("«{words}» no es una fecha que acepte; si querías el {date}: {command}",
             words=" ".join(token.split()), date=day, command=fix)
