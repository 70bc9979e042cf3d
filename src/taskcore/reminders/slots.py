"""Planning the reminder tick (SPEC sections 10 and 21): for one saved preference looked at now, in its user's zone,
the slot due now (if any) and the instant the tick should look at the row again. Values in, values out: ``now`` is
always an argument.

A row is looked at when its ``next_due_at`` has come: the slot the last look planned, or the moment the user saved
the preference or zone. Its latest slot at or before ``now`` is due when it is at most ``grace_minutes`` old (the
delivery ledger then decides whether it was already handled: ``tick``); either way the row's next look is its first
slot after ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from taskcore.reminders.schedule import ReminderFreq, latest_slot, next_slot, slot_key
from taskcore.zones import effective_zone

MINUTE = timedelta(minutes=1)
LATE_AFTER = MINUTE  # a slot handled by a later minute's tick than its own is "late"


@dataclass(frozen=True, slots=True)
class SavedPreference:
    """A preference row the tick looks at."""

    user_id: str
    freq: str
    time: str
    tz: str | None
    next_due_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class DueReminder:
    """A slot to claim and queue; ``today`` is the date in the user's zone (what the digest calls today)."""

    user_id: str
    slot: datetime
    key: str
    today: date


@dataclass(frozen=True, slots=True)
class Plan:
    """What the tick does with one row: the due slot (None: nothing due) and the row's next look (None: off)."""

    row: SavedPreference
    due: DueReminder | None
    next_due_at: datetime | None


def plan_row(row: SavedPreference, *, now: datetime, fallback: ZoneInfo, grace_minutes: int) -> Plan:
    """The due slot of ``row`` at ``now`` in its user's zone, and when to look at it next."""
    if grace_minutes < 0:
        raise ValueError("grace_minutes must not be negative")
    if row.freq == ReminderFreq.OFF.value:
        return Plan(row, None, None)
    zone = effective_zone(row.tz, row.user_id, fallback).zone
    slot = latest_slot(row.freq, row.time, now=now, tz=zone)
    due = None
    if slot is not None and now - slot <= grace_minutes * MINUTE:
        due = DueReminder(row.user_id, slot, slot_key(slot), now.astimezone(zone).date())
    return Plan(row, due, next_slot(row.freq, row.time, after=now, tz=zone))


def slot_outcome(slot: datetime, now: datetime) -> str:
    """``sent`` when handled within the slot's own minute, ``late`` when a later tick picks it up."""
    return "late" if now - slot >= LATE_AFTER else "sent"
