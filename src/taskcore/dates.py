"""Due dates of chat commands and the API (seed D1-D4): read by the lexicons' date reader (``taskcore.words.read``),
shown as D4 says."""

from __future__ import annotations

from datetime import date

from taskcore.date_hints import format_due_date
from taskcore.words.read import ACCEPTED_DATES as ACCEPTED_FORMS
from taskcore.words.read import due_date, is_date_like, iso_date

__all__ = ["ACCEPTED_FORMS", "format_due_date", "is_date_like", "parse_due_date", "parse_iso_date"]


def parse_due_date(text: str, *, today: date) -> date:
    """Parse a due date: YYYY-MM-DD, YY-MM-DD (20YY), or a date word of any language (``hoy``, ``amanhã``,
    ``tomorrow``); raise InvalidDate otherwise (D1-D3)."""
    return due_date(text, today=today)


def parse_iso_date(text: str, *, field: str = "due_date") -> date:
    """Parse the stored/API form YYYY-MM-DD exactly; raise InvalidDate naming ``field`` otherwise."""
    return iso_date(text, field=field)


