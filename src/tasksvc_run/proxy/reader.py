"""Reading a client's requests: httptools' parser over the connection, each request's head filtered as it comes
(heads.py), its body kept or passed on, and the time limits of SPEC sections 8 and 16 kept: the head must arrive
within ``BodyLimits.deadline``, the body within ``deadline`` with no gap over ``idle``, or the client gets 408.
What is done with a request once read is the business of ClientConnection (client.py).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from httptools import HttpParserCallbackError, HttpParserError, HttpParserUpgrade, HttpRequestParser

from tasksvc_run.proxy.exchange import Exchange
from tasksvc_run.proxy.heads import LAST_CHUNK, Refused, check_url, request_target, route_raw
from tasksvc_run.proxy.health import BotHealth
from tasksvc_run.proxy.limits import KEEP_ALIVE, MAX_BODY, MAX_HEAD, BodyLimits
from tasksvc_run.proxy.pool import Pool

if TYPE_CHECKING:
    from tasksvc_run.proxy.client import ClientConnection

log = logging.getLogger(__name__)
PIPELINED, BODY, UPSTREAM = 1, 2, 4  # why reading is paused: a request waits its turn, or its body, or the upstream


@dataclass(eq=False)
class Context:
    """What every connection of one proxy shares."""

    loop: asyncio.AbstractEventLoop
    pools: dict[str, Pool]
    limits: BodyLimits
    connections: set[ClientConnection] = field(default_factory=set)
    stopping: bool = False
    drained: asyncio.Event = field(default_factory=asyncio.Event)  # set when the last connection closes at a stop
    health: BotHealth | None = None  # what the bot says of its database (None: /health is the proxy's own 200)

    @property
    def dev(self) -> bool:
        """Whether /dev/ goes to development's local gateway."""
        return "dev" in self.pools


class RequestReader(asyncio.Protocol):
    """The reading half of a client connection; the serving half (``_advance``, ``_refuse``, ``_close``) is
    ClientConnection's."""

    def __init__(self, ctx: Context) -> None:
        self.ctx, self.loop = ctx, ctx.loop
        self.parser = HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.queue: deque[Exchange] = deque()  # answered in this order; the first is being served
        self.reading: Exchange | None = None  # the request whose bytes are coming
        self.held = 0
        self.gone = False
        self.stopping = ctx.stopping  # close once what was asked is answered
        self.refusal: bytes | None = None  # the answer that ends this connection, once the queue before it is done
        self.slow_reader = False  # our writes to the client are paused
        self.last = self.loop.time()
        self.timer: asyncio.TimerHandle | None = None
        self.timer_at = math.inf
        self.forwarded = self.local = b""

    # --- asyncio.Protocol ------------------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer, local = transport.get_extra_info("peername"), transport.get_extra_info("sockname")
        self.forwarded = b"X-Forwarded-For: %s\r\nX-Forwarded-Proto: http\r\n" % str(peer[0]).encode()
        self.local = f"{local[0]}:{local[1]}".encode()
        self.ctx.connections.add(self.connection)
        self._arm(self.last + KEEP_ALIVE)

    def data_received(self, data: bytes) -> None:
        self.last = self.loop.time()
        if self.refusal is not None or self.gone:  # the rest of a refused request is not read
            return
        try:
            self.parser.feed_data(data)
        except HttpParserCallbackError as exc:
            refused = exc.__context__
            if not isinstance(refused, Refused):
                log.error("proxy: request handling failed", exc_info=refused)
                refused = Refused(500, "the proxy failed on this request")
            self._refuse(refused.status, refused.detail)
        except HttpParserUpgrade:  # served as a plain request; what follows on the connection is not HTTP
            self.refusal = b""
        except HttpParserError:
            self._refuse(400, "the request is not valid HTTP/1.1")
        ex = self.reading
        if ex is not None and not ex.complete and self.refusal is None:
            self._watch(ex, len(data))
        self._advance()

    def eof_received(self) -> bool:
        """A client that stops sending after whole requests still gets their answers; one that stops halfway
        through a request gave it up."""
        self.stopping = True
        return bool(self.queue) and self.reading is None

    # --- httptools callbacks ---------------------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        self.reading = ex = Exchange(self.connection, self.last)
        self.queue.append(ex)
        if len(self.queue) > 1:
            self._hold(PIPELINED)

    def on_url(self, url: bytes) -> None:
        ex = self.reading
        assert ex is not None  # noqa: S101 - the parser begins a message before its URL
        ex.url += url
        check_url(ex.url)

    def on_header(self, name: bytes, value: bytes) -> None:
        ex = self.reading
        if ex is not None and not ex.head_done:  # trailers are not forwarded
            ex.head.add(name, value)

    def on_headers_complete(self) -> None:
        ex, parser = self.reading, self.parser
        assert ex is not None  # noqa: S101
        ex.head_done, ex.body_started = True, self.last
        ex.method, ex.version = parser.get_method(), parser.get_http_version().encode()
        ex.keep_alive = parser.should_keep_alive() and not parser.should_upgrade()
        if ex.method == b"CONNECT":
            raise Refused(405, "CONNECT is not served here")
        if ex.head.host is None and ex.version == b"1.1":
            raise Refused(400, "an HTTP/1.1 request needs a Host header")
        ex.path, ex.target = request_target(ex.url)
        ex.route = route_raw(ex.path, dev=self.ctx.dev)
        length = ex.head.length
        if length is not None and int(length) > MAX_BODY:
            raise Refused(413, "request bodies are limited to 10 MiB")
        if parser.should_upgrade() and (length not in (None, b"0") or b"chunked" in ex.head.tokens):
            raise Refused(400, "protocol upgrades are not served here")
        if ex.head.expect is not None and ex.head.expect != b"100-continue":
            raise Refused(417, "only Expect: 100-continue is understood")

    def on_body(self, body: bytes) -> None:
        ex = self.reading
        assert ex is not None  # noqa: S101
        ex.size += len(body)
        if ex.size > MAX_BODY:
            raise Refused(413, "request bodies are limited to 10 MiB")
        if ex.route == "health":
            return
        if not ex.streaming:
            ex.body.append(body)
        elif ex.upstream is not None:  # passed through as it comes
            ex.upstream.send(body if ex.head.length is not None else b"%x\r\n%s\r\n" % (len(body), body))

    def on_message_complete(self) -> None:
        ex, self.reading = self.reading, None
        assert ex is not None  # noqa: S101
        ex.complete = True
        if ex.streaming and ex.upstream is not None:
            if ex.head.length is None:
                ex.upstream.send(LAST_CHUNK)
            ex.upstream.request_sent()

    # --- time limits and flow --------------------------------------------------------------------------------------

    def _watch(self, ex: Exchange, received: int) -> None:
        """Keep the time limits of a request still arriving (and the size of its head)."""
        limits = self.ctx.limits
        if not ex.head_done:
            ex.head_bytes += received
            if ex.head_bytes > MAX_HEAD:
                self._refuse(431, "the request's headers are too large")
                return
            self._arm(ex.started + limits.deadline)
        else:
            self._arm(min(self.last + limits.idle, ex.body_started + limits.deadline))

    def _arm(self, at: float, *, force: bool = False) -> None:
        if at < self.timer_at or force:
            if self.timer is not None:
                self.timer.cancel()
            self.timer, self.timer_at = self.loop.call_at(at, self._on_timer), at

    def _on_timer(self) -> None:
        self.timer, self.timer_at = None, math.inf
        if self.gone:  # lingering after a refusal: time is up
            if self.transport is not None:
                self.transport.close()
            return
        now, ex, limits = self.loop.time(), self.reading, self.ctx.limits
        if ex is not None and self.held:  # waiting on the upstream, not on the client
            self._arm(now + limits.idle)
        elif ex is not None and not ex.head_done:
            self._expire(now, ex.started + limits.deadline, "the request head arrived too slowly")
        elif ex is not None:
            self._expire(now, min(self.last + limits.idle, ex.body_started + limits.deadline),
                         "the request body arrived too slowly")
        elif not self.queue:
            if now >= self.last + KEEP_ALIVE:
                self._close()
            else:
                self._arm(self.last + KEEP_ALIVE)
        else:
            self._arm(now + KEEP_ALIVE)

    def _expire(self, now: float, due: float, detail: str) -> None:
        if now < due:
            self._arm(due)
            return
        self._refuse(408, detail)
        self._advance()

    def _hold(self, why: int) -> None:
        if not self.held and self.transport is not None and not self.gone:
            self.transport.pause_reading()
        self.held |= why

    def _release(self, why: int) -> None:
        if self.held & why:
            self.held &= ~why
            if not self.held and self.transport is not None and not self.gone:
                self.transport.resume_reading()

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    @property
    def connection(self) -> ClientConnection:
        """This object as what it is: the only subclass there is."""
        return cast("ClientConnection", self)

    def _advance(self) -> None:
        raise NotImplementedError

    def _refuse(self, status: int, detail: str) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError
