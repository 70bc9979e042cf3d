"""The kept-alive connections to one upstream, bounded: a request takes an idle one, opens a new one below the limit,
or waits (at most ``PoolLimits.wait``) for one to come back, then gets 504. One pool per upstream, so a crowd at
one cannot hold up the other (SPEC sections 8 and 16).

Until an upstream has taken a first connection (at most ``STARTING`` seconds after the pool was made), a refused
connection is tried again every ``RETRY_REFUSED`` seconds for up to ``START_WAIT`` seconds, then answered 502: the
supervisor starts the proxy right after the web, so that the webhook reaches the bot as soon as possible, and a
page asked for while the web is still starting waits for it instead of getting 502. Once the upstream has
answered, a refused connection is 502 at once (SPEC section 8: an upstream that is down gives 502)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from urllib.parse import urlsplit

from tasksvc_run.proxy.exchange import Exchange
from tasksvc_run.proxy.limits import CONNECT_TIMEOUT
from tasksvc_run.proxy.upstream import UpstreamConnection

log = logging.getLogger(__name__)
STARTING = 30.0  # seconds after the pool is made during which a refused connection is an upstream still starting
RETRY_REFUSED = 0.05  # seconds between connection attempts to an upstream still starting
START_WAIT = 4.0  # seconds a request waits for an upstream still starting (0.5 s inside the connect timeout: 502)


class Pool:
    """Connections to the upstream at ``url`` (``http://host:port``): at most ``size``; ``timeout`` is the upstream's
    time to answer (PROXY_UPSTREAM_TIMEOUT_MS), ``wait`` the longest a request waits for a free connection."""

    def __init__(self, loop: asyncio.AbstractEventLoop, name: str, url: str, *, size: int, wait: float,
                 timeout: float) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the {name} upstream must be an http:// URL, not {url!r}")
        self.loop, self.name = loop, name
        self.host, self.port = parts.hostname, parts.port or 80
        self.size, self.wait, self.timeout = size, min(wait, timeout), timeout
        self.idle: list[UpstreamConnection] = []
        self.count = 0  # open or opening
        self.waiters: deque[Exchange] = deque()
        self.opening: set[asyncio.Task[None]] = set()
        self.every: set[UpstreamConnection] = set()
        self.starting_until = loop.time() + STARTING  # 0 once the upstream has taken a connection

    def acquire(self, ex: Exchange) -> None:
        """Serve ``ex`` with a connection now, once one is open, or once one is free."""
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed:
                conn.attach(ex)
                return
        if self.count < self.size:
            self._open(ex)
        else:
            ex.waiting = self.loop.call_later(self.wait, self._expire, ex)
            self.waiters.append(ex)

    def release(self, conn: UpstreamConnection) -> None:
        """A connection whose exchange ended cleanly: to the next waiting request, or idle."""
        if self.waiters:
            conn.attach(self._next_waiter())
        else:
            self.idle.append(conn)

    def lost(self, conn: UpstreamConnection) -> None:
        """A connection closed: its place may go to a waiting request."""
        self.every.discard(conn)
        if conn in self.idle:
            self.idle.remove(conn)
        self.count -= 1
        if self.waiters and self.count < self.size:
            self._open(self._next_waiter())

    def cancel(self, ex: Exchange) -> None:
        """``ex`` no longer wants a connection (its client went away)."""
        if ex.waiting is not None:
            ex.waiting.cancel()
            ex.waiting = None
            self.waiters.remove(ex)

    def close(self) -> None:
        """Close every connection and stop opening new ones."""
        for task in self.opening:
            task.cancel()
        for conn in list(self.every):
            conn.close()

    def _next_waiter(self) -> Exchange:
        ex = self.waiters.popleft()
        if ex.waiting is not None:
            ex.waiting.cancel()
            ex.waiting = None
        return ex

    def _expire(self, ex: Exchange) -> None:
        ex.waiting = None
        self.waiters.remove(ex)
        ex.client.failed(ex, 504, f"the {self.name} process did not answer in time")

    def _open(self, ex: Exchange) -> None:
        self.count += 1
        task = self.loop.create_task(self._connect(ex))
        self.opening.add(task)
        task.add_done_callback(self.opening.discard)

    async def _connect(self, ex: Exchange) -> None:
        try:
            budget = min(CONNECT_TIMEOUT, self.timeout)
            async with asyncio.timeout(budget):
                conn = await self._connection(min(START_WAIT, budget - 0.5))
        except (OSError, TimeoutError) as exc:
            self.count -= 1
            timed_out = isinstance(exc, TimeoutError)
            if not timed_out:
                log.warning("proxy: upstream unavailable", extra={"upstream": self.name, "error": type(exc).__name__})
            if not ex.cancelled:
                status, what = (504, "did not answer in time") if timed_out else (502, "is not available")
                ex.client.failed(ex, status, f"the {self.name} process {what}")
            return
        self.every.add(conn)
        self.starting_until = 0.0
        if ex.cancelled:
            self.release(conn)
        else:
            conn.attach(ex)

    async def _connection(self, wait: float) -> UpstreamConnection:
        """A new connection; refused ones tried again for up to ``wait`` seconds while the upstream may still be
        starting (module docstring)."""
        give_up = min(self.starting_until, self.loop.time() + wait)
        while True:
            try:
                _, conn = await self.loop.create_connection(lambda: UpstreamConnection(self), self.host, self.port)
                return conn
            except ConnectionRefusedError:
                if self.loop.time() + RETRY_REFUSED >= give_up:
                    raise
            await asyncio.sleep(RETRY_REFUSED)
