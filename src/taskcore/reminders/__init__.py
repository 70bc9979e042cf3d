"""Reminders (SPEC section 10): schedule rules (``schedule``, re-exported here), slot planning (``slots``), the
digest text (``digest``).

The package holds only pure rules; the tick that queues each due digest once is a use case:
``taskcore.services.reminder_tick``.
"""

from taskcore.reminders.schedule import (
    ACCEPTED_FREQS,
    DEFAULT_TIME,
    ReminderFreq,
    latest_slot,
    next_slot,
    normalize_reminder_time,
    parse_freq,
    reminder_due_slot,
    slot_key,
)

__all__ = [
    "ACCEPTED_FREQS",
    "DEFAULT_TIME",
    "ReminderFreq",
    "latest_slot",
    "next_slot",
    "normalize_reminder_time",
    "parse_freq",
    "reminder_due_slot",
    "slot_key",
]
