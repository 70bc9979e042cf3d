"""Queries on the group registry: `groups` and their access status in `allowed_groups` (SPEC section 4)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, func, select, true, update

from taskcore.access import (
    Discovery,
    GatingMode,
    GroupSnapshot,
    GroupStatus,
    Sighting,
    discovery_for,
    effectively_allowed,
)
from taskcore.model import GroupRecord
from taskcore.storage.schema import allowed_groups, groups
from taskcore.storage.sql import dialect_insert, insert_ignore, upsert

g, ag = groups, allowed_groups


def ensure_group(conn: Connection, group_id: str, now: datetime) -> None:
    """Create the group row (no name, active) when absent; an existing row is untouched."""
    insert_ignore(conn, g, {"id": group_id, "active": True, "created_at": now}, ["id"])


def record_group(
    conn: Connection, group_id: str, *, name: str | None, community_id: str | None, now: datetime,
    synced: bool = False,
) -> None:
    """Upsert the group: active again, name and community updated when given, synced-at when ``synced``."""
    stmt = dialect_insert(conn, g).values(
        id=group_id, name=name, community_id=community_id, active=True, created_at=now,
        last_synced_at=now if synced else None,
    )
    kept = {col: func.coalesce(stmt.excluded[col], g.c[col]) for col in ("name", "community_id", "last_synced_at")}
    conn.execute(stmt.on_conflict_do_update(index_elements=["id"], set_={"active": true(), **kept}))


def group_status(conn: Connection, group_id: str) -> GroupStatus | None:
    """The stored access status, or None when the group has no allowed_groups row."""
    status = conn.execute(select(ag.c.status).where(ag.c.group_id == group_id)).scalar_one_or_none()
    return GroupStatus(status) if status else None


_SNAPSHOT = (
    select(g.c.name, g.c.active, ag.c.status, g.c.lang)
    .select_from(g.outerjoin(ag, ag.c.group_id == g.c.id))
    .where(g.c.id == bindparam("group_id"))
)


def snapshot(conn: Connection, group_id: str) -> GroupSnapshot | None:
    """The group's name, active flag and status, or None when the group row is absent."""
    row = conn.execute(_SNAPSHOT, {"group_id": group_id}).one_or_none()
    if row is None:
        return None
    return GroupSnapshot(row.name, bool(row.active), GroupStatus(row.status) if row.status else None, row.lang)


def group_language(conn: Connection, group_id: str) -> str | None:
    """The language the group chose, or None."""
    return conn.execute(select(g.c.lang).where(g.c.id == group_id)).scalar_one_or_none()


def group_languages(conn: Connection, group_ids: Collection[str]) -> dict[str, str]:
    """The languages the given groups chose (those that chose none are absent)."""
    if not group_ids:
        return {}
    rows = conn.execute(select(g.c.id, g.c.lang).where(g.c.id.in_(list(group_ids)), g.c.lang.is_not(None)))
    return {row.id: row.lang for row in rows}


def group_zone(conn: Connection, group_id: str) -> str | None:
    """The time zone the group chose (or was given by its weekly summary), or None."""
    return conn.execute(select(g.c.time_zone).where(g.c.id == group_id)).scalar_one_or_none()


def save_group_zone(conn: Connection, group_id: str, tz: str | None, now: datetime) -> None:
    """Set (or with None clear) the group's time zone."""
    ensure_group(conn, group_id, now)
    conn.execute(update(g).where(g.c.id == group_id).values(time_zone=tz))


def save_group_language(conn: Connection, group_id: str, lang: str | None, now: datetime) -> None:
    """Set (or with None clear) the group's language."""
    ensure_group(conn, group_id, now)
    conn.execute(update(g).where(g.c.id == group_id).values(lang=lang))


def insert_status(
    conn: Connection, group_id: str, status: GroupStatus, now: datetime, *, by: str | None = None
) -> bool:
    """Give the group a status unless it has one; True when this call inserted it (it decides races)."""
    row = {"group_id": group_id, "status": status.value, "discovered_at": now, "updated_at": now,
           "updated_by": by}
    return insert_ignore(conn, ag, row, ["group_id"])


def set_status(
    conn: Connection, group_id: str, status: GroupStatus, *, by: str | None, now: datetime
) -> None:
    """Set the group's status (insert or overwrite), recording who and when."""
    row = {"group_id": group_id, "status": status.value, "discovered_at": now, "updated_at": now,
           "updated_by": by}
    upsert(conn, ag, row, ["group_id"], ["status", "updated_at", "updated_by"])


def _records(conn: Connection, *conditions: Any) -> list[GroupRecord]:
    query = (
        select(g.c.id, g.c.name, g.c.active, ag.c.status)
        .select_from(g.outerjoin(ag, ag.c.group_id == g.c.id))
        .where(*conditions)
        .order_by(g.c.name.is_(None), g.c.name, g.c.id)
    )
    return [
        GroupRecord(row.id, row.name, GroupStatus(row.status) if row.status else None, bool(row.active))
        for row in conn.execute(query)
    ]


def list_groups(conn: Connection, status: GroupStatus | None = None) -> list[GroupRecord]:
    """Known groups, optionally only those with ``status``, ordered by name (unnamed last) then id."""
    return _records(conn, *([ag.c.status == status.value] if status else []))


def load_group(conn: Connection, group_id: str) -> GroupRecord | None:
    """One group of the registry, or None."""
    found = _records(conn, g.c.id == group_id)
    return found[0] if found else None


def status_counts(conn: Connection) -> dict[GroupStatus, int]:
    """How many groups have each status; every status is present, zeros included."""
    counts = dict.fromkeys(GroupStatus, 0)
    for status, count in conn.execute(select(ag.c.status, func.count()).group_by(ag.c.status)):
        counts[GroupStatus(status)] = int(count)
    return counts


def deactivate_unlisted(conn: Connection, listed: Collection[str]) -> list[str]:
    """Mark every active group not in ``listed`` inactive; return their ids (their tasks stay)."""
    query = select(g.c.id).where(g.c.active == true())
    if listed:
        query = query.where(g.c.id.not_in(list(listed)))
    gone = list(conn.execute(query.order_by(g.c.id)).scalars())
    if gone:
        conn.execute(update(g).where(g.c.id.in_(gone)).values(active=False))
    return gone


def sight(
    conn: Connection, mode: GatingMode, group_id: str, *, name: str | None, now: datetime,
    community_id: str | None = None, synced: bool = False,
) -> Sighting:
    """Inside a write transaction: record the group per the discovery rules; the pending insert decides races."""
    discovery = discovery_for(mode, group_status(conn, group_id))
    if discovery is Discovery.IGNORE:
        return Sighting(group_id, None, allowed=False, newly_discovered=False)
    record_group(conn, group_id, name=name, community_id=community_id, now=now, synced=synced)
    new = discovery is Discovery.RECORD_PENDING and insert_status(conn, group_id, GroupStatus.PENDING, now)
    status = group_status(conn, group_id)
    return Sighting(group_id, status, effectively_allowed(mode, status), newly_discovered=new)
