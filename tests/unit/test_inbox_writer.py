"""The webhook's group commit: events put together are stored together, each answer waits for its commit, and an
event the database does not take within the bound is refused (NotStored), never acknowledged."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy.exc import OperationalError

from taskcore.services.conversation.road import Arrived
from taskcore.services.inbox import NewEvent
from tasksvc_run.bot.inbox_writer import InboxWriter, NotStored


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as executor:
        yield executor


def new(n: int) -> NewEvent:
    return NewEvent(f"chat{n}", "messages.upsert", None, "{}")


class Store:
    def __init__(self) -> None:
        self.groups: list[list[str]] = []
        self.waits: list[int] = []
        self.gate = threading.Event()
        self.gate.set()
        self.error: Exception | None = None

    def __call__(self, events: Sequence[NewEvent], wait_ms: int) -> Arrived:
        self.gate.wait(5)
        if self.error is not None:
            raise self.error
        self.groups.append([e.chat_key for e in events])
        self.waits.append(wait_ms)
        start = sum(len(g) for g in self.groups[:-1])
        return Arrived(list(range(start + 1, start + 1 + len(events))), [], len(events))


async def test_events_put_while_a_store_runs_go_together_in_the_next_one(pool: ThreadPoolExecutor) -> None:
    store = Store()
    stored: list[int] = []
    writer = InboxWriter(store, pool, bound=5.0, on_stored=stored.append)
    store.gate.clear()
    first = asyncio.create_task(writer.put(new(0)))
    await asyncio.sleep(0.05)
    rest = [asyncio.create_task(writer.put(new(n))) for n in range(1, 5)]
    await asyncio.sleep(0.05)
    store.gate.set()
    assert [await first, *[await r for r in rest]] == [1, 2, 3, 4, 5]
    assert store.groups == [["chat0"], ["chat1", "chat2", "chat3", "chat4"]]
    assert stored == [1, 4]
    assert all(0 < wait <= 5000 for wait in store.waits)


async def test_an_event_the_database_does_not_take_is_not_stored_and_the_outage_is_said_once(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store()
    store.error = OperationalError("BEGIN", {}, sqlite3.OperationalError("database is locked"))
    writer = InboxWriter(store, pool, bound=0.5)
    for n in range(3):
        with pytest.raises(NotStored):
            await writer.put(new(n))
    store.error = None
    assert await writer.put(new(9)) == 1
    messages = [r.getMessage() for r in caplog.records]
    assert sum("database unavailable" in m for m in messages) == 1
    assert sum("database available again" in m for m in messages) == 1


async def test_an_event_that_waited_past_its_bound_before_the_store_began_is_refused(
    pool: ThreadPoolExecutor,
) -> None:
    store = Store()
    blocker = threading.Event()
    pool.submit(blocker.wait, 5)  # the worker thread is busy (a batch waiting for a lock held elsewhere)
    writer = InboxWriter(store, pool, bound=0.1)
    putting = asyncio.create_task(writer.put(new(0)))
    await asyncio.sleep(0.3)
    blocker.set()
    with pytest.raises(NotStored):
        await putting
    assert store.groups == []


async def test_a_closed_writer_refuses_new_events(pool: ThreadPoolExecutor) -> None:
    writer = InboxWriter(Store(), pool, bound=1.0)
    await writer.close()
    with pytest.raises(NotStored):
        await writer.put(new(0))


async def test_a_bug_in_the_store_is_logged_with_its_traceback_and_refused(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store()
    store.error = RuntimeError("a bug")
    writer = InboxWriter(store, pool, bound=1.0)
    with pytest.raises(NotStored):
        await writer.put(new(0))
    assert any(r.exc_info for r in caplog.records if "could not be stored" in r.getMessage())
