"""Queries on reminder preferences and time zones (seed section 2; SPEC sections 10 and 21).

``next_due_at`` is when the reminder tick looks at a row again (``storage.reminders``): saving a preference or a
zone sets it to the moment of the save, so the next tick plans the row in the user's zone (a slot still inside the
grace window is due, as after a start).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import Connection, select, update

from taskcore.model import Preference
from taskcore.reminders import DEFAULT_TIME, ReminderFreq
from taskcore.storage.schema import user_preferences
from taskcore.storage.sql import insert_ignore, upsert

p = user_preferences
OFF = ReminderFreq.OFF.value


def load_preference(conn: Connection, user_id: str) -> Preference | None:
    """The user's saved preference, or None when they never saved one (nor a zone)."""
    row = conn.execute(select(p.c.freq, p.c.time, p.c.updated_at, p.c.tz).where(p.c.user_id == user_id)).first()
    return None if row is None else Preference(freq=row.freq, time=row.time, updated_at=row.updated_at, tz=row.tz)


def chosen_zone(conn: Connection, user_id: str) -> str | None:
    """The zone the user chose, or None."""
    return conn.execute(select(p.c.tz).where(p.c.user_id == user_id)).scalar_one_or_none()


def save_preference(conn: Connection, *, user_id: str, freq: str, time: str, now: datetime) -> None:
    """Insert or replace the user's preference (their zone is kept), stamping updated_at with ``now``."""
    values = {"user_id": user_id, "freq": freq, "time": time, "updated_at": now,
              "next_due_at": None if freq == OFF else now}
    upsert(conn, p, values, ["user_id"], ["freq", "time", "updated_at", "next_due_at"])


def save_zone(conn: Connection, *, user_id: str, tz: str | None, now: datetime) -> None:
    """Set (or with None clear) the user's zone; a user with no preference yet gets reminders off at 08:30."""
    insert_ignore(conn, p, {"user_id": user_id, "freq": OFF, "time": DEFAULT_TIME, "updated_at": now, "tz": None,
                            "next_due_at": None}, ["user_id"])
    conn.execute(update(p).where(p.c.user_id == user_id).values(tz=tz, updated_at=now))
    conn.execute(update(p).where(p.c.user_id == user_id, p.c.freq != OFF).values(next_due_at=now))


def zone_told(conn: Connection, *, user_id: str, now: datetime) -> None:
    """Record that a reply named the user's zone to them (SPEC section 30: once)."""
    insert_ignore(conn, p, {"user_id": user_id, "freq": OFF, "time": DEFAULT_TIME, "updated_at": now, "tz": None,
                            "next_due_at": None}, ["user_id"])
    conn.execute(update(p).where(p.c.user_id == user_id).values(zone_told_at=now))


def chosen_language(conn: Connection, user_id: str) -> str | None:
    """The language the user chose, or None."""
    return conn.execute(select(p.c.lang).where(p.c.user_id == user_id)).scalar_one_or_none()


def chosen_languages(conn: Connection, user_ids: Collection[str]) -> dict[str, str]:
    """The languages the given users chose (those who chose none are absent)."""
    if not user_ids:
        return {}
    rows = conn.execute(select(p.c.user_id, p.c.lang).where(p.c.user_id.in_(list(user_ids)), p.c.lang.is_not(None)))
    return {row.user_id: row.lang for row in rows}


def save_language(conn: Connection, *, user_id: str, lang: str | None, now: datetime) -> None:
    """Set (or with None clear) the user's language; a user with no preference yet gets reminders off at 08:30."""
    insert_ignore(conn, p, {"user_id": user_id, "freq": OFF, "time": DEFAULT_TIME, "updated_at": now, "tz": None,
                            "next_due_at": None}, ["user_id"])
    conn.execute(update(p).where(p.c.user_id == user_id).values(lang=lang, updated_at=now))
