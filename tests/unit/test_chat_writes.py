"""A message writes only what it changes: the sender, the membership and the group are read in one statement first,
and a sender seen a moment ago under the same name costs no write (SPEC sections 3 and 5; PERFORMANCE.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, select

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import SEEN_RESOLUTION
from tests.builders import GROUP, NOW, wa_text
from tests.chat_support import member, run, task_rows, texts

ANA = "34600111111"


def user_row(db: Database, user_id: str = ANA) -> Any:
    with db.read() as conn:
        return conn.execute(select(schema.users).where(schema.users.c.id == user_id)).one()


@contextmanager
def statements(db: Database) -> Iterator[list[str]]:
    """Every SQL statement SQLite runs meanwhile, on any connection of ``db`` (prepared ones included)."""
    seen: list[str] = []

    def trace(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.set_trace_callback(seen.append)

    db.engine.dispose()  # new connections, so each gets the trace callback
    event.listen(db.engine, "connect", trace)
    try:
        yield seen
    finally:
        event.remove(db.engine, "connect", trace)
        db.engine.dispose()


def test_a_sender_seen_a_moment_ago_under_the_same_name_is_not_written_again(db: Database) -> None:
    run(db, wa_text("hola"), now=NOW)
    run(db, wa_text("otra vez"), now=NOW + SEEN_RESOLUTION - timedelta(seconds=1))
    assert user_row(db).last_seen_at == NOW
    assert member(db, GROUP, ANA).last_seen_at == NOW


def test_a_sender_seen_again_later_has_the_time_recorded(db: Database) -> None:
    run(db, wa_text("hola"), now=NOW)
    later = NOW + SEEN_RESOLUTION
    run(db, wa_text("otra vez"), now=later)
    assert user_row(db).last_seen_at == later
    assert member(db, GROUP, ANA).last_seen_at == later


def test_a_new_name_is_recorded_at_once(db: Database) -> None:
    run(db, wa_text("hola", push_name="Ana"), now=NOW)
    soon = NOW + timedelta(seconds=5)
    run(db, wa_text("hola", push_name="Ana María"), now=soon)
    assert (user_row(db).display_name, user_row(db).last_seen_at) == ("Ana María", soon)


def test_a_message_without_a_name_keeps_the_known_one(db: Database) -> None:
    run(db, wa_text("hola", push_name="Ana"), now=NOW)
    run(db, wa_text("hola", push_name=None), now=NOW + timedelta(hours=1))
    assert user_row(db).display_name == "Ana"


def test_a_member_who_left_and_writes_again_is_active_at_once(db: Database) -> None:
    run(db, wa_text("hola"), now=NOW)
    with db.write() as conn:
        conn.execute(schema.group_members.update().values(active=False, inactive_since=NOW))
    run(db, wa_text("he vuelto"), now=NOW + timedelta(seconds=5))
    row = member(db, GROUP, ANA)
    assert (row.active, row.inactive_since) == (True, None)


@pytest.mark.parametrize("text", ["/t nueva pan", "/t nueva pan mañana"])
def test_a_known_member_creating_a_task_costs_four_statements_beside_the_inbox_s_two(
    sqlite_db: Database, text: str
) -> None:
    run(sqlite_db, wa_text("hola"), now=NOW)
    with sqlite_db.write() as conn:  # a member whose zone a reply named already (SPEC section 30: once)
        conn.execute(schema.user_preferences.insert().values(user_id=ANA, freq="off", time="08:30", updated_at=NOW,
                                                             zone_told_at=NOW))
    with statements(sqlite_db) as seen:
        run(sqlite_db, wa_text(text), now=NOW + timedelta(seconds=5))
    # SQLite traces the statement again as it enters each trigger it fires (migration 0019's list stamps): the
    # same text twice in a row is one statement.
    ran = [text for text, before in zip(seen, [None, *seen], strict=False) if text != before]
    work = [s.split()[0:3] for s in ran if not s.startswith(("BEGIN", "COMMIT", "PRAGMA"))]
    assert work == [["SELECT", "EXISTS", "(SELECT"],  # the inbox: has the chat events pending?
                    ["INSERT", "INTO", "inbound_messages"], ["SELECT", "who.id,", "who.alias_target,"],
                    ["INSERT", "INTO", "tasks"], ["INSERT", "INTO", "outbound_queue"],
                    ["INSERT", "INTO", "inbox"]]  # the event's row, written done
    assert [t.description for t in task_rows(sqlite_db)] == ["pan"]
    assert texts(sqlite_db)[-1].endswith("Tarea #1 creada: pan" + (" (vence 23/11)" if "mañana" in text else "")
                                          + ". Sin asignar")
