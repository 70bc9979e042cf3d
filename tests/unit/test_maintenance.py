"""The daily maintenance deletes exactly what is past each retention, and keeps what is at its boundary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from taskcore.services import web_auth
from taskcore.services.maintenance import run_maintenance
from taskcore.storage.db import Database
from taskcore.storage.schema import (
    group_members,
    inbound_messages,
    inbox,
    message_deliveries,
    outbound_queue,
    reachout_locks,
    reminder_deliveries,
    task_messages,
)
from taskcore.storage.schema import tasks as tasks_table
from taskcore.storage.sightings import first_sighting
from taskcore.storage.users import ensure_users
from tasksvc_run import units
from tests.builders import make_group, make_task
from tests.queries import claim_delivery

NOW = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)
TICK = timedelta(microseconds=1)


def queue_row(db: Database, name: str, status: str, at: datetime) -> None:
    with db.write() as conn:
        conn.execute(outbound_queue.insert().values(
            chat_id=name, kind="text", payload="{}", status=status, attempts=1, max_attempts=6, next_attempt_at=at,
            created_at=at, updated_at=at, sent_at=at if status == "sent" else None))


def linked_task(db: Database, name: str, *, completed_at: datetime | None) -> None:
    """A task with one bot message linked to it (``name``), open or completed at ``completed_at``."""
    task = make_task(db, group_id="1@g.us", description=name, now=NOW - timedelta(days=30))
    with db.write() as conn:
        conn.execute(task_messages.insert().values(message_id=name, task_id=task.id, chat_id="1@g.us",
                                                   created_at=NOW - timedelta(days=30)))
        if completed_at is not None:
            conn.execute(tasks_table.update().where(tasks_table.c.id == task.id).values(
                completed=True, completed_at=completed_at, completed_by="active"))


def inbox_row(db: Database, name: str, status: str, at: datetime) -> None:
    with db.write() as conn:
        conn.execute(inbox.insert().values(chat_key=name, payload="{}", status=status, received_at=at,
                                           done_at=None if status == "pending" else at))


def left(db: Database, column: object) -> set[str]:
    with db.read() as conn:
        return set(conn.execute(select(column)).scalars())  # type: ignore[call-overload]


def test_each_retention_deletes_what_is_older_and_keeps_its_boundary(db: Database) -> None:
    retention = timedelta(days=180)
    make_group(db, "1@g.us", members=("active",), inactive=("edge",), now=NOW - retention)
    make_group(db, "2@g.us", inactive=("old",), now=NOW - retention - TICK)
    for name, status, at in [("sent-edge", "sent", NOW - timedelta(days=7)),
                             ("sent-old", "sent", NOW - timedelta(days=7) - TICK),
                             ("failed-old", "failed", NOW - timedelta(days=400)),
                             ("pending-old", "pending", NOW - timedelta(days=400))]:
        queue_row(db, name, status, at)
    for name, status, at in [("done-edge", "done", NOW - timedelta(hours=48)),
                             ("done-old", "done", NOW - timedelta(hours=48) - TICK),
                             ("failed-edge", "failed", NOW - timedelta(days=30)),
                             ("failed-old", "failed", NOW - timedelta(days=30) - TICK),
                             ("pending-old", "pending", NOW - timedelta(days=400))]:
        inbox_row(db, name, status, at)
    with db.write() as conn:
        ensure_users(conn, ["u"], NOW)
        claim_delivery(conn, user_id="u", slot="edge", outcome="sent", now=NOW - timedelta(days=60))
        claim_delivery(conn, user_id="u", slot="old", outcome="sent", now=NOW - timedelta(days=60) - TICK)
    with db.write() as conn:
        first_sighting(conn, instance="taskbot", message_id="edge", now=NOW - timedelta(hours=48))
        first_sighting(conn, instance="taskbot", message_id="old", now=NOW - timedelta(hours=48) - TICK)
    units.run(db, web_auth.issue_login_token, user_id="u", now=NOW - timedelta(hours=1))
    units.run(db, web_auth.issue_login_token, user_id="v", now=NOW)  # another person: one live link each (SPEC 32)
    linked_task(db, "open", completed_at=None)
    linked_task(db, "done-edge", completed_at=NOW - timedelta(days=14))
    linked_task(db, "done-old", completed_at=NOW - timedelta(days=14) - TICK)
    with db.write() as conn:
        for name, at in (("edge", NOW - timedelta(days=7)), ("old", NOW - timedelta(days=7) - TICK)):
            conn.execute(message_deliveries.insert().values(message_id=name, chat_id="1@g.us", status="READ",
                                                            updated_at=at))
            conn.execute(reachout_locks.insert().values(message_id=name, user_id="u", locked_at=at))

    deleted = units.run(db, run_maintenance, now=NOW, member_retention_days=180, link_retention_days=14)

    assert deleted == {"links": 1, "members": 1, "auth": 1, "queue": 1, "deliveries": 1, "inbound": 1, "inbox": 2,
                       "statuses": 2}
    assert left(db, message_deliveries.c.message_id) == left(db, reachout_locks.c.message_id) == {"edge"}
    assert left(db, task_messages.c.message_id) == {"open", "done-edge"}
    assert left(db, inbox.c.chat_key) == {"done-edge", "failed-edge", "pending-old"}
    assert left(db, group_members.c.user_id) == {"active", "edge"}
    assert left(db, outbound_queue.c.chat_id) == {"sent-edge", "failed-old", "pending-old"}
    assert left(db, reminder_deliveries.c.slot) == {"edge"}
    assert left(db, inbound_messages.c.message_id) == {"edge"}


def test_maintenance_on_a_clean_database_deletes_nothing(db: Database) -> None:
    assert set(units.run(db, run_maintenance, now=NOW, member_retention_days=1).values()) == {0}
