"""Queries on group members: a user who writes in a group, or is listed by a sync, is an active member."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, false, func, select, true, update

from taskcore.model import Person, SenderFacts
from taskcore.storage.groups import ensure_group
from taskcore.storage.schema import bot_ids, group_members, identity_aliases, users
from taskcore.storage.sql import upsert
from taskcore.storage.users import ensure_user, ensure_users, seen_lately

gm = group_members


def touch_member(
    conn: Connection, group_id: str, user_id: str, now: datetime, *, is_admin: bool | None = None
) -> None:
    """Make the user an active member seen now (first_seen_at kept; is_admin changed only when given)."""
    ensure_group(conn, group_id, now)
    ensure_user(conn, user_id, now)
    _upsert_member(conn, group_id, user_id, now, is_admin)


def touch_known_member(
    conn: Connection, group_id: str, user_id: str, now: datetime, *, active: bool | None,
    seen_at: datetime | None,
) -> None:
    """``touch_member`` when group and user are known to exist and the membership (``active`` None: none) was read
    in this transaction: nothing is written for an active member seen lately."""
    if active and seen_lately(seen_at, now):
        return
    _upsert_member(conn, group_id, user_id, now, None)


def add_known_members(conn: Connection, group_id: str, user_ids: Collection[str], now: datetime) -> None:
    """``touch_members`` (is_admin unchanged) for users and a group known to exist: one upsert per member."""
    for user_id in dict.fromkeys(user_ids):
        _upsert_member(conn, group_id, user_id, now, None)


def touch_members(conn: Connection, group_id: str, admins: Mapping[str, bool | None], now: datetime) -> None:
    """``touch_member`` for many users at once: user id -> is_admin (None: unchanged)."""
    ensure_group(conn, group_id, now)
    ensure_users(conn, admins, now)
    for user_id, is_admin in admins.items():
        _upsert_member(conn, group_id, user_id, now, is_admin)


def _upsert_member(conn: Connection, group_id: str, user_id: str, now: datetime, is_admin: bool | None) -> None:
    row = {"group_id": group_id, "user_id": user_id, "is_admin": bool(is_admin), "active": True,
           "first_seen_at": now, "last_seen_at": now, "inactive_since": None}
    changed = ["active", "last_seen_at", "inactive_since", *(["is_admin"] if is_admin is not None else [])]
    upsert(conn, gm, row, ["group_id", "user_id"], changed)


def deactivate_members(conn: Connection, group_id: str, user_ids: Collection[str], now: datetime) -> int:
    """Mark these active members inactive since now (inactive ones keep their date); returns how many."""
    if not user_ids:
        return 0
    return _deactivate(conn, group_id, now, gm.c.user_id.in_(list(user_ids)))


def deactivate_absent(conn: Connection, group_id: str, present: Collection[str], now: datetime) -> int:
    """Mark every active member not in ``present`` inactive since now. Returns how many."""
    return _deactivate(conn, group_id, now, *([gm.c.user_id.not_in(list(present))] if present else []))


def _deactivate(conn: Connection, group_id: str, now: datetime, *conditions: Any) -> int:
    stmt = (
        update(gm)
        .where(gm.c.group_id == group_id, gm.c.active == true(), *conditions)
        .values(active=False, inactive_since=now)
    )
    return int(conn.execute(stmt).rowcount)


def delete_inactive(conn: Connection, older_than: datetime) -> int:
    """Delete memberships inactive since strictly before ``older_than``; returns how many."""
    stmt = delete(gm).where(gm.c.active == false(), gm.c.inactive_since < older_than)
    return int(conn.execute(stmt).rowcount)


def active_members(conn: Connection, group_id: str) -> list[Person]:
    """The group's active members by name (ignoring case; nameless ones last), then id."""
    name = users.c.display_name
    rows = conn.execute(
        select(users.c.id, name).join(gm, gm.c.user_id == users.c.id)
        .where(gm.c.group_id == group_id, gm.c.active == true(), _not_the_bot(users.c.id))
        .order_by(name.is_(None), func.lower(name), users.c.id)
    )
    return [Person(row.id, row.display_name) for row in rows]


def active_member_ids(conn: Connection, group_id: str) -> list[str]:
    """The ids of the group's active members (never the bot)."""
    found = conn.execute(select(gm.c.user_id).where(gm.c.group_id == group_id, gm.c.active == true(),
                                                    _not_the_bot(gm.c.user_id)))
    return list(found.scalars())


def active_among(conn: Connection, group_id: str, user_ids: Collection[str]) -> set[str]:
    """Those of ``user_ids`` who are active members of the group."""
    if not user_ids:
        return set()
    found = conn.execute(select(gm.c.user_id).where(
        gm.c.group_id == group_id, gm.c.active == true(), gm.c.user_id.in_(list(user_ids)),
        _not_the_bot(gm.c.user_id)))
    return set(found.scalars())


def members_named(conn: Connection, group_id: str, digits: Collection[str]) -> dict[str, str]:
    """Of ``digits`` (phone numbers or LIDs), those that name an active member of the group, each to the member's
    user id (a LID through its alias); nothing is written, and the bot is never a member (SPEC section 38)."""
    wanted = list(set(digits))
    aliases = conn.execute(select(identity_aliases.c.alias, identity_aliases.c.user_id)
                           .where(identity_aliases.c.alias.in_(wanted))) if wanted else ()
    targets = {row.alias: row.user_id for row in aliases}
    named = {found: targets.get(found, found) for found in digits}
    present = active_among(conn, group_id, set(named.values()))
    return {found: user for found, user in named.items() if user in present}


def member_seen(conn: Connection, *, group_id: str, user_id: str, now: datetime, known: SenderFacts | None) -> None:
    """The user wrote in the group: an active member seen now; with ``known`` (what was read of them a moment ago),
    only a change is written."""
    if known is not None:
        touch_known_member(conn, group_id, user_id, now, active=known.member_active, seen_at=known.member_seen_at)
        return
    ensure_user(conn, user_id, now)
    touch_member(conn, group_id, user_id, now)
def _not_the_bot(column: Any) -> Any:
    """The bot itself is never a member one sees or assigns (SPEC section 32)."""
    return column.not_in(select(bot_ids.c.user_id))
