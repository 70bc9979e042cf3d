"""One's own data (SPEC section 32): who I am (with my own number, shown only to me), everything the service keeps
about me as one document, and erasure. The chat's ``/t borrarme`` (to wire) and ``DELETE /api/me`` and ``tasksvc
forget`` call ``forget_person``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from taskcore.identity import normalize_user_id
from taskcore.phones import is_phone_number
from taskcore.services.languages import language_of
from taskcore.services.zones import zone_of
from taskcore.storage import own_data as q
from taskcore.storage.identities import alias_target
from taskcore.unit import Reading, UnitOfWork

__all__ = ["FORGOTTEN_ID", "MyProfile", "export_person", "forget_number", "forget_person", "my_profile"]

FORGOTTEN_ID = q.FORGOTTEN_ID


@dataclass(frozen=True, slots=True)
class MyProfile:
    """What ``GET /api/me`` tells a person about themselves."""

    user_id: str
    name: str | None
    phone: str | None
    lang: str
    tz: str


def my_profile(uow: Reading, *, user_id: str, default_lang: str, fallback_zone: ZoneInfo) -> MyProfile:
    """The person's name, phone number (None for a person known only by a LID), language and zone in force."""
    conn = uow.conn
    rows = q.person_rows(conn, user_id)
    lang = language_of(conn, user_id, default_lang)[0]
    zone = zone_of(conn, user_id, fallback_zone)
    name = rows["users"][0]["display_name"] if rows["users"] else None
    phone = user_id if rows["identity_aliases"] or is_phone_number(user_id) else None
    return MyProfile(user_id, name, phone, lang, zone.name)


def export_person(uow: Reading, *, user_id: str, default_lang: str, fallback_zone: ZoneInfo,
                  now: datetime) -> dict[str, Any]:
    """Everything kept about the person, by table, with their profile and points; no secret (tokens and links
    appear by their dates only)."""
    me = my_profile(uow, user_id=user_id, default_lang=default_lang, fallback_zone=fallback_zone)
    conn = uow.conn
    rows = q.person_rows(conn, user_id)
    points = sum(int(task["points"]) for task in rows["tasks"] if task["completed_by_me"])
    points += sum(int(task["points"]) for task in rows["tasks"] for part in rows["task_assignments"]
                  if part["task_id"] == task["id"] and part["done_at"] is not None and not task["completed_by_me"])
    return {"exported_at": now, "profile": {"name": me.name, "phone": me.phone, "lang": me.lang, "tz": me.tz},
            "points": points, "data": rows}


def forget_person(uow: UnitOfWork, *, user_id: str, now: datetime) -> bool:
    """Erase the person (``storage.own_data.erase_person``) in one transaction; False when nobody is stored so."""
    return q.erase_person(uow.conn, user_id, now)


def forget_number(uow: UnitOfWork, *, number: str, now: datetime) -> bool:
    """``tasksvc forget <number>``: the person with this phone number (or LID), erased; ValueError when no digit."""
    digits = normalize_user_id(number)
    conn = uow.conn
    user_id = alias_target(conn, digits) or digits
    return forget_person(uow, user_id=user_id, now=now)
