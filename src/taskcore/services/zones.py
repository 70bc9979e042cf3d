"""Time zone use cases (SPEC section 21): read a user's effective zone, and choose or forget one."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.storage import groups
from taskcore.storage import preferences as q
from taskcore.storage.users import ensure_user
from taskcore.unit import Reading, UnitOfWork
from taskcore.zones import UserZone, effective_zone, parse_time_zone, zone_by_city


def zone_of(conn: Connection, user_id: str, fallback: ZoneInfo) -> UserZone:
    """The user's zone inside an open transaction: chosen, else their number's country's, else ``fallback`` (TZ)."""
    return effective_zone(q.chosen_zone(conn, user_id), user_id, fallback)


def user_zone(uow: Reading, *, user_id: str, fallback: ZoneInfo) -> UserZone:
    """The user's zone and where it comes from."""
    conn = uow.conn
    return zone_of(conn, user_id, fallback)


def user_today(uow: Reading, *, user_id: str, fallback: ZoneInfo, now: datetime) -> date:
    """Today in the user's zone: what ``hoy``, ``mañana`` and a rule's first date mean for them."""
    return now.astimezone(user_zone(uow, user_id=user_id, fallback=fallback).zone).date()


def set_time_zone(uow: UnitOfWork, *, user_id: str, name: str | None, fallback: ZoneInfo, now: datetime) -> UserZone:
    """Choose the user's zone (an IANA name, any case; InvalidTimeZone otherwise), or with None go back to the
    default; their reminders are planned again in the zone now in force."""
    chosen = None if name is None else zone_by_city(name).key

    conn = uow.conn
    ensure_user(conn, user_id, now)
    q.save_zone(conn, user_id=user_id, tz=chosen, now=now)
    return effective_zone(chosen, user_id, fallback)


def group_zone(uow: Reading, *, group_id: str) -> ZoneInfo | None:
    """The group's zone (SPEC section 30), None while it has none."""
    conn = uow.conn
    name = groups.group_zone(conn, group_id)
    return None if name is None else parse_time_zone(name)


def set_group_zone(uow: UnitOfWork, *, group_id: str, name: str | None, now: datetime) -> ZoneInfo | None:
    """Choose the group's zone (a place or an IANA name; InvalidTimeZone otherwise), or with None forget it."""
    chosen = None if name is None else zone_by_city(name)
    groups.save_group_zone(uow.conn, group_id, None if chosen is None else chosen.key, now)
    return chosen
