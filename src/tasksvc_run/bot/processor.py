"""Handles the inbox's events in the background: batches claimed from the database, in order per chat.

The webhook stores each event in the inbox and calls ``notify``; a loop then runs ``run_batch`` in a worker thread,
which claims up to a batch of pending events, handles them and marks them done in one transaction, and returns what
each did. A loop keeps going while batches find work and otherwise sleeps until notified or until ``poll_interval``
passes (rows left by an earlier process, or stored by another instance, are found that way; at start the loop runs
at once, so what a crash left behind is handled first). ``parallel`` loops run at a time (PostgreSQL; on SQLite one),
each claiming other rows.

A batch that fails because the database cannot take it now (busy past its short bound, a full disk, a lost
connection) leaves its events pending: the loop waits ``retry_delays`` (the last one repeated) and tries again; the
outage is logged once when it starts and once when it ends (``Outage``), a write lock busy for less than
``QUIET_BUSY`` seconds not at all. A schema error stops the process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Generic, TypeVar

from taskcore.services import is_busy_error
from tasksvc_run.outage import FatalStop, Outage

log = logging.getLogger(__name__)
H = TypeVar("H")
DEFAULT_POLL_INTERVAL = 1.0
DEFAULT_RETRY_DELAYS = (0.1, 0.25, 0.5, 1.0, 2.0)
QUIET_BUSY = 2.0  # seconds of a busy write lock retried without a log line


def _ignore(_value: object) -> None:
    """No follow-up."""


class InboxProcessor(Generic[H]):
    """Runs ``run_batch()`` in ``pool`` until the inbox has nothing pending (see the module docstring).

    ``run_batch`` returns one item per event it handled (an empty sequence when nothing was pending), at most
    ``batch_size``: a batch that handled fewer took everything then pending; ``on_handled`` is called on the event
    loop with each.
    """

    def __init__(
        self, run_batch: Callable[[], Sequence[H]], pool: Executor, *, parallel: int = 1, batch_size: int = 32,
        poll_interval: float = DEFAULT_POLL_INTERVAL, retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS,
        on_handled: Callable[[H], None] = _ignore, fatal: FatalStop | None = None,
    ) -> None:
        self._run_batch, self._pool, self._on_handled = run_batch, pool, on_handled
        self._parallel, self._poll_interval, self._batch_size = parallel, poll_interval, batch_size
        self._retry_delays = tuple(retry_delays) or DEFAULT_RETRY_DELAYS
        self._fatal = fatal or FatalStop()
        self._outage = Outage("webhook", self._fatal)
        self._wake = asyncio.Event()
        self._changed = asyncio.Event()
        self._loops: list[asyncio.Task[None]] = []
        self._running = 0  # batches under way
        self._notified = 0  # stores announced by notify()
        self._idle_after = -1  # the notify count a batch that found nothing had seen when it started
        self._stored = 0  # events this process stored...
        self._handled = 0  # ...and events handled
        self.backlog = 0
        """Events this process stored that no batch of it has handled yet (at least 0): the webhook reads it for
        every event, so it is kept up to date rather than computed."""
        self._failures = 0
        self._busy_since: float | None = None
        self._stopping = False


    @property
    def running(self) -> bool:
        """True while the loops run."""
        return bool(self._loops) and not self._stopping

    def start(self) -> None:
        """Start the loops on the running event loop; the first batch runs at once."""
        self._loops = [asyncio.create_task(self._loop(), name=f"inbox-{n}") for n in range(self._parallel)]

    def notify(self, stored: int = 1) -> None:
        """``stored`` events were committed to the inbox: handle them now rather than at the next poll."""
        self._stored += stored
        self.backlog = max(0, self._stored - self._handled)
        self._notified += 1
        self._wake.set()

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()
            seen = self._notified
            found = await self._one_batch()
            if found is None:  # failed: wait, then try the same events again
                delay = self._retry_delays[min(self._failures - 1, len(self._retry_delays) - 1)]
                await self._pause(delay)
            elif found < self._batch_size:  # it took everything pending when it began: no empty batch to run
                self._idle_after = max(self._idle_after, seen)
                self._pulse()
                if not self._wake.is_set():
                    await self._pause(self._poll_interval)

    async def _pause(self, seconds: float) -> None:
        """Sleep ``seconds`` or until notified (or stopped)."""
        if self._stopping:
            return
        try:
            async with asyncio.timeout(seconds):
                await self._wake.wait()
        except TimeoutError:
            pass

    async def _one_batch(self) -> int | None:
        """Run one batch; how many events it handled, None when it failed."""
        self._running += 1
        try:
            handled = await asyncio.get_running_loop().run_in_executor(self._pool, self._run_batch)
        except Exception as exc:
            self._failures += 1
            if not self._quietly_busy(exc):
                self._outage.failed(exc, what="webhook events: handling a batch failed")
            if self._fatal.reason is not None:  # a schema error: the process is stopping
                self._stopping = True
            return None
        finally:
            self._running -= 1
            self._pulse()
        self._failures = 0
        self._busy_since = None
        self._outage.succeeded()
        self._handled += len(handled)
        self.backlog = max(0, self._stored - self._handled)
        for item in handled:
            try:
                self._on_handled(item)
            except Exception:
                log.exception("webhook event follow-up failed")
        return len(handled)

    def _quietly_busy(self, exc: Exception) -> bool:
        """True while the write lock has been busy for less than QUIET_BUSY seconds in a row: other writers (the web,
        the outbound worker) hold it a moment, which is no outage worth a log line; past that, it is one."""
        if not is_busy_error(exc):
            return False
        now = time.monotonic()
        if self._busy_since is None:
            self._busy_since = now
        return now - self._busy_since < QUIET_BUSY

    def _pulse(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def drain(self, within: float) -> None:
        """Wait until a batch started after the last notify found nothing pending and none runs; TimeoutError after
        ``within`` seconds."""
        target = self._notified
        async with asyncio.timeout(within):
            while self._idle_after < target or self._running:
                if self._stopping:
                    raise TimeoutError("the processor stopped with events pending")
                await self._changed.wait()

    async def close(self, within: float = 2.0) -> None:
        """Stop taking work: the batch under way finishes (it is one transaction; waited for up to ``within``
        seconds), what is still pending stays in the inbox for the next start."""
        self._stopping = True
        self._wake.set()
        if not self._loops:
            return
        done, late = await asyncio.wait(self._loops, timeout=within)
        for task in late:
            task.cancel()
        await asyncio.gather(*done, *late, return_exceptions=True)
        if late:
            log.warning("webhook batch still running at shutdown; its events stay pending in the inbox")
        if self.backlog:
            log.info("webhook events left in the inbox for the next start", extra={"pending": self.backlog})
