"""The weekly summary's moment (SPEC section 25): ``/t resumen semanal <día> HH:MM`` and the next instant it falls on.

Choices the SPEC leaves open:

- Weekday names in Spanish (``lunes`` … ``domingo``), Portuguese (``segunda`` … ``domingo``, also ``segunda-feira``)
  and English (``monday`` … ``sunday``), any case, accents optional; the time is ``H:MM`` or ``HH:MM``, 24-hour.
  ``no``, ``off`` or ``não`` alone stop it.
- A local time the clock skips that week (spring forward) posts at the end of the gap; a repeated one (fall back)
  posts at its first pass, once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from taskcore.chores.clock import local_wall, require_aware, wall_instant
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _

_NAMES = (
    ("lunes", "segunda", "segunda-feira", "monday"),
    ("martes", "terca", "terca-feira", "tuesday"),
    ("miercoles", "quarta", "quarta-feira", "wednesday"),
    ("jueves", "quinta", "quinta-feira", "thursday"),
    ("viernes", "sexta", "sexta-feira", "friday"),
    ("sabado", "saturday"),
    ("domingo", "sunday"),
)
_WEEKDAYS = {name: day for day, names in enumerate(_NAMES) for name in names}
_OFF = frozenset({"no", "off", "nao"})
_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})")
_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class WeeklyMoment:
    """A weekly moment: ``weekday`` (Monday is 0) at local time ``at``."""

    weekday: int
    at: time


def _folded(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def parse_weekly(words: Sequence[str]) -> WeeklyMoment | None:
    """``<día> HH:MM`` -> WeeklyMoment; ``no`` -> None (stop); InvalidChoreSetting (field ``weekly``) otherwise."""
    folded = [_folded(word) for word in words]
    if len(folded) == 1 and folded[0] in _OFF:
        return None
    if len(folded) != 2 or folded[0] not in _WEEKDAYS:
        raise InvalidChoreSetting(_("el resumen semanal lleva un día y una hora: lunes 20:00"), field="weekly")
    match = _TIME.fullmatch(folded[1])
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise InvalidChoreSetting(_("la hora del resumen semanal es HH:MM, de 00:00 a 23:59"), field="weekly")
    return WeeklyMoment(_WEEKDAYS[folded[0]], time(int(match[1]), int(match[2])))


def next_weekly(now: datetime, weekday: int, at: time, zone: ZoneInfo) -> datetime:
    """The first instant strictly after ``now`` that is ``weekday`` at local ``at`` in ``zone``, as UTC."""
    if not 0 <= weekday <= 6:
        raise ValueError("weekday is 0 (Monday) to 6 (Sunday)")
    day = local_wall(require_aware(now, "now"), zone).date() - _DAY  # a day early: the gap end may cross midnight
    for _attempt in range(9):
        if day.weekday() == weekday:
            moment = wall_instant(datetime.combine(day, at), zone)
            if moment > now:
                return moment
        day += _DAY
    raise AssertionError("a weekday comes round within nine days")  # pragma: no cover
