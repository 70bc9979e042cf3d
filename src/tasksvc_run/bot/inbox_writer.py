"""Stores webhook events in the inbox before they are acknowledged, the events that arrive together in one
transaction (group commit), which also handles at once those it can (``EventRunner.run_arrived``).

``put`` waits until its event is committed and returns the row's id; the webhook answers 2xx only then. Events put
while a store is under way wait for the next one, which takes all of them (up to ``max_batch``): an idle bot stores
each event at once, a busy one pays one commit per group instead of one per event. The store runs in the worker
thread the processor's batches use on SQLite, so within this process the two never wait on each other's lock.
After the commit, ``on_handled`` gets each event the store handled and ``on_stored`` how many it left pending.

Each event may wait at most ``bound`` seconds for the database, counted from ``put``: its store's wait for the write
lock is what is left of that when the store starts, and past it the store fails with ``NotStored`` and the event is
not in the inbox (the webhook answers 503; the gateway delivers it again).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

from taskcore.services import is_schema_error, is_unavailable
from taskcore.services.conversation.road import Arrived, Handled
from taskcore.services.inbox import NewEvent
from tasksvc_run.outage import FatalStop, Outage

log = logging.getLogger(__name__)
DEFAULT_MAX_BATCH = 256
Store = Callable[[Sequence[NewEvent], int], Arrived]  # (events, wait_ms) -> what was stored and handled


class NotStored(Exception):
    """The event is not in the inbox: the database did not take it within the bound, or the writer is closed."""


@dataclass
class _Waiting:
    event: NewEvent
    deadline: float
    future: asyncio.Future[int] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class InboxWriter:
    """Group commit of webhook events into the inbox (see the module docstring)."""

    def __init__(self, store: Store, pool: Executor, *, bound: float, max_batch: int = DEFAULT_MAX_BATCH,
                 on_stored: Callable[[int], None] | None = None, on_handled: Callable[[Handled], None] | None = None,
                 fatal: FatalStop | None = None, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._store, self._pool, self._bound, self._max_batch = store, pool, bound, max_batch
        self._on_stored, self._on_handled = on_stored, on_handled
        self._outage = Outage("webhook inbox", fatal or FatalStop())
        self._monotonic = monotonic
        self._waiting: list[_Waiting] = []
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    async def put(self, event: NewEvent) -> int:
        """Store ``event``; its id once committed. ``NotStored`` when it could not be stored in time."""
        if self._closed:
            raise NotStored("the bot is stopping")
        waiting = _Waiting(event, self._monotonic() + self._bound)
        self._waiting.append(waiting)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush(), name="inbox-writer")
        return await waiting.future

    async def _flush(self) -> None:
        try:
            while self._waiting:
                group, self._waiting = self._waiting[:self._max_batch], self._waiting[self._max_batch:]
                await self._store_group(group)
        finally:
            self._flusher = None

    async def _store_group(self, group: list[_Waiting]) -> None:
        deadline = min(item.deadline for item in group)
        try:
            stored = await asyncio.get_running_loop().run_in_executor(
                self._pool, self._store_in_time, [item.event for item in group], deadline)
        except Exception as exc:
            self._failed(exc)
            for item in group:
                if not item.future.done():
                    item.future.set_exception(NotStored(str(exc)))
            return
        if self._outage.since is not None:  # most stores end no outage
            self._outage.succeeded()
        for item, row_id in zip(group, stored.ids, strict=True):
            if not item.future.done():
                item.future.set_result(row_id)
        if self._on_handled is not None:
            for handled in stored.handled:
                try:
                    self._on_handled(handled)
                except Exception:
                    log.exception("webhook event follow-up failed")
        if self._on_stored is not None and stored.pending:
            self._on_stored(stored.pending)

    def _store_in_time(self, events: list[NewEvent], deadline: float) -> Arrived:
        """In the worker thread: store with what is left of the bound as the wait for the database."""
        left_ms = int((deadline - self._monotonic()) * 1000)
        if left_ms <= 0:
            raise NotStored("waited past the bound before the store could start")
        return self._store(events, left_ms)

    def _failed(self, exc: Exception) -> None:
        if isinstance(exc, NotStored):
            self._outage.unavailable(str(exc))
        elif is_unavailable(exc) or is_schema_error(exc):
            self._outage.failed(exc)
        else:
            log.error("webhook events could not be stored", exc_info=exc)

    async def close(self, within: float = 2.0) -> None:
        """Refuse new events; let the store under way finish (up to ``within`` seconds)."""
        self._closed = True
        flusher = self._flusher
        if flusher is not None:
            try:
                await asyncio.wait_for(asyncio.shield(flusher), within)
            except TimeoutError:
                log.warning("webhook events still being stored at shutdown")
