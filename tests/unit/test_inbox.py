"""The inbox (SPEC section 17): stored events are handled once, in order per chat, and marked done in the
transaction of their effects; a failure that waiting can cure leaves them pending with no effect; a bug leaves the
event failed and its chat goes on."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from taskcore.chat import Moment
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.services.conversation import tasks as chat_tasks
from taskcore.services.conversation.road import handle_inbox
from taskcore.services.inbox import InboxRow, NewEvent, inbox_stats
from taskcore.storage import inbox as store
from taskcore.storage import migrator
from taskcore.storage.db import Database, is_busy_error
from taskcore.storage.schema import inbox
from tasksvc_run import units
from tests.builders import NOW, wa_text
from tests.chat_support import CODECS, policy, store_events, task_rows, texts
from tests.locks import write_lock_held


def moment(_row: InboxRow) -> Moment:
    return Moment(NOW)


def put(db: Database, *payloads: dict[str, Any], key: str | None = None) -> list[int]:
    events = [NewEvent(key or str(p["data"]["key"]["remoteJid"]), "messages.upsert", None, json.dumps(p))  # type: ignore[index]
              for p in payloads]
    return store_events(db, events, now=NOW)


def statuses(db: Database) -> list[tuple[str, str]]:
    with db.read() as conn:
        return [(r.chat_key, r.status) for r in conn.execute(select(inbox.c.chat_key, inbox.c.status)
                                                              .order_by(inbox.c.id))]


def test_stored_events_are_handled_in_their_order_and_marked_done(db: Database) -> None:
    put(db, *(wa_text(f"/t nueva tarea {i}", message_id=f"M{i}") for i in range(3)))
    handled = handle_inbox(db, policy(), moment, codecs=CODECS, limit=32)
    assert [h.result.outcome for h in handled] == ["nueva done"] * 3  # type: ignore[union-attr]
    assert [t.description for t in task_rows(db)] == ["tarea 0", "tarea 1", "tarea 2"]
    assert {status for _, status in statuses(db)} == {"done"}
    assert handle_inbox(db, policy(), moment, codecs=CODECS, limit=32) == []  # nothing is handled twice
    assert len(texts(db)) == 3


def test_a_batch_takes_at_most_its_limit_and_the_next_one_goes_on_from_there(db: Database) -> None:
    put(db, *(wa_text(f"/t nueva tarea {i}", message_id=f"M{i}") for i in range(5)))
    assert len(handle_inbox(db, policy(), moment, codecs=CODECS, limit=2)) == 2
    assert units.look(db, inbox_stats) == {"pending": 3, "failed": 0}
    assert len(handle_inbox(db, policy(), moment, codecs=CODECS, limit=32)) == 3
    assert [t.description for t in task_rows(db)] == [f"tarea {i}" for i in range(5)]


def test_when_the_database_cannot_take_the_work_every_claimed_event_stays_pending_without_effects(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(db, wa_text("/t nueva pan", message_id="A"), wa_text("/t nueva sal", message_id="B", group="2@g.us"))
    full = OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))
    create = chat_tasks.tasks.create_task

    def breaking(conn_db: Any, **kwargs: Any) -> Any:
        if kwargs["description"] == "sal":
            raise full
        return create(conn_db, **kwargs)

    monkeypatch.setattr(chat_tasks.tasks, "create_task", breaking)
    with pytest.raises(OperationalError):
        handle_inbox(db, policy(), moment, codecs=CODECS, limit=32)
    assert task_rows(db) == []  # "pan" was rolled back with the rest: it is handled again, once, below
    assert units.look(db, inbox_stats)["pending"] == 2
    monkeypatch.undo()
    assert len(handle_inbox(db, policy(), moment, codecs=CODECS, limit=32)) == 2
    assert [t.description for t in task_rows(db)] == ["pan", "sal"]


def test_an_event_that_breaks_the_code_is_kept_as_failed_and_its_chat_goes_on(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(db, wa_text("/t nueva pan", message_id="A"), wa_text("/t nueva boom", message_id="B"),
        wa_text("/t nueva sal", message_id="C"))
    create = chat_tasks.tasks.create_task

    def breaking(conn_db: Any, **kwargs: Any) -> Any:
        if kwargs["description"] == "boom":
            raise RuntimeError("a bug")
        return create(conn_db, **kwargs)

    monkeypatch.setattr(chat_tasks.tasks, "create_task", breaking)
    handled = handle_inbox(db, policy(), moment, codecs=CODECS, limit=32)
    assert [type(h.result).__name__ for h in handled] == ["ChatResult", "RuntimeError", "ChatResult"]
    assert [t.description for t in task_rows(db)] == ["pan", "sal"]
    assert [s for _, s in statuses(db)] == ["done", "failed", "done"]
    with db.read() as conn:
        assert conn.execute(select(inbox.c.last_error).where(inbox.c.status == "failed")).scalar_one() == \
            "RuntimeError: a bug"
    assert units.look(db, inbox_stats) == {"pending": 0, "failed": 1}


def test_an_event_left_by_an_earlier_process_is_parsed_from_its_stored_body(db: Database) -> None:
    body = wa_text("/t nueva pan", message_id="A")
    [row_id] = put(db, body)
    parsed = parse_event(body)
    handled = handle_inbox(db, policy(), moment, codecs=CODECS, limit=32, parsed={})
    assert [h.event for h in handled] == [parsed]
    assert handled[0].row.id == row_id


def test_an_event_parsed_when_it_arrived_is_not_parsed_again(db: Database) -> None:
    [row_id] = put(db, wa_text("/t nueva pan", message_id="A"))
    known = parse_event(wa_text("/t nueva otra cosa", message_id="Z"))
    handle_inbox(db, policy(), moment, codecs=CODECS, limit=32, parsed={row_id: known})
    assert [t.description for t in task_rows(db)] == ["otra cosa"]


def test_a_stored_body_that_is_not_an_object_is_ignored_and_done(db: Database) -> None:
    store_events(db, [NewEvent("k", None, None, "[1, 2]"), NewEvent("k", None, None, "{not json")], now=NOW)
    handled = handle_inbox(db, policy(), moment, codecs=CODECS, limit=32)
    assert [h.result.outcome for h in handled] == ["ignored: malformed envelope"] * 2  # type: ignore[union-attr]
    assert units.look(db, inbox_stats) == {"pending": 0, "failed": 0}


def test_storing_waits_at_most_its_bound_for_a_write_lock_held_elsewhere(sqlite_db: Database, tmp_path: Any) -> None:
    with write_lock_held(sqlite_db):
        started = time.monotonic()
        with pytest.raises(OperationalError) as refused:
            store_events(sqlite_db, [NewEvent("k", None, None, "{}")], now=NOW, wait_ms=100)
        waited = time.monotonic() - started
    assert is_busy_error(refused.value)
    assert waited < 4.0  # bounded by wait_ms, far below the 5 s busy timeout of other writes
    assert units.look(sqlite_db, inbox_stats)["pending"] == 0  # nothing half stored
    store_events(sqlite_db, [NewEvent("k", None, None, "{}")], now=NOW, wait_ms=100)  # the bound is not sticky
    with sqlite_db.read() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 5000


def test_on_postgresql_a_chat_whose_earlier_event_another_processor_holds_waits_for_it(pg_schema: str) -> None:
    db = Database.from_url(pg_schema)
    migrator.migrate(db)
    put(db, wa_text("a1", message_id="1"), key="a")
    put(db, wa_text("b1", message_id="2"), key="b")
    put(db, wa_text("a2", message_id="3"), key="a")
    with db.write() as first:
        mine = store.claim_pending(first, limit=1)
        assert [r.chat_key for r in mine] == ["a"]
        with db.write() as second:
            assert [r.chat_key for r in store.claim_pending(second, limit=32)] == ["b"]  # a2 waits behind a1
    db.dispose()
