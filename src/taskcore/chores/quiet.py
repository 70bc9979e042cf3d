"""Quiet hours (SPEC section 25): a daily window of a person's local time in which the bot starts no message to them;
what falls due inside it is held and goes out, merged into one bundle per person, when the window ends.

Choices the SPEC leaves open:

- Any time range the lexicons read (``taskcore.words.read``: ``22:00-07:30``, ``23h-7h``, ``23:00 a 7:30``, ``10pm
  to 7am``, ``23h até 7h``); the start is inside the window, the end is not, so
  ``22:00-07:30`` is quiet from 22:00 up to 07:29:59. A window may cross midnight; an empty one (start == end) is
  refused rather than read as "all day".
- The release is the window's end in the person's wall time: a skipped end (spring forward) is the end of the gap;
  a repeated one (fall back) is the pass after ``now``. A fall-back that steps the clock back out of the window does
  not cut it short. The release is never itself inside the window: when the clock skips the whole open part of the
  day (a window of 23 h or more over a DST gap), the release is the next day's end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Generic, TypeVar
from zoneinfo import ZoneInfo

from taskcore.chores.clock import local_wall, require_aware, wall_instant
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.words.read import time_range

T = TypeVar("T")

_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A daily quiet window of local wall time, ``start`` included, ``end`` excluded; may cross midnight."""

    start: time
    end: time

    def __post_init__(self) -> None:
        for at in (self.start, self.end):
            if at.tzinfo is not None or at.second or at.microsecond:
                raise InvalidChoreSetting(_("las horas de silencio van en minutos enteros"), field="quiet")
        if self.start == self.end:
            raise InvalidChoreSetting(_("las horas de silencio no pueden empezar y acabar a la misma hora"),
                                      field="quiet")

    @property
    def crosses_midnight(self) -> bool:
        """True when the window starts on one day and ends on the next."""
        return self.end < self.start


def parse_quiet(text: str) -> QuietHours:
    """A time range (``HH:MM-HH:MM``, ``23h-7h``...) -> QuietHours; InvalidChoreSetting (field ``quiet``)
    otherwise."""
    found = time_range(text)
    if found is None:
        raise InvalidChoreSetting(_("las horas de silencio se escriben HH:MM-HH:MM"), field="quiet")
    return QuietHours(*found)


def format_quiet(window: QuietHours) -> str:
    """The window as stored and shown by the API: ``HH:MM-HH:MM``."""
    return f"{window.start:%H:%M}-{window.end:%H:%M}"


def is_quiet(window: QuietHours, local: datetime) -> bool:
    """True when the wall time of ``local`` (its clock reading, whatever its zone) is inside the window."""
    at = local.time()
    if window.crosses_midnight:
        return at >= window.start or at < window.end
    return window.start <= at < window.end


def held_until(window: QuietHours, now: datetime, zone: ZoneInfo) -> datetime | None:
    """None when a message may go to the person now; else the UTC instant the window ends (itself outside it)."""
    wall = local_wall(require_aware(now, "now"), zone)
    if not is_quiet(window, wall):
        return None
    for days in range(3):
        end = datetime.combine(wall.date() + days * _DAY, window.end)
        for fold in (0, 1):
            release = wall_instant(end, zone, fold=fold)
            if release > now and not is_quiet(window, local_wall(release, zone)):
                return release
    raise AssertionError("a window of less than a day ends within three days")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class HeldMessage(Generic[T]):
    """A message the bot started for ``user_id`` and held at ``held_at``; ``item`` is whatever names it."""

    user_id: str
    held_at: datetime
    item: T


@dataclass(frozen=True, slots=True)
class HeldBundle(Generic[T]):
    """The held messages of one person, to go out as one: their items in the order they were held."""

    user_id: str
    items: tuple[T, ...]


def merge_held(messages: Iterable[HeldMessage[T]]) -> list[HeldBundle[T]]:
    """One bundle per person, items by ``held_at`` (ties: input order); bundles by their first item, then user id."""
    ordered = sorted(messages, key=lambda held: held.held_at)
    items: dict[str, list[T]] = {}
    first: dict[str, datetime] = {}
    for held in ordered:
        items.setdefault(held.user_id, []).append(held.item)
        first.setdefault(held.user_id, held.held_at)
    users = sorted(items, key=lambda user: (first[user], user))
    return [HeldBundle(user, tuple(items[user])) for user in users]
