"""Handles acknowledged webhook events in the background: in order within a chat, in batches, bounded.

Events wait in one queue per chat key. A batch takes the waiting events of the chats that have none in flight (up
to ``max_batch``, a chat's events in their order) and hands them to ``run_batch`` in a worker thread, which handles
them in one transaction (group commit): events that arrive while a batch runs go together in the next one, so a
backlog costs one commit per batch instead of one per event, and an idle bot handles each event at once. At most
``parallel`` batches run at a time and a chat is in at most one of them, so each chat's events are handled in the
order they were submitted. The total of queued and running events is bounded: past ``max_pending`` the webhook
refuses new events (503) and the gateway retries them later. Nothing here costs an asyncio task per event.

An event that fails because the database cannot take it now (``retryable``: a full or read-only disk, a lost
connection) is not dropped: it and the events behind it in its chat stay queued, batches pause for a backoff
(``retry_delays``, the last one repeated) and the webhook refuses new events meanwhile, so that the gateway keeps them
until the database takes writes again. Any other failure is logged and the chat goes on with its next event.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from itertools import islice
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
E = TypeVar("E")
R = TypeVar("R")
DEFAULT_MAX_PENDING = 10_000
# Events per transaction at most: bounds how long a batch holds SQLite's write lock (~10 ms) from the web process.
DEFAULT_MAX_BATCH = 32
DEFAULT_RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0)


def _ignore(_value: object) -> None:
    """No follow-up."""


def _never(_error: Exception) -> bool:
    """No failure is worth a retry."""
    return False


class ChatProcessor(Generic[E, R]):
    """Runs ``run_batch(events)`` in ``pool`` for submitted events (see the module docstring).

    ``run_batch`` returns one item per event: its result, or the exception it failed with (logged here; the next
    events of the chat still run). ``on_result`` is called on the event loop with each result.
    """

    def __init__(
        self, run_batch: Callable[[list[E]], Sequence[R | Exception]], pool: Executor, *, parallel: int = 1,
        max_batch: int = DEFAULT_MAX_BATCH, max_pending: int = DEFAULT_MAX_PENDING,
        on_result: Callable[[R], None] = _ignore, retryable: Callable[[Exception], bool] = _never,
        retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS, fatal: Callable[[Exception], bool] = _never,
        on_fatal: Callable[[Exception], None] = _ignore,
    ) -> None:
        self._fatal, self._on_fatal = fatal, on_fatal
        self._run_batch, self._pool, self._on_result = run_batch, pool, on_result
        self._retryable, self._retry_delays = retryable, tuple(retry_delays) or DEFAULT_RETRY_DELAYS
        self._failures = 0  # batches in a row that hit a retryable failure; the webhook refuses events meanwhile
        self._holding = False  # waiting for the retry delay: no batch starts
        self._parallel, self._max_batch, self._max_pending = parallel, max_batch, max_pending
        self._chats: dict[str, deque[E]] = {}
        self._ready: deque[str] = deque()  # chats with waiting events and none in flight, oldest first
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False  # new events refused
        self._stopped = False  # nothing more starts

    @property
    def pending(self) -> int:
        """Events queued or being handled."""
        return self._pending

    @property
    def active_chats(self) -> int:
        """Chat keys with a queue right now."""
        return len(self._chats)

    @property
    def paused(self) -> bool:
        """True while events wait for the database to take writes again."""
        return self._failures > 0

    def submit(self, key: str, event: E) -> bool:
        """Queue the event behind the chat's earlier ones; False when full, paused or closed (nothing queued)."""
        if self._closed or self.paused or self._pending >= self._max_pending:
            return False
        self._pending += 1
        self._idle.clear()
        queue = self._chats.get(key)
        if queue is not None:
            queue.append(event)
            return True
        self._chats[key] = deque([event])
        self._ready.append(key)
        self._start()
        return True

    def _start(self) -> None:
        """Start batches while there are ready chats and room for another batch."""
        while self._ready and len(self._tasks) < self._parallel and not self._holding and not self._stopped:
            batch: list[tuple[str, int]] = []
            room = self._max_batch
            while self._ready and room > 0:
                key = self._ready.popleft()
                count = min(len(self._chats[key]), room)
                batch.append((key, count))
                room -= count
            task = asyncio.get_running_loop().create_task(self._run(batch))
            self._tasks.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        if (error := task.exception()) is not None:
            log.error("webhook batch failed", exc_info=error)
        self._start()

    async def _run(self, batch: list[tuple[str, int]]) -> None:
        """Handle the first ``count`` events of each chat in ``batch``; then those chats are ready again."""
        events = [event for key, count in batch for event in islice(self._chats[key], count)]
        try:
            results: Sequence[R | Exception] = await asyncio.get_running_loop().run_in_executor(
                self._pool, self._run_batch, events)
        except Exception as exc:  # run_batch itself broke: every event of the batch failed
            results = [exc] * len(events)
        done = dict(batch)  # chat key -> events handled (all, unless one is held for a retry)
        retry, broken = False, None
        try:
            outcomes = iter(zip(events, results, strict=True))
            for key, count in batch:
                for handled, (event, result) in enumerate(list(islice(outcomes, count))):
                    if isinstance(result, Exception) and self._fatal(result):
                        broken = result  # nothing more can be handled: the process stops
                        done[key] = handled
                        break
                    if isinstance(result, Exception) and self._retryable(result):
                        self._hold(event, result)  # it and the chat's later events stay queued, in order
                        done[key], retry = handled, True
                        break
                    self._report(event, result)
        finally:
            self._release(list(done.items()))
            if broken is not None:
                self._closed = self._stopped = True
                self._on_fatal(broken)
            elif retry:
                self._pause()
            elif self._failures:
                self._failures = 0
                log.warning("the database takes writes again; webhook events flow")

    def _hold(self, event: E, error: Exception) -> None:
        if not self._failures:
            log.error("database unavailable: webhook events wait and the webhook answers 503 until it is back",
                      exc_info=error, extra={"event_type": type(event).__name__, "pending": self._pending})

    def _pause(self) -> None:
        """Start no batch for the next retry delay; then try the held events again."""
        delay = self._retry_delays[min(self._failures, len(self._retry_delays) - 1)]
        self._failures += 1
        self._holding = True
        asyncio.get_running_loop().call_later(delay, self._resume)

    def _resume(self) -> None:
        self._holding = False
        if not self._stopped:
            self._start()

    def _release(self, batch: list[tuple[str, int]]) -> None:
        """Drop the first ``count`` events of each chat (handled); chats with more waiting are ready again."""
        for key, count in batch:
            queue = self._chats[key]
            for _ in range(count):
                queue.popleft()
            if queue:
                self._ready.append(key)
            else:
                del self._chats[key]
        self._finished(sum(count for _, count in batch))

    def _report(self, event: E, result: R | Exception) -> None:
        if isinstance(result, Exception):
            log.error("webhook event failed", exc_info=result, extra={"event_type": type(event).__name__})
            return
        try:
            self._on_result(result)
        except Exception:
            log.exception("webhook event follow-up failed", extra={"event_type": type(event).__name__})

    def _finished(self, count: int) -> None:
        self._pending -= count
        if self._pending == 0:
            self._idle.set()

    async def drain(self, within: float) -> None:
        """Wait until every submitted event has been handled; TimeoutError after ``within`` seconds."""
        await asyncio.wait_for(self._idle.wait(), within)

    async def close(self, within: float = 5.0) -> None:
        """Refuse new events, let queued ones finish for up to ``within`` seconds, then cancel the rest."""
        self._closed = True
        try:
            await self.drain(within)
        except TimeoutError:
            log.warning("webhook events left unhandled at shutdown", extra={"pending": self._pending})
            self._stopped = True
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
