"""Away (SPEC section 25): ``/t ausente <fecha>`` until and including that date, in the person's own calendar.

Choices the SPEC leaves open: a date before today is refused (it would mean "not away", surely not what was
meant); today itself is accepted (away for the rest of today). ``today`` is the date in the person's zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _


def is_away(away_until: date | None, today: date) -> bool:
    """True while ``today`` is on or before ``away_until``."""
    return away_until is not None and today <= away_until


def check_away_until(away_until: date, today: date) -> date:
    """The date itself when it is today or later; InvalidChoreSetting (field ``away_until``) when it is past."""
    if away_until < today:
        raise InvalidChoreSetting(_("la fecha de vuelta ya ha pasado"), field="away_until")
    return away_until


def away_people(away_until: Mapping[str, date | None], today: Mapping[str, date]) -> frozenset[str]:
    """The people away on their own ``today`` (each person's date in their zone), from their ``away_until``."""
    return frozenset(user for user, until in away_until.items() if is_away(until, today[user]))
