"""Queries on reminder preferences (seed section 2; SPEC section 10)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, select

from taskcore.model import Preference
from taskcore.reminders import ReminderFreq
from taskcore.storage.schema import user_preferences
from taskcore.storage.sql import upsert

p = user_preferences
# Listing the "on" values (not freq <> 'off') lets ix_user_preferences_due (time, freq) serve both columns.
_ON = [freq.value for freq in ReminderFreq if freq is not ReminderFreq.OFF]


def load_preference(conn: Connection, user_id: str) -> Preference | None:
    """The user's saved preference, or None when they never saved one."""
    row = conn.execute(select(p.c.freq, p.c.time, p.c.updated_at).where(p.c.user_id == user_id)).first()
    return None if row is None else Preference(freq=row.freq, time=row.time, updated_at=row.updated_at)


def save_preference(conn: Connection, *, user_id: str, freq: str, time: str, now: datetime) -> None:
    """Insert or replace the user's preference, stamping updated_at with ``now``."""
    values = {"user_id": user_id, "freq": freq, "time": time, "updated_at": now}
    upsert(conn, p, values, ["user_id"], ["freq", "time", "updated_at"])


def reminder_candidates(conn: Connection, *, times: Sequence[str]) -> list[tuple[str, str, str]]:
    """(user id, freq, time) of every preference that is not off and whose time is one of ``times``."""
    if not times:
        return []
    stmt = select(p.c.user_id, p.c.freq, p.c.time).where(p.c.time.in_(list(times)), p.c.freq.in_(_ON))
    return [(user_id, freq, time) for user_id, freq, time in conn.execute(stmt)]
