"""Reminder preference use cases: read with defaults, validate and save (seed section 2; SPEC sections 6 and 21)."""

from __future__ import annotations

from datetime import datetime

from taskcore.model import Preference
from taskcore.reminders import DEFAULT_TIME, ReminderFreq, normalize_reminder_time, parse_freq
from taskcore.services.tasks import UNSET, _Unset
from taskcore.storage import preferences as q
from taskcore.storage.users import ensure_user
from taskcore.unit import Reading, UnitOfWork
from taskcore.zones import zone_by_city

DEFAULT_PREFERENCE = Preference(freq=ReminderFreq.OFF.value, time=DEFAULT_TIME, updated_at=None)


def get_preference(uow: Reading, *, user_id: str) -> Preference:
    """The user's preference; off at 08:30 (updated_at None) when they never saved one."""
    conn = uow.conn
    saved = q.load_preference(conn, user_id)
    return DEFAULT_PREFERENCE if saved is None else saved


def set_preference(
    uow: UnitOfWork, *, user_id: str, freq: ReminderFreq | str, time: str | None, now: datetime,
    tz: str | _Unset | None = UNSET,
) -> Preference:
    """Validate and save; an absent ``time`` keeps the saved time (08:30 if none) whatever the freq. ``tz`` chooses
    the user's zone (an IANA name or a city's, as ``/t zona`` takes it: ``Tijuana``, ``Ciudad de México``; None goes
    back to the default; absent keeps it)."""
    schedule = freq if isinstance(freq, ReminderFreq) else parse_freq(freq)
    new_time = None if time is None else normalize_reminder_time(time)
    zone = tz if isinstance(tz, _Unset) or tz is None else zone_by_city(tz).key

    conn = uow.conn
    ensure_user(conn, user_id, now)
    saved = q.load_preference(conn, user_id)
    kept = new_time or (DEFAULT_TIME if saved is None else saved.time)
    if not isinstance(zone, _Unset):
        q.save_zone(conn, user_id=user_id, tz=zone, now=now)
    q.save_preference(conn, user_id=user_id, freq=schedule.value, time=kept, now=now)
    chosen = (None if saved is None else saved.tz) if isinstance(zone, _Unset) else zone
    return Preference(freq=schedule.value, time=kept, updated_at=now, tz=chosen)
