"""Identity aliases (a WhatsApp LID -> the phone-number user) and re-keying LID-only users (SPEC 3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Column, Connection, Table, Text, and_, bindparam, delete, exists, func, select, update

from taskcore.access import GroupSnapshot, GroupStatus
from taskcore.identity import identity_key, needs_rekey
from taskcore.model import SenderFacts
from taskcore.storage.prepared import Prepared
from taskcore.storage.proof_tables import task_proofs
from taskcore.storage.schema import (
    allowed_groups,
    api_tokens,
    calendar_feeds,
    group_members,
    groups,
    identity_aliases,
    reminder_deliveries,
    task_assignments,
    tasks,
    user_preferences,
    users,
    web_sessions,
    web_tokens,
)
from taskcore.storage.sql import insert_ignore, upsert

ia, gm = identity_aliases, group_members

# Rows keyed by (user, other keys): where the phone user already has the same row, the LID user's is dropped.
_KEYED: tuple[tuple[Table, tuple[str, ...]], ...] = (
    (task_assignments, ("task_id",)),
    (user_preferences, ()),
    (reminder_deliveries, ("slot",)),
    (calendar_feeds, ()),
)
# Plain references to a user: simply re-pointed.
_REFERENCES: tuple[Column[Any], ...] = (
    identity_aliases.c.user_id,
    web_tokens.c.user_id,
    web_sessions.c.user_id,
    api_tokens.c.user_id,
    tasks.c.created_by,
    tasks.c.completed_by,
    task_assignments.c.assigned_by,
    allowed_groups.c.updated_by,
    task_proofs.c.sent_by,  # SPEC section 34: who sent a task's photo
)


def _sender_statement() -> Any:
    lid, phone, group_id = (bindparam(name, type_=Text()) for name in ("lid", "phone", "group_id"))
    target = select(ia.c.user_id).where(ia.c.alias == lid).scalar_subquery()
    who = select(func.coalesce(phone, target, lid).label("id"), target.label("alias_target")).subquery("who")
    g, ag = groups, allowed_groups
    return (
        select(who.c.id, who.c.alias_target, exists().where(users.c.id == lid).label("lid_is_user"),
               users.c.id.label("known_id"), users.c.display_name, users.c.last_seen_at,
               gm.c.active.label("member_active"), gm.c.last_seen_at.label("member_seen_at"),
               g.c.id.label("group_known"), g.c.name.label("group_name"), g.c.active.label("group_active"),
               ag.c.status, user_preferences.c.tz, user_preferences.c.lang, g.c.lang.label("group_lang"),
               user_preferences.c.zone_told_at, g.c.time_zone.label("group_zone"))
        .select_from(
            who.outerjoin(users, users.c.id == who.c.id)
            .outerjoin(user_preferences, user_preferences.c.user_id == who.c.id)
            .outerjoin(gm, and_(gm.c.group_id == group_id, gm.c.user_id == who.c.id))
            .outerjoin(g, g.c.id == group_id)
            .outerjoin(ag, ag.c.group_id == group_id)
        )
    )


# Built once; the identity and the group go in as parameters. Every message runs it: prepared.
_SENDER = Prepared(_sender_statement(), ["phone", "lid", "group_id"])


def sender_facts(conn: Connection, *, phone: str | None, lid: str | None, group_id: str | None) -> SenderFacts:
    """The sender's user, alias, membership and group, in one round trip (SenderFacts)."""
    row = _SENDER.first(conn, {"phone": phone, "lid": lid, "group_id": group_id})
    if row is None:  # pragma: no cover - the statement selects from a one-row subquery
        raise AssertionError("the sender statement returned no row")
    (user_id, target, lid_is_user, known_id, display_name, last_seen_at, member_active, member_seen_at,
     group_known, group_name, group_active, status, time_zone, language, group_language, zone_told_at, group_zone) = row
    group = None
    if group_known is not None:
        group = GroupSnapshot(group_name, bool(group_active), GroupStatus(status) if status else None, group_language,
                              group_zone)
    return SenderFacts(
        user_id=user_id, alias_target=target, lid_is_user=bool(lid_is_user), user_known=known_id is not None,
        display_name=display_name, last_seen_at=last_seen_at,
        member_active=None if member_active is None else bool(member_active), member_seen_at=member_seen_at,
        group=group, time_zone=time_zone, language=language, zone_told=zone_told_at is not None,
    )


def record_alias(conn: Connection, alias: str, user_id: str, now: datetime) -> None:
    """Record that ``alias`` (LID digits) is ``user_id`` (phone digits); a newer pairing wins."""
    if alias == user_id:
        return
    ensure_user(conn, user_id, now)
    upsert(conn, ia, {"alias": alias, "user_id": user_id, "created_at": now}, ["alias"], ["user_id"])


def alias_target(conn: Connection, alias: str) -> str | None:
    """The user an alias stands for, or None."""
    return conn.execute(select(ia.c.user_id).where(ia.c.alias == alias)).scalar_one_or_none()


def _alias_targets(conn: Connection, aliases: Sequence[str]) -> dict[str, str]:
    if not aliases:
        return {}
    rows = conn.execute(select(ia.c.alias, ia.c.user_id).where(ia.c.alias.in_(list(set(aliases)))))
    return {row.alias: row.user_id for row in rows}


def rekey_user(conn: Connection, old: str, new: str) -> None:
    """Move every row of user ``old`` to existing user ``new``, merging overlaps, then delete ``old``."""
    _merge_user_row(conn, old, new)
    _merge_memberships(conn, old, new)
    for table, keys in _KEYED:
        _move_keyed(conn, table, keys, old, new)
    for column in _REFERENCES:
        conn.execute(update(column.table).where(column == old).values({column.name: new}))
    conn.execute(delete(users).where(users.c.id == old))


def _merge_user_row(conn: Connection, old: str, new: str) -> None:
    rows = {row.id: row for row in conn.execute(select(users).where(users.c.id.in_([old, new])))}
    lid, phone = rows[old], rows[new]
    seen = [t for t in (lid.last_seen_at, phone.last_seen_at) if t is not None]
    conn.execute(update(users).where(users.c.id == new).values(
        display_name=phone.display_name or lid.display_name,
        created_at=min(lid.created_at, phone.created_at),
        last_seen_at=max(seen) if seen else None,
    ))


def _merge_memberships(conn: Connection, old: str, new: str) -> None:
    """Fold the LID user's membership into the phone user's where both are members of the same group."""
    theirs = gm.alias("phone")
    pairs = conn.execute(
        select(gm, theirs.c.first_seen_at.label("p_first"), theirs.c.last_seen_at.label("p_last"),
               theirs.c.active.label("p_active"), theirs.c.inactive_since.label("p_since"))
        .join(theirs, and_(theirs.c.group_id == gm.c.group_id, theirs.c.user_id == new))
        .where(gm.c.user_id == old)
    ).all()
    for row in pairs:
        active = bool(row.active or row.p_active)
        since = [t for t in (row.inactive_since, row.p_since) if t is not None]
        conn.execute(update(gm).where(gm.c.group_id == row.group_id, gm.c.user_id == new).values(
            first_seen_at=min(row.first_seen_at, row.p_first),
            last_seen_at=max(row.last_seen_at, row.p_last),
            active=active,
            inactive_since=None if active else max(since, default=None),
        ))
    _move_keyed(conn, gm, ("group_id",), old, new)


def _move_keyed(conn: Connection, table: Table, keys: tuple[str, ...], old: str, new: str) -> None:
    """Drop the old user's rows that the new user already has (same keys), then re-point the rest."""
    mine = table.alias("mine")
    duplicate = exists().where(mine.c.user_id == new, *(mine.c[k] == table.c[k] for k in keys))
    conn.execute(delete(table).where(table.c.user_id == old, duplicate))
    conn.execute(update(table).where(table.c.user_id == old).values(user_id=new))


def _lock_user(conn: Connection, user_id: str) -> bool:
    """True when the user exists; on PostgreSQL its row stays locked, so a concurrent re-key waits, then sees none."""
    query = select(users.c.id).where(users.c.id == user_id).with_for_update()
    return conn.execute(query).first() is not None


def resolve_identity(
    conn: Connection, *, phone: str | None, lid: str | None, name: str | None, now: datetime,
    known: SenderFacts | None = None,
) -> tuple[str, bool]:
    """The sender's user id and whether an alias gave it; records the pair and re-keys a LID-only user.

    With ``known`` (read in this transaction) only what changed is written, unless a re-key is due."""
    key = identity_key(phone, lid)
    if known is not None and not (known.lid_is_user and needs_rekey(known.lid_is_user, phone, lid)):
        return _resolve_known(conn, known, phone=phone, lid=lid, name=name, now=now)
    if phone:
        ensure_user(conn, phone, now, name=name)
        if lid and lid != phone:
            if _lock_user(conn, lid):
                rekey_user(conn, lid, phone)
            record_alias(conn, lid, phone, now)
        return phone, False
    target = alias_target(conn, key)  # no phone: the key is the LID
    ensure_user(conn, target or key, now, name=name)
    return target or key, target is not None


def _resolve_known(
    conn: Connection, known: SenderFacts, *, phone: str | None, lid: str | None, name: str | None, now: datetime
) -> tuple[str, bool]:
    if known.user_known:
        refresh_user(conn, known.user_id, now, name=name, stored_name=known.display_name,
                     last_seen_at=known.last_seen_at)
    else:
        ensure_user(conn, known.user_id, now, name=name)
    if phone and lid and phone not in (lid, known.alias_target):
        upsert(conn, ia, {"alias": lid, "user_id": phone, "created_at": now}, ["alias"], ["user_id"])
    return known.user_id, not phone and known.alias_target is not None


# Users (the people rows): created when first seen, their name and when they were last seen.

# A sighting within this long after the recorded one (same name) writes nothing: last_seen_at is informational, and
# a user who sends a burst of messages should not cost an UPDATE per message.
SEEN_RESOLUTION = timedelta(minutes=1)

# Built once (bind names differ from the column names, as UPDATE requires); the values go in as parameters.
_RENAME = (
    update(users).where(users.c.id == bindparam("b_id"))
    .values(display_name=bindparam("b_name"), last_seen_at=bindparam("b_now"))
)


def ensure_user(conn: Connection, user_id: str, now: datetime, *, name: str | None = None) -> None:
    """Create the user if absent; record a new display name and the time they were seen."""
    created = insert_ignore(
        conn, users, {"id": user_id, "display_name": name, "created_at": now, "last_seen_at": now}, ["id"]
    )
    if not created and name:
        conn.execute(_RENAME, {"b_id": user_id, "b_name": name, "b_now": now})


def seen_lately(last_seen_at: datetime | None, now: datetime) -> bool:
    """True when ``last_seen_at`` is at most SEEN_RESOLUTION before ``now`` (and not after it)."""
    return last_seen_at is not None and last_seen_at <= now < last_seen_at + SEEN_RESOLUTION


def refresh_user(
    conn: Connection, user_id: str, now: datetime, *, name: str | None, stored_name: str | None,
    last_seen_at: datetime | None,
) -> None:
    """``ensure_user`` for a user read a moment ago: written only when the name changed or was not seen lately."""
    if name and (name != stored_name or not seen_lately(last_seen_at, now)):
        conn.execute(_RENAME, {"b_id": user_id, "b_name": name, "b_now": now})


def ensure_users(conn: Connection, user_ids: Iterable[str], now: datetime) -> None:
    """Create every user that does not exist yet (names untouched)."""
    for user_id in dict.fromkeys(user_ids):
        insert_ignore(conn, users, {"id": user_id, "created_at": now}, ["id"])


def display_names(conn: Connection, user_ids: Iterable[str]) -> dict[str, str | None]:
    """The display name of each known user among ``user_ids``."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return {}
    rows = conn.execute(select(users.c.id, users.c.display_name).where(users.c.id.in_(ids)))
    return {row.id: row.display_name for row in rows}
