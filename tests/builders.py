"""Builders with defaults, so tests state only what matters (STYLE habit 9)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from taskcore.model import Task
from taskcore.services import tasks as task_service
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.sql import insert_ignore
from taskcore.storage.users import ensure_user

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
TODAY = date(2026, 11, 22)


def make_group(
    db: Database, group_id: str = "100@g.us", *, name: str | None = None, status: str | None = "allowed",
    members: tuple[str, ...] = (), inactive: tuple[str, ...] = (), now: datetime = NOW,
) -> str:
    """A group with an access status (None: unknown) and active/inactive members."""
    with db.write() as conn:
        insert_ignore(conn, schema.groups, {"id": group_id, "name": name or f"Grupo {group_id}",
                                            "active": True, "created_at": now}, ["id"])
        if status is not None:
            insert_ignore(conn, schema.allowed_groups, {"group_id": group_id, "status": status,
                                                        "discovered_at": now, "updated_at": now}, ["group_id"])
        for user_id, active in [*((m, True) for m in members), *((m, False) for m in inactive)]:
            ensure_user(conn, user_id, now)
            conn.execute(schema.group_members.insert().values(
                group_id=group_id, user_id=user_id, is_admin=False, active=active,
                first_seen_at=now, last_seen_at=now, inactive_since=None if active else now))
    return group_id


def make_task(
    db: Database, *, creator: str = "111", group_id: str | None = "100@g.us", description: str = "Comprar pan",
    due: str | None = None, assignees: tuple[str, ...] = (), now: datetime = NOW,
) -> Task:
    """A task through the real create use case."""
    return task_service.create_task(
        db, creator=creator, description=description, group_id=group_id,
        due=date.fromisoformat(due) if due else None, assignees=assignees, now=now,
    )
