"""The weekly summary's moment (SPEC section 25): ``/t resumen semanal <día> HH:MM`` and the next instant it falls on.

Choices the SPEC leaves open:

- The day and the time are read by the lexicons' readers (``taskcore.words.read``): a weekday's name or abbreviation
  in any language (``lunes``, ``segunda feira``, ``sun``), a time as people write it (``20:00``, ``20h``, ``8pm``).
  An off word of the reminders (``no``, ``off``, ``não``) alone stops it.
- A local time the clock skips that week (spring forward) posts at the end of the gap; a repeated one (fall back)
  posts at its first pass, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from taskcore.chores.clock import local_wall, require_aware, wall_instant
from taskcore.errors import InvalidChoreSetting, ValidationError
from taskcore.i18n import _
from taskcore.words import join_phrases, meaning
from taskcore.words.read import time_of_day, weekday

_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class WeeklyMoment:
    """A weekly moment: ``weekday`` (Monday is 0) at local time ``at``."""

    weekday: int
    at: time


def parse_weekly(words: Sequence[str]) -> WeeklyMoment | None:
    """``<día> HH:MM`` -> WeeklyMoment; ``no`` -> None (stop); InvalidChoreSetting (field ``weekly``) otherwise."""
    joined = join_phrases(words, "weekday")
    if len(joined) == 1 and meaning("freq", joined[0]) == "off":
        return None
    day = weekday(joined[0]) if joined else None
    if day is None or len(joined) < 2:
        raise InvalidChoreSetting(_("el resumen semanal lleva un día y una hora: lunes 20:00"), field="weekly")
    at = time_of_day(" ".join(joined[1:]))
    if at is None:
        raise InvalidChoreSetting(_("la hora del resumen semanal es HH:MM, de 00:00 a 23:59"), field="weekly")
    return WeeklyMoment(day, at)


def next_weekly(now: datetime, weekday: int, at: time, zone: ZoneInfo) -> datetime:
    """The first instant strictly after ``now`` that is ``weekday`` at local ``at`` in ``zone``, as UTC."""
    if not 0 <= weekday <= 6:
        raise ValidationError("weekday is 0 (Monday) to 6 (Sunday)")
    day = local_wall(require_aware(now, "now"), zone).date() - _DAY  # a day early: the gap end may cross midnight
    for _attempt in range(9):
        if day.weekday() == weekday:
            moment = wall_instant(datetime.combine(day, at), zone)
            if moment > now:
                return moment
        day += _DAY
    raise AssertionError("a weekday comes round within nine days")  # pragma: no cover
