"""Planning the reminder tick (SPEC sections 10 and 21): for one saved preference looked at now, in its user's zone,
the slot due now (if any) and the instant the tick should look at the row again. Values in, values out: ``now`` is
always an argument.

A row is looked at when its ``next_due_at`` has come: the slot the last look planned, or the moment the user saved
the preference or zone. Its latest slot at or before ``now`` is due when it is at most ``grace_minutes`` old (the
delivery ledger then decides whether it was already handled: ``tick``); either way the row's next look is its first
slot after ``now``.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from taskcore.errors import ValidationError
from taskcore.reminders.schedule import ReminderFreq, latest_slot, next_slot, slot_key
from taskcore.zones import effective_zone

MINUTE = timedelta(minutes=1)
LATE_AFTER = MINUTE  # a slot handled by a later minute's tick than its own is "late"


# The tick's per-row values are named tuples, not dataclasses: at a peak it holds thousands at once, a tuple is
# cheaper to build, and one of plain values drops out of the garbage collector's walks after its first.
class SavedPreference(NamedTuple):
    """A preference row the tick looks at."""

    user_id: str
    freq: str
    time: str
    tz: str | None
    next_due_at: datetime
    updated_at: datetime
    quiet_from: str | None = None  # SPEC section 25: quiet hours (HH:MM, both or neither) and the last day away
    quiet_to: str | None = None
    away_until: str | None = None
    lang: str | None = None  # SPEC section 24: the language the user chose, read with the row


class DueReminder(NamedTuple):
    """A slot to claim and queue; ``today`` is the date in the user's zone (what the digest calls today)."""

    user_id: str
    slot: datetime
    key: str
    today: date


class Plan(NamedTuple):
    """What the tick does with one row: the due slot (None: nothing due) and the row's next look (None: off)."""

    row: SavedPreference
    due: DueReminder | None
    next_due_at: datetime | None


def plan_row(row: SavedPreference, *, now: datetime, fallback: ZoneInfo, grace_minutes: int) -> Plan:
    """The due slot of ``row`` at ``now`` in its user's zone, and when to look at it next."""
    return Planner(now=now, fallback=fallback, grace_minutes=grace_minutes).plan(row)


# A schedule's outcome at one ``now``: the slot due (with its key and the zone's today) or None, and the next slot.
_Outcome = tuple[tuple[datetime, str, date] | None, datetime | None]


class Planner:
    """``plan_row`` for the many rows of one tick: rows with the same frequency, time and zone share one computation
    of their slots (the 08:30 peak is thousands of users and a few dozen such schedules)."""

    def __init__(self, *, now: datetime, fallback: ZoneInfo, grace_minutes: int) -> None:
        if grace_minutes < 0:
            raise ValidationError("grace_minutes must not be negative")
        self.now, self.fallback, self.grace = now, fallback, grace_minutes * MINUTE
        self._known: dict[tuple[str, str, ZoneInfo], _Outcome] = {}

    def plan(self, row: SavedPreference) -> Plan:
        """The due slot of ``row`` in its user's zone, and when to look at it next."""
        if row.freq == ReminderFreq.OFF.value:
            return Plan(row, None, None)
        zone = effective_zone(row.tz, row.user_id, self.fallback).zone
        key = (row.freq, row.time, zone)
        outcome = self._known.get(key)
        if outcome is None:
            outcome = self._known[key] = self._outcome(row.freq, row.time, zone)
        due, next_due_at = outcome
        return Plan(row, None if due is None else DueReminder(row.user_id, *due), next_due_at)

    def _outcome(self, freq: str, time: str, zone: ZoneInfo) -> _Outcome:
        now = self.now
        slot = latest_slot(freq, time, now=now, tz=zone)
        due = None
        if slot is not None and now - slot <= self.grace:
            due = (slot, slot_key(slot), now.astimezone(zone).date())
        return due, next_slot(freq, time, after=now, tz=zone)


def slot_outcome(slot: datetime, now: datetime) -> str:
    """``sent`` when handled within the slot's own minute, ``late`` when a later tick picks it up."""
    return "late" if now - slot >= LATE_AFTER else "sent"
