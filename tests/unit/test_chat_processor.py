"""The inbox processor: batches claimed in a worker thread until nothing is pending, woken by the webhook, retried
while the database cannot take them, stopped by a schema error, and closed within its bound."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy.exc import OperationalError

from taskcore.errors import SchemaError
from tasksvc_run.bot.processor import InboxProcessor
from tasksvc_run.outage import FatalStop


class Inbox:
    """Pending events in memory; a batch takes up to ``size`` of them. ``down`` makes batches fail as a full disk
    does; ``hold`` keeps the next batch waiting until set."""

    def __init__(self, *events: str, size: int = 2) -> None:
        self.pending = list(events)
        self.size = size
        self.batches: list[list[str]] = []
        self.calls = 0
        self.down: Exception | None = None
        self.hold = threading.Event()
        self.hold.set()

    def add(self, *events: str) -> None:
        self.pending.extend(events)

    def __call__(self) -> list[str]:
        self.calls += 1
        self.hold.wait(5)
        if self.down is not None:
            raise self.down
        batch, self.pending = self.pending[:self.size], self.pending[self.size:]
        if batch:
            self.batches.append(batch)
        return batch


def disk_full() -> OperationalError:
    return OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))


def io_error() -> OperationalError:
    """A passing outage of the loop's own (a full or read-only store is the process's news: store_health.py)."""
    return OperationalError("INSERT", {}, sqlite3.OperationalError("disk I/O error"))


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as executor:
        yield executor


async def test_what_is_pending_at_start_is_handled_at_once_in_batches_until_nothing_is_left(
    pool: ThreadPoolExecutor
) -> None:
    inbox = Inbox("a1", "b1", "a2", size=2)
    seen: list[str] = []
    processor = InboxProcessor(inbox, pool, batch_size=inbox.size, on_handled=seen.append, poll_interval=60)
    processor.start()
    await processor.drain(5)
    assert inbox.batches == [["a1", "b1"], ["a2"]]
    assert seen == ["a1", "b1", "a2"]
    await processor.close()


async def test_a_store_wakes_the_processor_without_waiting_for_the_poll(pool: ThreadPoolExecutor) -> None:
    inbox = Inbox()
    processor: InboxProcessor[str] = InboxProcessor(inbox, pool, batch_size=inbox.size, poll_interval=60)
    processor.start()
    await processor.drain(5)
    inbox.add("a1")
    processor.notify()
    assert processor.backlog == 1
    await processor.drain(5)  # far less than the 60 s poll
    assert inbox.batches == [["a1"]]
    assert processor.backlog == 0
    await processor.close()


async def test_rows_stored_elsewhere_are_found_by_the_poll(pool: ThreadPoolExecutor) -> None:
    inbox = Inbox()
    processor: InboxProcessor[str] = InboxProcessor(inbox, pool, batch_size=inbox.size, poll_interval=0.05)
    processor.start()
    inbox.add("left by another instance")
    for _ in range(200):
        if inbox.batches:
            break
        await asyncio.sleep(0.01)
    assert inbox.batches == [["left by another instance"]]
    await processor.close()


async def test_a_batch_the_database_cannot_take_is_tried_again_and_the_outage_is_logged_once_each_way(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    inbox = Inbox("a1")
    inbox.down = io_error()
    processor: InboxProcessor[str] = InboxProcessor(inbox, pool, batch_size=inbox.size, retry_delays=(0.01,),
                                                    poll_interval=60)
    processor.start()
    for _ in range(500):
        if inbox.calls >= 4:
            break
        await asyncio.sleep(0.01)
    assert inbox.batches == []
    inbox.down = None
    processor.notify(0)
    await processor.drain(5)
    assert inbox.batches == [["a1"]]
    messages = [r.getMessage() for r in caplog.records]
    assert sum("database unavailable" in m for m in messages) == 1
    assert sum("database available again" in m for m in messages) == 1
    await processor.close()


async def test_a_schema_error_stops_the_processor_and_the_process_once(pool: ThreadPoolExecutor) -> None:
    inbox = Inbox("a1")
    inbox.down = SchemaError("no such table: inbox")
    stops: list[str] = []
    processor: InboxProcessor[str] = InboxProcessor(inbox, pool, batch_size=inbox.size,
                                                    fatal=FatalStop(lambda: stops.append("stop")),
                                                    retry_delays=(0.01,))
    processor.start()
    with pytest.raises(TimeoutError):
        await processor.drain(5)
    await asyncio.sleep(0.05)
    assert stops == ["stop"]
    assert not processor.running
    assert inbox.calls == 1
    await processor.close()


async def test_closing_lets_the_batch_under_way_finish_and_leaves_the_rest_pending(pool: ThreadPoolExecutor) -> None:
    inbox = Inbox("a1", "a2", "a3", size=1)
    inbox.hold.clear()
    processor: InboxProcessor[str] = InboxProcessor(inbox, pool, batch_size=inbox.size, poll_interval=60)
    processor.start()
    for _ in range(200):
        if inbox.calls:
            break
        await asyncio.sleep(0.01)
    closing = asyncio.create_task(processor.close(5))
    await asyncio.sleep(0.05)
    inbox.hold.set()
    await closing
    assert inbox.batches == [["a1"]]
    assert inbox.pending == ["a2", "a3"]  # left in the inbox for the next start


async def test_a_follow_up_that_breaks_is_logged_and_the_processor_goes_on(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    inbox = Inbox("a1", "a2", size=1)

    def follow_up(item: str) -> None:
        if item == "a1":
            raise RuntimeError("metrics broke")

    processor = InboxProcessor(inbox, pool, batch_size=inbox.size, on_handled=follow_up, poll_interval=60)
    processor.start()
    await processor.drain(5)
    assert inbox.batches == [["a1"], ["a2"]]
    assert any("follow-up failed" in r.getMessage() for r in caplog.records)
    await processor.close()


async def test_a_write_lock_busy_for_a_moment_is_retried_without_a_log_line(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    inbox = Inbox("a1")
    inbox.down = OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))
    processor: InboxProcessor[str] = InboxProcessor(inbox, pool, batch_size=inbox.size, retry_delays=(0.01,),
                                                    poll_interval=60)
    processor.start()
    for _ in range(500):
        if inbox.calls >= 3:
            break
        await asyncio.sleep(0.01)
    inbox.down = None
    processor.notify(0)
    await processor.drain(5)
    assert inbox.batches == [["a1"]]
    assert not [r for r in caplog.records if "database" in r.getMessage()]
    await processor.close()
