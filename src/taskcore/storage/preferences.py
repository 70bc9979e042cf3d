"""Queries on reminder preferences (seed section 2; SPEC section 10)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, select

from taskcore.model import Preference
from taskcore.storage.schema import user_preferences
from taskcore.storage.sql import upsert

p = user_preferences


def load_preference(conn: Connection, user_id: str) -> Preference | None:
    """The user's saved preference, or None when they never saved one."""
    row = conn.execute(select(p.c.freq, p.c.time, p.c.updated_at).where(p.c.user_id == user_id)).first()
    return None if row is None else Preference(freq=row.freq, time=row.time, updated_at=row.updated_at)


def save_preference(conn: Connection, *, user_id: str, freq: str, time: str, now: datetime) -> None:
    """Insert or replace the user's preference, stamping updated_at with ``now``."""
    values = {"user_id": user_id, "freq": freq, "time": time, "updated_at": now}
    upsert(conn, p, values, ["user_id"], ["freq", "time", "updated_at"])
