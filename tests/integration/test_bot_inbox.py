"""The bot's webhook over the inbox (SPEC section 17): an acknowledged event is stored first (and handled in the same
transaction unless its chat has events pending), what an earlier process left is handled at start and in order,
events arriving together share a transaction, and a write lock held past the bound gets 503 with Retry-After, never
200 for an event not stored."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.services.conversation import road as chat_inbox
from taskcore.services.conversation.road import chat_key
from taskcore.services.inbox import NewEvent, inbox_stats
from taskcore.storage.db import Database
from taskcore.storage.schema import inbox
from tasksvc_run import keys, units
from tasksvc_run.bot import runner as runner_module
from tasksvc_run.bot.app import drain
from tests.builders import NOW, wa_text
from tests.chat_support import store_events, task_rows, texts
from tests.integration.bot_harness import running_bot
from tests.locks import write_lock_held


def inbox_rows(db: Database) -> list[tuple[str, str]]:
    """(status, the command's text after '/t nueva ') of every inbox row, in id order."""
    with db.read() as conn:
        rows = conn.execute(select(inbox.c.status, inbox.c.payload).order_by(inbox.c.id)).all()
    return [(status, json.loads(payload)["data"]["message"]["conversation"].removeprefix("/t nueva "))
            for status, payload in rows]


async def test_an_acknowledged_event_is_in_the_inbox_and_took_effect_before_the_answer(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        await bot.app[keys.PROCESSOR].close()  # nothing handles it later: the answer's own transaction did
        assert await bot.post(wa_text("/t nueva pan")) == (200, {"status": "accepted"})
        assert inbox_rows(sqlite_db) == [("done", "pan")]
        assert [t.description for t in task_rows(sqlite_db)] == ["pan"]
        assert len(texts(sqlite_db)) == 1


async def test_an_event_whose_chat_has_events_pending_waits_behind_them_and_other_chats_go_on(
    sqlite_db: Database
) -> None:
    left = wa_text("/t nueva primera", message_id="LEFT0")
    async with running_bot(sqlite_db) as bot:
        await bot.app[keys.PROCESSOR].close()
        store_events(sqlite_db, [NewEvent(chat_key(parse_event(left)), "messages.upsert", None, json.dumps(left))],
                     now=NOW)  # pending, as another instance or an earlier process leaves it
        assert (await bot.post(wa_text("/t nueva segunda", message_id="NEXT")))[0] == 200
        assert (await bot.post(wa_text("/t nueva otra", group="2@g.us", message_id="OTHER")))[0] == 200
        assert inbox_rows(sqlite_db) == [("pending", "primera"), ("pending", "segunda"), ("done", "otra")]
        assert [t.description for t in task_rows(sqlite_db)] == ["otra"]
    async with running_bot(sqlite_db) as bot:  # the next start handles the chat's events in their order
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["otra", "primera", "segunda"]
    assert units.look(sqlite_db, inbox_stats) == {"pending": 0, "failed": 0}


async def test_an_event_that_breaks_the_code_is_acknowledged_and_kept_as_failed_while_the_others_take_effect(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = chat_inbox.handle

    def breaks_on_boom(db: Database, policy: Any, event: Any, moment: Any, **kwargs: Any) -> Any:
        if "boom" in json.dumps(getattr(event, "text", "")):
            raise RuntimeError("a bug")
        return real(db, policy, event, moment, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chat_inbox, "handle", breaks_on_boom)
    async with running_bot(sqlite_db, {"RATE_LIMIT_PER_MIN": "1000"}) as bot:
        answers = await asyncio.gather(*(bot.post(wa_text(f"/t nueva {word}", group=f"{n}@g.us", message_id=f"B{n}"))
                                         for n, word in enumerate(["uno", "boom", "dos"])))
        assert [status for status, _ in answers] == [200, 200, 200]
        await drain(bot.app, 10.0)
        bot.failures.records.clear()  # the broken event is logged as failed: expected here
    assert sorted(t.description for t in task_rows(sqlite_db)) == ["dos", "uno"]
    assert units.look(sqlite_db, inbox_stats) == {"pending": 0, "failed": 1}


async def test_an_ignored_event_is_acknowledged_and_not_stored(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert (await bot.post(wa_text("hola", from_me=True)))[0] == 200
        assert units.look(sqlite_db, inbox_stats)["pending"] == 0


async def test_what_an_earlier_process_left_in_the_inbox_is_handled_at_start_each_once(sqlite_db: Database) -> None:
    bodies = [wa_text(f"/t nueva tarea {i}", message_id=f"LEFT{i}") for i in range(3)]
    events = [NewEvent(chat_key(parse_event(b)), "messages.upsert", None, json.dumps(b)) for b in bodies]
    store_events(sqlite_db, events, now=NOW)
    async with running_bot(sqlite_db) as bot:
        await bot.settle()
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["tarea 0", "tarea 1", "tarea 2"]
    assert len(texts(sqlite_db)) == 3
    assert units.look(sqlite_db, inbox_stats)["pending"] == 0


async def test_events_arriving_together_are_stored_and_handled_in_fewer_transactions_than_events(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    groups: list[int] = []
    real = runner_module.handle_arrived

    def counted(db: Database, policy: Any, events: Sequence[Any], **kwargs: Any) -> Any:
        groups.append(len(events))
        time.sleep(0.01)  # a slow disk: the events behind wait for the next commit, together
        return real(db, policy, events, **kwargs)

    monkeypatch.setattr(runner_module, "handle_arrived", counted)
    async with running_bot(sqlite_db, {"RATE_LIMIT_PER_MIN": "1000"}) as bot:
        answers = await asyncio.gather(*(bot.post(wa_text(f"/t nueva {i}", group=f"{i}@g.us", message_id=f"G{i}"))
                                         for i in range(30)))
        assert {status for status, _ in answers} == {200}
        assert len(task_rows(sqlite_db)) == 30  # each answered after its transaction: every task is there already
        await bot.settle()
    assert sum(groups) == 30
    assert len(groups) < 30
    assert units.look(sqlite_db, inbox_stats)["pending"] == 0


async def test_a_write_lock_held_past_the_bound_gets_503_with_retry_after_and_nothing_is_stored(
    sqlite_db: Database
) -> None:
    async with running_bot(sqlite_db, {"WEBHOOK_STORE_TIMEOUT_MS": "200"}) as bot:
        with write_lock_held(sqlite_db):
            answer = await bot.client.post("/webhook", json=wa_text("/t nueva pan"))
            assert (answer.status, answer.headers.get("Retry-After")) == (503, "5")
        assert units.look(sqlite_db, inbox_stats)["pending"] == 0
        status, _ = await bot.post(wa_text("/t nueva pan"))  # the gateway's retry, once the lock is gone
        assert status == 200
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["pan"]


async def test_a_write_lock_released_within_the_bound_gets_200_once_the_event_is_stored(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"WEBHOOK_STORE_TIMEOUT_MS": "5000"}) as bot:
        with write_lock_held(sqlite_db) as release:
            posting = asyncio.create_task(bot.post(wa_text("/t nueva pan")))
            await asyncio.sleep(0.3)
            assert not posting.done()  # waiting for the lock, not answered before the row is stored
            release.set()
            assert (await asyncio.wait_for(posting, 5))[0] == 200
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["pan"]


async def test_metrics_show_the_events_waiting_in_the_inbox_and_those_that_failed(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "true"}) as bot:
        await bot.app[keys.PROCESSOR].close()
        left = wa_text("/t nueva pan", message_id="LEFT")
        store_events(sqlite_db, [NewEvent(chat_key(parse_event(left)), "messages.upsert", None, json.dumps(left))],
                     now=NOW)  # stored by another instance, or left pending: nothing handles it here
        exposition = await (await bot.client.get("/metrics")).text()
    assert "webhook_inbox_depth 1.0" in exposition
    assert "webhook_inbox_failed 0.0" in exposition
