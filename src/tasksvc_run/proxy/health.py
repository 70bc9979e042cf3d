"""The unit's `/health` (SPEC sections 7 and 40), answered by the proxy with what the bot says of its database.

The proxy itself stays up whatever happens behind it, and a dead bot stops the unit anyway (the supervisor), so
`/health` is 200 unless the bot answers that its database does not take writes: then the bot's 503 and its body
(which names the database, the reason and the fix) are the unit's answer. The bot is asked on its own loopback port
with a one-off HTTP/1.0 request, bounded by ASK_TIMEOUT; one answer serves every `/health` of the next FRESH
seconds, and requests that come while it is asked wait for the same answer. A bot that does not answer in time
(busy, starting, gone) leaves the proxy's own 200.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from urllib.parse import urlsplit

from tasksvc_run.proxy.heads import HEALTH_BODY

__all__ = ["ASK_TIMEOUT", "FRESH", "BotHealth"]
FRESH = 1.0  # seconds one answer of the bot serves
ASK_TIMEOUT = 1.0  # seconds the bot gets to answer
MAX_ANSWER = 16 * 1024
Answered = Callable[[int, bytes], None]


class BotHealth:
    """What the bot at ``bot_url`` says of the store, asked at most once every FRESH seconds."""

    def __init__(self, loop: asyncio.AbstractEventLoop, bot_url: str) -> None:
        where = urlsplit(bot_url)
        self.loop, self.host, self.port = loop, where.hostname or "127.0.0.1", where.port or 80
        self._known: tuple[int, bytes] = (200, HEALTH_BODY)
        self._at = -math.inf
        self._waiting: list[Answered] = []
        self._asking: asyncio.Task[None] | None = None

    def ask(self, answered: Answered) -> None:
        """Call ``answered(status, body)`` with the unit's health: at once when known lately, else once the bot
        answered (or did not, within ASK_TIMEOUT)."""
        if self.loop.time() - self._at < FRESH:
            answered(*self._known)
            return
        self._waiting.append(answered)
        if self._asking is None:
            self._asking = self.loop.create_task(self._refresh())

    async def _refresh(self) -> None:
        try:
            self._known = await asyncio.wait_for(self._from_bot(), ASK_TIMEOUT)
        except (OSError, TimeoutError, ValueError, IndexError):
            self._known = (200, HEALTH_BODY)
        self._at = self.loop.time()
        waiting, self._waiting, self._asking = self._waiting, [], None
        for answered in waiting:
            answered(*self._known)

    async def _from_bot(self) -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(b"GET /health HTTP/1.0\r\nHost: %s:%d\r\n\r\n" % (self.host.encode(), self.port))
            raw = await reader.read(MAX_ANSWER)
            while len(raw) < MAX_ANSWER and (more := await reader.read(MAX_ANSWER - len(raw))):
                raw += more
        finally:
            writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        return (503, body) if status == 503 and body else (200, HEALTH_BODY)
