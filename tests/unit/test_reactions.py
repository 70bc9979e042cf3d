"""Reactions (seed section 6, SPEC section 5): scope, TTL, once per task, counted by emoji class."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.model import Origin
from taskcore.reactions import CHECK, ROBOT, ReactionPolicy
from taskcore.services import tasks as svc
from taskcore.services.counters import read_counters
from taskcore.services.reactions import enqueue_reaction, react_to_completion
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group

GROUP, DM = "100@g.us", "34600111222@s.whatsapp.net"
ON = ReactionPolicy(enabled=True, scope="groups", ttl_days=14, max_attempts=3)


def origin(chat: str = GROUP, age: timedelta = timedelta(days=1)) -> Origin:
    return Origin(chat_id=chat, message_id="3A5F0C2E9B41D7A8C6E1", participant="198765432100001@lid",
                  sent_at=NOW - age)


def queued(db: Database) -> list[dict[str, object]]:
    with db.read() as conn:
        rows = conn.execute(select(schema.outbound_queue).order_by(schema.outbound_queue.c.id)).mappings().all()
    return [{**row, "payload": json.loads(row["payload"])} for row in rows]


def test_reactions_are_off_by_default() -> None:
    assert not ReactionPolicy().in_scope(GROUP)


def test_scope_groups_excludes_direct_messages_and_all_includes_them() -> None:
    assert ON.in_scope(GROUP)
    assert not ON.in_scope(DM)
    assert ReactionPolicy(enabled=True, scope="all").in_scope(DM)


def test_the_check_mark_needs_an_origin_younger_than_the_ttl() -> None:
    assert ON.check_allowed(origin(age=timedelta(days=14)), NOW)
    assert not ON.check_allowed(origin(age=timedelta(days=14, seconds=1)), NOW)
    assert not ON.check_allowed(None, NOW)


def test_a_queued_reaction_carries_the_participant_as_received_and_is_counted(db: Database) -> None:
    with db.write() as conn:
        assert enqueue_reaction(conn, ON, chat_id=GROUP, message_id="M1", participant="198765432100001@lid",
                                emoji=ROBOT, now=NOW)
    (row,) = queued(db)
    assert row["kind"] == "reaction"
    assert row["max_attempts"] == 3
    assert row["payload"] == {"chat": GROUP, "message_id": "M1", "emoji": ROBOT,
                              "participant": "198765432100001@lid", "from_me": False}
    assert units.look(db, read_counters)[("reactions_enqueued", "robot")] == 1


def test_no_reaction_is_queued_outside_the_scope(db: Database) -> None:
    with db.write() as conn:
        assert not enqueue_reaction(conn, ON, chat_id=DM, message_id="M1", participant=None, emoji=ROBOT, now=NOW)
    assert queued(db) == []


def test_completing_a_task_queues_one_check_on_its_origin_message(db: Database) -> None:
    make_group(db, GROUP, members=("111",))
    task = units.run(db, svc.create_task, creator="111", description="Pan", group_id=GROUP, origin=origin(), now=NOW)
    first = units.run(db, svc.complete_task, GatingMode.OFF, user_id="111", task_id=task.id, now=NOW)
    again = units.run(db, svc.complete_task, GatingMode.OFF, user_id="111", task_id=task.id, now=NOW)
    assert units.run(db, react_to_completion, ON, first, now=NOW)
    assert not units.run(db, react_to_completion, ON, again, now=NOW)
    assert not units.run(db, react_to_completion, ON, first, now=NOW)  # the dedupe key keeps it to one per task
    (row,) = queued(db)
    assert row["payload"]["emoji"] == CHECK
    assert row["payload"]["message_id"] == "3A5F0C2E9B41D7A8C6E1"
    assert units.look(db, read_counters)[("reactions_enqueued", "check")] == 1


def test_a_task_from_an_old_message_gets_no_check(db: Database) -> None:
    make_group(db, GROUP, members=("111",))
    old = origin(age=timedelta(days=30))
    task = units.run(db, svc.create_task, creator="111", description="Pan", group_id=GROUP, origin=old, now=NOW)
    done = units.run(db, svc.complete_task, GatingMode.OFF, user_id="111", task_id=task.id, now=NOW)
    assert not units.run(db, react_to_completion, ON, done, now=NOW)
    assert queued(db) == []
