"""Due dates of chat commands and the API (seed D1-D4)."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta

from taskcore.errors import InvalidDate
from taskcore.i18n import N_, _

ACCEPTED_FORMS = N_("AAAA-MM-DD, AA-MM-DD, hoy o mañana")
"""The date forms D1-D3 accept, marked: ``_(ACCEPTED_FORMS)`` where it is shown."""

_NUMERIC = re.compile(r"([0-9]{4}|[0-9]{2})-([0-9]{2})-([0-9]{2})")
_DATE_LIKE = re.compile(r"[0-9]{1,4}(?:[-/][0-9]{1,4}){1,2}")
_TODAY = frozenset({"hoy"})
_TOMORROW = frozenset({"mañana", "manana"})


def _word(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip()).casefold()


def is_date_like(token: str) -> bool:
    """True when a chat token looks like a date, accepted or not (SPEC section 5)."""
    word = _word(token)
    return word in _TODAY or word in _TOMORROW or _DATE_LIKE.fullmatch(word) is not None


def parse_due_date(text: str, *, today: date) -> date:
    """Parse a due date: YYYY-MM-DD, YY-MM-DD (20YY), hoy, mañana; raise InvalidDate otherwise (D1-D3)."""
    word = _word(text)
    if word in _TODAY:
        return today
    if word in _TOMORROW:
        return today + timedelta(days=1)
    match = _NUMERIC.fullmatch(word)
    if match is None:
        raise InvalidDate(_("fecha no válida: {value}; usa {forms}", value=repr(text.strip()), forms=_(ACCEPTED_FORMS)),
                          field="due_date")
    year, month, day = match.groups()
    full_year = int(year) if len(year) == 4 else 2000 + int(year)
    try:
        return date(full_year, int(month), int(day))
    except ValueError as exc:
        raise InvalidDate(_("fecha imposible: {value}", value=repr(text.strip())), field="due_date") from exc


def parse_iso_date(text: str, *, field: str = "due_date") -> date:
    """Parse the stored/API form YYYY-MM-DD exactly; raise InvalidDate naming ``field`` otherwise."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        raise InvalidDate("expected a date as YYYY-MM-DD", field=field)
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InvalidDate("not a calendar date", field=field) from exc


def format_due_date(d: date) -> str:
    """Display form of D4: dd/MM."""
    return f"{d.day:02d}/{d.month:02d}"
