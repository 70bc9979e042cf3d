"""The bot's webhook over the inbox (SPEC section 17): an acknowledged event is stored first, what an earlier process
left is handled at start, events arriving together share a transaction, and a write lock held past the bound
gets 503 with Retry-After, never 200 for an event not stored."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

import pytest

from taskcore.gateway.inbound import chat_key, parse_event
from taskcore.services import inbox as inbox_service
from taskcore.services.inbox import NewEvent, inbox_stats, store_events
from taskcore.storage.db import Database
from tasksvc_run import keys
from tests.builders import NOW, wa_text
from tests.chat_support import task_rows, texts
from tests.integration.bot_harness import running_bot
from tests.locks import write_lock_held


async def test_an_acknowledged_event_is_in_the_inbox_before_the_answer(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        await bot.app[keys.PROCESSOR].close()  # nothing handles it: what the answer promises is the stored row
        assert await bot.post(wa_text("/t nueva pan")) == (200, {"status": "accepted"})
        assert inbox_stats(sqlite_db) == {"pending": 1, "failed": 0}
        assert task_rows(sqlite_db) == []


async def test_an_ignored_event_is_acknowledged_and_not_stored(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert (await bot.post(wa_text("hola", from_me=True)))[0] == 200
        assert inbox_stats(sqlite_db)["pending"] == 0


async def test_what_an_earlier_process_left_in_the_inbox_is_handled_at_start_each_once(sqlite_db: Database) -> None:
    bodies = [wa_text(f"/t nueva tarea {i}", message_id=f"LEFT{i}") for i in range(3)]
    events = [NewEvent(chat_key(parse_event(b)), "messages.upsert", None, json.dumps(b)) for b in bodies]
    store_events(sqlite_db, events, now=NOW)
    async with running_bot(sqlite_db) as bot:
        await bot.settle()
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["tarea 0", "tarea 1", "tarea 2"]
    assert len(texts(sqlite_db)) == 3
    assert inbox_stats(sqlite_db)["pending"] == 0


async def test_events_arriving_together_are_stored_in_fewer_transactions_than_events(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    groups: list[int] = []
    real = inbox_service.store_events

    def counted(db: Database, events: Sequence[NewEvent], **kwargs: Any) -> list[int]:
        groups.append(len(events))
        time.sleep(0.01)  # a slow disk: the events behind wait for the next commit, together
        return real(db, events, **kwargs)

    monkeypatch.setattr("tasksvc_run.bot.webhook.store_events", counted)
    async with running_bot(sqlite_db, {"RATE_LIMIT_PER_MIN": "1000"}) as bot:
        answers = await asyncio.gather(*(bot.post(wa_text(f"/t nueva {i}", group=f"{i}@g.us", message_id=f"G{i}"))
                                         for i in range(30)))
        await bot.settle()
    assert {status for status, _ in answers} == {200}
    assert sum(groups) == 30
    assert len(groups) < 30
    assert len(task_rows(sqlite_db)) == 30


async def test_a_write_lock_held_past_the_bound_gets_503_with_retry_after_and_nothing_is_stored(
    sqlite_db: Database
) -> None:
    async with running_bot(sqlite_db, {"WEBHOOK_STORE_TIMEOUT_MS": "200"}) as bot:
        with write_lock_held(sqlite_db):
            answer = await bot.client.post("/webhook", json=wa_text("/t nueva pan"))
            assert (answer.status, answer.headers.get("Retry-After")) == (503, "5")
        assert inbox_stats(sqlite_db)["pending"] == 0
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
        await bot.post(wa_text("/t nueva pan"))
        exposition = await (await bot.client.get("/metrics")).text()
    assert "webhook_inbox_depth 1.0" in exposition
    assert "webhook_inbox_failed 0.0" in exposition
