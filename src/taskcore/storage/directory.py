"""Who and what the database knows, listed whole: for the development mode's local gateway and chat simulator."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from taskcore.storage.schema import allowed_groups, group_members, groups, users


def active_groups(conn: Connection) -> tuple[list[Any], list[Any]]:
    """Active groups (id, name) by id, and every active membership (group id, user id, is_admin)."""
    found = conn.execute(select(groups.c.id, groups.c.name).where(groups.c.active.is_(True))
                         .order_by(groups.c.id)).all()
    members = conn.execute(select(group_members.c.group_id, group_members.c.user_id, group_members.c.is_admin)
                           .where(group_members.c.active.is_(True))).all()
    return list(found), list(members)


def people_and_groups(conn: Connection) -> tuple[list[Any], list[Any]]:
    """Every user (id, name) by id and every group (id, name, status or None) by name."""
    people = conn.execute(select(users.c.id, users.c.display_name).order_by(users.c.id)).all()
    status = select(allowed_groups.c.status).where(allowed_groups.c.group_id == groups.c.id).scalar_subquery()
    known = conn.execute(select(groups.c.id, groups.c.name, status.label("status")).order_by(groups.c.name)).all()
    return list(people), list(known)
