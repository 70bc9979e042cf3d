"""Time zone use cases (SPEC section 21): read a user's effective zone, and choose or forget one."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.storage import preferences as q
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from taskcore.zones import UserZone, effective_zone, zone_by_city


def zone_of(conn: Connection, user_id: str, fallback: ZoneInfo) -> UserZone:
    """The user's zone inside an open transaction: chosen, else their number's country's, else ``fallback`` (TZ)."""
    return effective_zone(q.chosen_zone(conn, user_id), user_id, fallback)


def user_zone(db: Database, *, user_id: str, fallback: ZoneInfo) -> UserZone:
    """The user's zone and where it comes from."""
    with db.read() as conn:
        return zone_of(conn, user_id, fallback)


def user_today(db: Database, *, user_id: str, fallback: ZoneInfo, now: datetime) -> date:
    """Today in the user's zone: what ``hoy``, ``mañana`` and a rule's first date mean for them."""
    return now.astimezone(user_zone(db, user_id=user_id, fallback=fallback).zone).date()


def set_time_zone(db: Database, *, user_id: str, name: str | None, fallback: ZoneInfo, now: datetime) -> UserZone:
    """Choose the user's zone (an IANA name, any case; InvalidTimeZone otherwise), or with None go back to the
    default; their reminders are planned again in the zone now in force."""
    chosen = None if name is None else zone_by_city(name).key

    def work(conn: Connection) -> UserZone:
        ensure_user(conn, user_id, now)
        q.save_zone(conn, user_id=user_id, tz=chosen, now=now)
        return effective_zone(chosen, user_id, fallback)

    return db.transact(work)
