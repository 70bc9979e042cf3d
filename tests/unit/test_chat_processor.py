"""The webhook's processor: events handled in batches in a worker thread, in order within a chat, bounded."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tasksvc_run.bot.processor import ChatProcessor


class Recorder:
    """A run_batch that records each batch; ``hold`` keeps the next batch waiting until released."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.hold = threading.Event()
        self.hold.set()
        self.started: list[str] = []
        self.running = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def __call__(self, events: list[str]) -> list[str | Exception]:
        with self._lock:
            self.started.extend(events)
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        self.hold.wait(5)
        with self._lock:
            self.batches.append(events)
            self.running -= 1
        return [ValueError(e) if e.startswith("bad") else e.upper() for e in events]


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=2) as executor:
        yield executor


async def test_events_that_wait_together_go_in_one_batch_each_chat_in_its_order(pool: ThreadPoolExecutor) -> None:
    run = Recorder()
    seen: list[str] = []
    processor = ChatProcessor(run, pool, on_result=seen.append)
    run.hold.clear()
    processor.submit("a", "a1")
    await asyncio.sleep(0.05)  # a1 is being handled; the rest wait for it
    for key, event in [("a", "a2"), ("b", "b1"), ("a", "a3"), ("c", "c1"), ("b", "b2")]:
        assert processor.submit(key, event)
    run.hold.set()
    await processor.drain(5)
    first, second = run.batches
    assert (first, sorted(second)) == (["a1"], ["a2", "a3", "b1", "b2", "c1"])
    for chat in "abc":
        assert [e for e in second if e.startswith(chat)] == sorted(e for e in second if e.startswith(chat))
    assert sorted(seen) == ["A1", "A2", "A3", "B1", "B2", "C1"]


async def test_an_idle_processor_starts_at_once_and_a_batch_holds_at_most_max_batch_events(
    pool: ThreadPoolExecutor,
) -> None:
    run = Recorder()
    processor = ChatProcessor(run, pool, max_batch=2)
    run.hold.clear()
    for i in range(6):
        processor.submit(f"chat{i}", f"e{i}")
    run.hold.set()
    await processor.drain(5)
    assert run.batches == [["e0"], ["e1", "e2"], ["e3", "e4"], ["e5"]]


async def test_a_chat_is_never_in_two_batches_at_once(pool: ThreadPoolExecutor) -> None:
    run = Recorder()
    processor = ChatProcessor(run, pool, parallel=2)
    run.hold.clear()
    processor.submit("a", "a1")
    await asyncio.sleep(0.05)
    processor.submit("a", "a2")  # waits for a1
    processor.submit("b", "b1")  # runs beside a1
    for _ in range(200):  # bounded: b1's batch reaches the pool's second thread
        if run.running == 2:
            break
        await asyncio.sleep(0.01)
    assert run.running == 2
    assert sorted(run.started) == ["a1", "b1"]  # a2 has not started while a1 runs
    run.hold.set()
    await processor.drain(5)
    assert sorted(run.batches) == [["a1"], ["a2"], ["b1"]]
    assert run.batches.index(["a1"]) < run.batches.index(["a2"])  # b1 may finish before or after a2


async def test_a_failed_event_is_logged_and_the_chat_goes_on(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    run = Recorder()
    seen: list[str] = []
    processor = ChatProcessor(run, pool, on_result=seen.append)
    for event in ("bad1", "ok2"):
        processor.submit("a", event)
    await processor.drain(5)
    assert seen == ["OK2"]
    assert [r.getMessage() for r in caplog.records] == ["webhook event failed"]


async def test_past_max_pending_new_events_are_refused(pool: ThreadPoolExecutor) -> None:
    run = Recorder()
    processor = ChatProcessor(run, pool, max_pending=2)
    run.hold.clear()
    assert [processor.submit("a", f"e{i}") for i in range(3)] == [True, True, False]
    run.hold.set()
    await processor.drain(5)
    assert processor.pending == 0
    assert processor.active_chats == 0


async def test_closing_refuses_new_events_and_finishes_the_queued_ones(pool: ThreadPoolExecutor) -> None:
    run = Recorder()
    processor = ChatProcessor(run, pool)
    processor.submit("a", "a1")
    processor.submit("b", "b1")
    await processor.close(5)
    assert not processor.submit("c", "c1")
    assert sorted(e for batch in run.batches for e in batch) == ["a1", "b1"]


class Outage(Exception):
    """The database refuses the work for now (a full disk, say)."""


class FlakyDatabase:
    """A run_batch whose events starting with "w" fail with Outage while ``down`` is set; then, as handle_events
    does, the later events of that chat (the first letter) are not tried and report the same failure."""

    def __init__(self) -> None:
        self.down = True
        self.applied: list[str] = []
        self.calls = 0

    def __call__(self, events: list[str]) -> list[str | Exception]:
        self.calls += 1
        results: list[str | Exception] = []
        stalled: dict[str, Exception] = {}
        for event in events:
            if event[0] in stalled:
                results.append(stalled[event[0]])
            elif self.down and event[1:2] == "w":
                stalled[event[0]] = Outage(event)
                results.append(stalled[event[0]])
            else:
                self.applied.append(event)
                results.append(event.upper())
        return results


async def test_an_event_the_database_cannot_take_now_waits_with_its_chat_and_is_applied_once_it_is_back(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    run = FlakyDatabase()
    seen: list[str] = []
    processor = ChatProcessor(run, pool, on_result=seen.append, retryable=lambda e: isinstance(e, Outage),
                              retry_delays=(0.05,))
    for key, event in [("a", "a1"), ("a", "aw2"), ("a", "a3"), ("b", "b1")]:
        assert processor.submit(key, event)
    for _ in range(100):
        if processor.paused and run.calls >= 2:
            break
        await asyncio.sleep(0.01)
    assert processor.paused
    assert not processor.submit("c", "c1")  # refused while paused: the gateway delivers it again later
    assert run.applied[:1] == ["a1"]
    assert "a3" not in run.applied  # a3 waits behind aw2, in its chat's order
    assert "b1" in run.applied  # other chats are not held back by a's event
    run.down = False
    await processor.drain(5)
    assert not processor.paused
    assert [e for e in run.applied if e.startswith("a")] == ["a1", "aw2", "a3"]
    assert sorted(seen) == ["A1", "A3", "AW2", "B1"]
    assert processor.submit("c", "c1")
    await processor.drain(5)
    assert sum("database unavailable" in r.getMessage() for r in caplog.records) == 1  # said once per outage


async def test_closing_while_the_database_is_down_gives_up_within_the_bound_and_says_how_many_waited(
    pool: ThreadPoolExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    run = FlakyDatabase()
    processor = ChatProcessor(run, pool, retryable=lambda e: isinstance(e, Outage), retry_delays=(0.05,))
    processor.submit("a", "aw1")
    await processor.close(0.3)
    assert run.calls >= 2  # retried while closing
    assert any("left unhandled" in r.getMessage() for r in caplog.records)


async def test_a_schema_error_stops_the_processor_and_reports_once(pool: ThreadPoolExecutor) -> None:
    broken = RuntimeError("no such table: tasks")
    handled: list[str] = []

    def run(events: list[str]) -> list[str | Exception]:
        handled.extend(events)
        return [broken if e == "a2" else e for e in events]

    reported: list[Exception] = []
    stopped = asyncio.Event()

    def stop(exc: Exception) -> None:
        reported.append(exc)
        stopped.set()

    processor = ChatProcessor(run, pool, fatal=lambda exc: exc is broken, on_fatal=stop)
    processor.submit("a", "a1")
    await processor.drain(5)
    processor.submit("a", "a2")
    await asyncio.wait_for(stopped.wait(), 5)
    await asyncio.sleep(0.05)  # a second report would come now
    assert reported == [broken]
    assert not processor.submit("a", "a3")  # nothing more is taken
    assert handled == ["a1", "a2"]
