"""A recurring task's rule as the reader reads it (SPEC sections 20 and 24): the stored text is the Spanish one the
rule was read as (``cada lunes y jueves``); other languages get it written from the RRULE itself."""

from __future__ import annotations

from taskcore.i18n import _, current_language, weekday_name
from taskcore.model import Series
from taskcore.recurrence import Recurrence

_DAYS = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}  # RRULE's days, Monday 0
_WORKDAYS = ("MO", "TU", "WE", "TH", "FR")


def rule_text(recurrence: Series | Recurrence) -> str:
    """The rule in the language in force: the stored text in Spanish, else written from the RRULE."""
    if current_language() == "es" and recurrence.text:
        return recurrence.text
    return describe(recurrence.rule)


def describe(rule: str) -> str:
    """An RRULE of section 20 in words, in the language in force (``FREQ=WEEKLY;BYDAY=MO,TH``: every Monday and
    Thursday)."""
    parts = dict(part.partition("=")[::2] for part in rule.split(";") if "=" in part)
    every = int(parts.get("INTERVAL", "1") or 1)
    days = [d for d in parts.get("BYDAY", "").split(",") if d in _DAYS]
    freq = parts.get("FREQ", "")
    if freq == "WEEKLY" and days:
        return _weekly(days, every)
    if freq == "DAILY":
        return _("cada día") if every == 1 else _("cada {count} días", count=every)
    if freq == "MONTHLY":
        return _("cada mes") if every == 1 else _("cada {count} meses", count=every)
    return _("cada semana") if every == 1 else _("cada {count} semanas", count=every)


def _weekly(days: list[str], every: int) -> str:
    if tuple(days) == _WORKDAYS and every == 1:
        return _("cada laborable")
    names = [weekday_name(_DAYS[d]) for d in days]
    listed = names[0] if len(names) == 1 else _("{first} y {last}", first=", ".join(names[:-1]), last=names[-1])
    if every == 1:
        return _("cada {days}", days=listed)
    return _("cada {count} semanas: {days}", count=every, days=listed)
