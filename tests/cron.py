"""The reminder schedules as cron expressions, for checking the computed slots against croniter (the oracle)."""

from __future__ import annotations

from taskcore.reminders import ReminderFreq, normalize_reminder_time, parse_freq

# The cron day-of-week field of each schedule.
_CRON_DOW: dict[ReminderFreq, str] = {
    ReminderFreq.DAILY: "*",
    ReminderFreq.WEEKDAYS: "1-5",
    ReminderFreq.WEEKLY: "1",
}


def cron_expression(freq: ReminderFreq | str, time: str) -> str | None:
    """The croniter expression of a schedule in local time; None when reminders are off."""
    schedule = freq if isinstance(freq, ReminderFreq) else parse_freq(freq)
    if schedule is ReminderFreq.OFF:
        return None
    hour, minute = normalize_reminder_time(time).split(":")
    return f"{int(minute)} {int(hour)} * * {_CRON_DOW[schedule]}"
