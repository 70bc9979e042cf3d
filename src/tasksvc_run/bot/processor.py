"""Handles acknowledged webhook events in the background: in order within a chat, chats side by side, bounded.

Each chat key gets a queue and a task on demand; the task ends (and its entry is dropped) as soon as its queue is
empty, so idle chats cost nothing. The total of queued and running events is bounded: past ``max_pending`` the
webhook refuses new events (503) and the gateway retries them later.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
E = TypeVar("E")
DEFAULT_MAX_PENDING = 10_000


class ChatProcessor(Generic[E]):
    """Runs ``handle(event)`` for submitted events, one at a time per key, in submission order."""

    def __init__(self, handle: Callable[[E], Awaitable[None]], *, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self._handle = handle
        self._max_pending = max_pending
        self._chats: dict[str, deque[E]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False

    @property
    def pending(self) -> int:
        """Events queued or being handled."""
        return self._pending

    @property
    def active_chats(self) -> int:
        """Chat keys with a queue right now."""
        return len(self._chats)

    def submit(self, key: str, event: E) -> bool:
        """Queue the event behind the chat's earlier ones; False when full or closed (nothing queued)."""
        if self._closed or self._pending >= self._max_pending:
            return False
        self._pending += 1
        self._idle.clear()
        queue = self._chats.get(key)
        if queue is not None:
            queue.append(event)
            return True
        self._chats[key] = deque([event])
        task = asyncio.get_running_loop().create_task(self._run(key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def _run(self, key: str) -> None:
        queue = self._chats[key]
        try:
            while queue:
                await self._one(queue[0])
                queue.popleft()
                self._finished(1)
        finally:
            # No await between the emptiness check above and this removal, so no event can slip in unseen.
            del self._chats[key]
            self._finished(len(queue))

    async def _one(self, event: E) -> None:
        try:
            await self._handle(event)
        except Exception:
            log.exception("webhook event failed", extra={"event_type": type(event).__name__})

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
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
