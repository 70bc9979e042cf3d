"""Reminder schedules: frequency, time of day, the latest slot and the one due now (SPEC sections 10 and 15)."""

from __future__ import annotations

import enum
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from taskcore.chores.clock import wall_instant
from taskcore.errors import InvalidFreq, InvalidTime, InvalidTimeZone, ValidationError
from taskcore.i18n import N_, _
from taskcore.words import meaning
from taskcore.words.read import time_of_day

DEFAULT_TIME = "08:30"

_MINUTE = timedelta(minutes=1)
_DAY = timedelta(days=1)
_WEEK_AND_A_DAY = 10


class ReminderFreq(enum.StrEnum):
    """How often a user's reminder fires."""

    OFF = "off"
    DAILY = "daily"
    WEEKLY = "weekly"
    WEEKDAYS = "weekdays"


ACCEPTED_FREQS = N_("off, diario, laborables o semanal (también daily, weekdays, weekly)")
"""The frequencies accepted, marked: ``_(ACCEPTED_FREQS)`` where it is shown."""

# The Python weekdays (Monday is 0) of each schedule.
_WEEKDAYS: dict[ReminderFreq, frozenset[int]] = {
    ReminderFreq.DAILY: frozenset(range(7)),
    ReminderFreq.WEEKDAYS: frozenset(range(5)),
    ReminderFreq.WEEKLY: frozenset({0}),
}


def parse_freq(value: str) -> ReminderFreq:
    """Read a frequency in English or in the Spanish or Portuguese chat words; raise InvalidFreq otherwise."""
    said = meaning("freq", value.strip())
    if said is None:
        raise InvalidFreq(_("frecuencia no válida: {value}; usa {accepted}", value=repr(value.strip()),
                            accepted=_(ACCEPTED_FREQS)), field="freq")
    return ReminderFreq(said)


def normalize_reminder_time(value: str) -> str:
    """A time of day as people write it (``8:30``, ``8:5``, ``8h30``, ``8pm``: ``taskcore.words.read``) ->
    ``HH:MM``; raise InvalidTime otherwise."""
    at = time_of_day(value)
    if at is None:
        raise InvalidTime(_("hora no válida: {value}; usa HH:MM, de 00:00 a 23:59", value=repr(value.strip())),
                          field="time")
    return f"{at:%H:%M}"


def reminder_due_slot(
    freq: ReminderFreq | str,
    time: str,
    *,
    now: datetime,
    tz: ZoneInfo | str,
    grace_minutes: int,
) -> datetime | None:
    """The slot due at ``now``: the latest one not after it, if at most ``grace_minutes`` old; else None."""
    if grace_minutes < 0:
        raise ValidationError("grace_minutes must not be negative")
    slot = latest_slot(freq, time, now=now, tz=tz)
    if slot is None or now.astimezone(UTC) - slot > timedelta(minutes=grace_minutes):
        return None
    return slot


def latest_slot(freq: ReminderFreq | str, time: str, *, now: datetime, tz: ZoneInfo | str) -> datetime | None:
    """The schedule's latest slot at or before ``now`` (aware, in ``tz``); None when reminders are off."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValidationError("now must be timezone-aware")
    schedule = _as_freq(freq)
    if schedule is ReminderFreq.OFF:
        return None
    zone = _as_zone(tz)
    instant = now.astimezone(UTC)  # aware datetimes in one zone compare by wall time: compare in UTC
    return _latest_slot(_WEEKDAYS[schedule], clock_time(*_clock(time)), instant, zone).astimezone(zone)


def next_slot(freq: ReminderFreq | str, time: str, *, after: datetime, tz: ZoneInfo | str) -> datetime | None:
    """The schedule's first slot strictly after ``after`` (aware, in ``tz``), by the same rules as ``latest_slot``
    (a time in a spring-forward gap fires at the end of the gap, a repeated one at its first pass); None when off."""
    if after.tzinfo is None or after.utcoffset() is None:
        raise ValidationError("after must be timezone-aware")
    schedule = _as_freq(freq)
    if schedule is ReminderFreq.OFF:
        return None
    zone, at, instant = _as_zone(tz), clock_time(*_clock(time)), after.astimezone(UTC)
    day = instant.astimezone(zone).date() - _DAY  # a day early: a slot's instant may fall on the next local date
    for _day in range(_WEEK_AND_A_DAY):
        if day.weekday() in _WEEKDAYS[schedule]:
            slot = wall_instant(datetime.combine(day, at), zone)
            if slot > instant:
                return slot.astimezone(zone)
        day += _DAY
    raise AssertionError("every schedule has a slot within nine days")  # pragma: no cover


def slot_key(slot: datetime) -> str:
    """The stable key of a slot: its UTC instant to the minute, ISO 8601 with 'Z'."""
    if slot.tzinfo is None or slot.utcoffset() is None:
        raise ValidationError("slot must be timezone-aware")
    return slot.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def _as_freq(freq: ReminderFreq | str) -> ReminderFreq:
    return freq if isinstance(freq, ReminderFreq) else _parsed_freq(freq)


@lru_cache(maxsize=64)
def _parsed_freq(freq: str) -> ReminderFreq:
    return parse_freq(freq)  # the tick reads the stored values of many rows: a handful of distinct strings


def _as_zone(tz: ZoneInfo | str) -> ZoneInfo:
    if isinstance(tz, ZoneInfo):
        return tz
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidTimeZone(f"unknown time zone {tz!r}", field="tz") from exc


@lru_cache(maxsize=2048)  # 1,440 valid times: the tick's rows share them
def _clock(time: str) -> tuple[int, int]:
    hour, minute = normalize_reminder_time(time).split(":")
    return int(hour), int(minute)


def _latest_slot(weekdays: frozenset[int], at: clock_time, now: datetime, zone: ZoneInfo) -> datetime:
    # ``now`` and the result are UTC instants. Walk local dates backwards from the latest wall time that
    # can map to an instant at or before ``now``: wall times map to instants monotonically, so the first
    # slot not after ``now`` is the one. After a fall-back the wall clock repeats, and a slot up to the
    # size of the jump ahead of now's wall time may already have fired, hence the margin.
    margin = max(timedelta(0), _offset(now - _DAY, zone) - _offset(now, zone))
    horizon = (now.astimezone(zone) + margin).replace(tzinfo=None)
    day = horizon.date() if at <= horizon.time() else horizon.date() - _DAY
    while True:
        day = _matching_day_at_or_before(day, weekdays)
        slot = wall_instant(datetime.combine(day, at), zone)
        if slot <= now:
            return slot
        day -= _DAY


def _offset(instant: datetime, zone: ZoneInfo) -> timedelta:
    offset = instant.astimezone(zone).utcoffset()
    return offset if offset is not None else timedelta(0)


def _matching_day_at_or_before(day: date, weekdays: frozenset[int]) -> date:
    while day.weekday() not in weekdays:
        day -= _DAY
    return day


