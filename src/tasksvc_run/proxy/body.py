"""The client's request body, read against the clock: slow senders cannot hold upstream connections (SPEC 8, 16).

A body up to ``BodyLimits.buffered`` bytes (every web API body, most webhook events) is read whole before an
upstream connection is taken, so a client that trickles its body in holds nothing but its own socket. A larger
body is streamed: its first part is read the same way, the rest passes through as it comes. Either way each read
must arrive within ``idle`` seconds and the whole body within ``deadline`` seconds, or the client gets 408.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

from aiohttp import web

MAX_BODY = 10 * 1024 * 1024
CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """How long a client may take to send its body, and how much of it is read before going upstream."""

    idle: float = 10.0  # seconds without a byte
    deadline: float = 30.0  # seconds for the whole body
    buffered: int = 64 * 1024  # bytes read whole before an upstream connection is taken


class BodyTooLarge(Exception):
    """The request body passed MAX_BODY."""


class BodyTooSlow(Exception):
    """The request body did not arrive within the limits."""


class ClientBody:
    """One request's body: ``start()`` reads up to ``buffered`` bytes and gives the whole body (bytes) or a stream
    of it. Failures while streaming are kept in ``failure`` too, since the upstream client wraps what it raises."""

    def __init__(self, request: web.Request, limits: BodyLimits) -> None:
        self.request, self.limits = request, limits
        self.failure: BodyTooLarge | BodyTooSlow | None = None
        self._ends_at = asyncio.get_running_loop().time() + limits.deadline
        self._seen = 0

    async def start(self) -> bytes | AsyncIterator[bytes] | None:
        """None without a body; the whole body when it fits ``buffered``; else a stream of it."""
        if not self.request.body_exists:
            return None
        head = bytearray()
        while len(head) <= self.limits.buffered:
            chunk = await self._read()
            if not chunk:
                return bytes(head)
            head += chunk
        return self._stream(bytes(head))

    async def _stream(self, head: bytes) -> AsyncIterator[bytes]:
        yield head
        while chunk := await self._read():
            yield chunk

    async def _read(self) -> bytes:
        """The next piece of the body (b"" at its end), within the idle and overall limits."""
        left = self._ends_at - asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(max(0.0, min(self.limits.idle, left))):
                chunk = await self.request.content.readany()
        except TimeoutError:
            self.failure = BodyTooSlow()
            raise self.failure from None
        self._seen += len(chunk)
        if self._seen > MAX_BODY:
            self.failure = BodyTooLarge()
            raise self.failure
        return chunk
