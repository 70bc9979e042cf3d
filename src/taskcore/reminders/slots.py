"""Slot planning for the reminder tick (SPEC section 10): which (freq, time) schedules have a slot due now, and
whether a slot is handled on time. Values in, values out: ``now`` is always an argument.

The grace is applied once, in ``DueWindow.of``: the window gives both the local times worth looking at and the test
each slot must pass.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from taskcore.reminders.schedule import ReminderFreq, latest_slot

MINUTE = timedelta(minutes=1)
LATE_AFTER = MINUTE  # a slot handled by a later minute's tick than its own is "late"
_ALL_DAY = 24 * 60
_ON = tuple(freq for freq in ReminderFreq if freq is not ReminderFreq.OFF)


@dataclass(frozen=True, slots=True)
class DueWindow:
    """The instants whose slots are due at ``now``: from ``start`` (included unless it is the last tick's ``now``)
    up to ``now``."""

    now: datetime
    start: datetime
    start_included: bool

    @classmethod
    def of(cls, now: datetime, grace_minutes: int, since: datetime | None = None) -> DueWindow:
        """Slots at most ``grace_minutes`` old; with ``since`` (the ``now`` of the last tick that completed), only
        those after it, which that tick did not handle."""
        if grace_minutes < 0:
            raise ValueError("grace_minutes must not be negative")
        oldest = now - grace_minutes * MINUTE
        if since is not None and since >= oldest:
            return cls(now, since, start_included=False)
        return cls(now, oldest, start_included=True)

    @property
    def minutes(self) -> int:
        """How many minutes back the window reaches (rounded up; 0 when it starts after ``now``)."""
        return max(0, math.ceil((self.now - self.start) / MINUTE))

    def holds(self, slot: datetime) -> bool:
        """The slot falls inside the window."""
        after_start = self.start <= slot if self.start_included else self.start < slot
        return after_start and slot <= self.now


def window_times(now: datetime, zone: ZoneInfo, minutes: int) -> list[str]:
    """Every local ``HH:MM`` whose slot may be due at ``now`` in a window reaching ``minutes`` back: the wall times of
    those minutes, plus the wall times skipped by a spring-forward gap inside them (they fire at the end of the gap)."""
    if minutes >= _ALL_DAY - 1:
        return [f"{h:02d}:{m:02d}" for h in range(24) for m in range(60)]
    top = now.replace(second=0, microsecond=0)
    times = {(top - k * MINUTE).astimezone(zone).strftime("%H:%M") for k in range(minutes + 1)}
    wall = (top - minutes * MINUTE).astimezone(zone).replace(tzinfo=None)
    last = top.astimezone(zone).replace(tzinfo=None)
    while wall <= last:  # empty after a fall-back, when the wall clock went back: the instants above cover it
        times.add(wall.strftime("%H:%M"))
        wall += MINUTE
    return sorted(times)


def plan_slots(
    now: datetime, zone: ZoneInfo, grace_minutes: int, *, since: datetime | None = None
) -> dict[tuple[str, str], datetime]:
    """The due slot of every (freq, time) schedule that can be due at ``now``. With ``since`` (the ``now`` of the
    last tick that completed) only the slots that fell due after it: the earlier ones that tick handled."""
    window = DueWindow.of(now, grace_minutes, since)
    times = window_times(now, zone, window.minutes)
    return due_slots(((freq.value, time) for time in times for freq in _ON), window, zone)


def due_slots(
    schedules: Iterable[tuple[str, str]], window: DueWindow, zone: ZoneInfo
) -> dict[tuple[str, str], datetime]:
    """The slot of each distinct (freq, time) schedule that falls in the window; the others are left out."""
    found: dict[tuple[str, str], datetime] = {}
    for freq, time in set(schedules):
        slot = latest_slot(freq, time, now=window.now, tz=zone)
        if slot is not None and window.holds(slot):
            found[(freq, time)] = slot
    return found


def slot_outcome(slot: datetime, now: datetime) -> str:
    """``sent`` when handled within the slot's own minute, ``late`` when a later tick picks it up."""
    return "late" if now - slot >= LATE_AFTER else "sent"
