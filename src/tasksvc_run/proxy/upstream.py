"""One kept-alive connection to an upstream (bot, web): it reads the response to the exchange it serves and relays
it to the client, re-framed (R6 removes Content-Length): chunked to HTTP/1.1 clients, until close to HTTP/1.0 ones.

What one ``data_received`` produces for the client goes out in one write. The connection goes back to its pool when a
response ended cleanly and both sides can go on; otherwise it is closed. A response that never comes within
PROXY_UPSTREAM_TIMEOUT_MS (or stops coming for that long) gets 504, or is cut short once its head has gone.
"""

from __future__ import annotations

import asyncio
import logging
import math
import zlib
from typing import TYPE_CHECKING

from httptools import HttpParserError, HttpResponseParser

from tasksvc_run.proxy.exchange import Exchange
from tasksvc_run.proxy.heads import (
    CHUNKED,
    CLOSE,
    CONNECTION,
    ENCODING,
    KEEP,
    LAST_CHUNK,
    LENGTH,
    RESPONSE_RULES,
    connection_tokens,
)
from tasksvc_run.proxy.limits import UPSTREAM_IDLE

if TYPE_CHECKING:
    from tasksvc_run.proxy.pool import Pool

log = logging.getLogger(__name__)
DECODED = frozenset({b"gzip", b"x-gzip", b"deflate"})  # codings the proxy undoes (R6) if an upstream used one


class UpstreamConnection(asyncio.Protocol):
    """A connection of one pool, serving one exchange at a time."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.loop = pool.loop
        self.parser = HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.ex: Exchange | None = None
        self.out: list[bytes] = []  # bytes for the client, written once per data_received
        self.served = 0  # exchanges attached so far: a reused connection may have been closed by the upstream
        self.last = self.loop.time()  # the last sign of life the timeouts count from
        self.timer: asyncio.TimerHandle | None = None
        self.timer_at = math.inf
        self.paused = False  # not reading: the client is slow to take the response
        self.holding = False  # not writing: the client's reading is held
        self.closed = False
        self._reset()

    def _reset(self) -> None:
        self.reason = b""
        self.lines: list[bytes] = []
        self.tokens: frozenset[bytes] = frozenset()
        self.encoding: bytes | None = None
        self.framed = False  # Content-Length or Transfer-Encoding: the parser knows where the body ends
        self.started = False  # the response head went to the client
        self.done = False
        self.chunked = False
        self.decoder: zlib._Decompress | None = None
        self.got = False  # any byte of a response came
        self.interim = False  # a 1xx response, not relayed
        self.reusable = False
        self.failure = ""  # why an answer that came cannot be relayed (502)

    # --- serving an exchange ---------------------------------------------------------------------------------------

    def attach(self, ex: Exchange) -> None:
        """Serve ``ex``: the client sends its head and body through ``send``."""
        self.ex, ex.upstream = ex, self
        self.served += 1
        self._reset()
        if self.holding:
            ex.client.hold(True)
        ex.client.attached(ex)

    def send(self, data: bytes) -> None:
        """Bytes of the request."""
        if self.transport is not None and not self.closed:
            self.transport.write(data)

    def request_sent(self) -> None:
        """The whole request is upstream: from now on the upstream's timeout counts."""
        self.last = self.loop.time()
        self._arm(self.last + self.pool.timeout)

    def close(self) -> None:
        """Close the connection; the exchange it served (if any) is no longer its concern."""
        self.ex = None
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    # --- asyncio.Protocol ------------------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        ex = self.ex
        if ex is None:  # an idle upstream has nothing to say
            self.close()
            return
        self.last = self.loop.time()
        self.got = True
        try:
            self.parser.feed_data(data)
        except (HttpParserError, zlib.error) as exc:
            self.failure = self.failure or f"the {self.pool.name} process answered with a malformed response"
            log.warning("proxy: bad answer from upstream", extra={"upstream": self.pool.name, "error": str(exc)})
        if self.out:
            ex.client.relay(self.out)
        if self.failure:
            self._fail(ex)
        elif self.done:
            self._finish(ex)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()
        self.pool.lost(self)
        ex, self.ex = self.ex, None
        if ex is None:
            return
        ex.upstream = None
        self._unhold(ex)
        if self.started and not self.framed and not self.done:  # a body that ends with the connection: it ended
            self._end_body()
            ex.client.relay(self.out)
            ex.client.finished(ex)
        elif self.started:
            ex.client.cut(ex)
        elif self.served > 1 and not self.got and ex.retryable():  # the upstream closed a kept-alive connection
            ex.retried = True
            self.pool.acquire(ex)
        else:
            log.warning("proxy: upstream unavailable", extra={"upstream": self.pool.name, "error": "closed"})
            ex.client.failed(ex, 502, f"the {self.pool.name} process is not available")

    def pause_writing(self) -> None:  # the upstream is slow to take the request body: so is its client
        self.holding = True
        if self.ex is not None:
            self.ex.client.hold(True)

    def resume_writing(self) -> None:
        self.holding = False
        if self.ex is not None:
            self.ex.client.hold(False)

    def _unhold(self, ex: Exchange) -> None:
        if self.holding:
            ex.client.hold(False)
    def throttle(self, paused: bool) -> None:
        """Stop or go on reading the response while the client is slow to take it."""
        if self.transport is not None and not self.closed and paused != self.paused:
            self.paused = paused
            self.last = self.loop.time()
            (self.transport.pause_reading if paused else self.transport.resume_reading)()

    # --- httptools callbacks ---------------------------------------------------------------------------------------

    def on_status(self, reason: bytes) -> None:
        self.reason += reason

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.started or self.done:  # trailers are not relayed
            return
        rule = RESPONSE_RULES.get(name.lower(), KEEP)
        if rule == KEEP:
            self.lines.append(name + b": " + value + b"\r\n")
        elif rule == LENGTH:
            self.framed = True
        elif rule == ENCODING:
            coding = value.strip().lower()
            self.encoding = None if coding == b"identity" else coding
        elif rule == CONNECTION:
            self.tokens = self.tokens | connection_tokens(value)

    def on_headers_complete(self) -> None:
        status = self.parser.get_status_code()
        ex = self.ex
        if status < 200 or ex is None:  # 100 Continue, 103 Early Hints: the final answer follows
            self.interim = True
            return
        if self.encoding is not None:
            if self.encoding not in DECODED:
                self.failure = f"the {self.pool.name} process answered in an encoding the proxy cannot decode"
                return
            self.decoder = zlib.decompressobj(47)  # gzip or zlib, told apart by their headers
        no_body = ex.head_only or status in (204, 304)
        close = not ex.keep_alive or (ex.version == b"1.0" and not no_body) or ex.client.stopping
        ex.keep_alive = not close
        self.chunked = not no_body and ex.version != b"1.0"
        lines = self.lines
        if self.tokens:
            lines = [line for line in lines if line.split(b":", 1)[0].lower() not in self.tokens]
        self.out.append(b"".join((b"HTTP/1.1 %d %s\r\n" % (status, self.reason), *lines,
                                  CHUNKED if self.chunked else b"", CLOSE if close else b"", b"\r\n")))
        self.started = True
        if ex.head_only:  # the parser cannot be told to expect no body: this connection ends here
            self.done = True

    def on_body(self, body: bytes) -> None:
        if self.done or self.failure:
            return
        if self.decoder is not None:
            body = self.decoder.decompress(body)
            if not body:
                return
        if self.chunked:
            self.out += (b"%x\r\n" % len(body), body, b"\r\n")
        else:
            self.out.append(body)

    def on_message_complete(self) -> None:
        if self.interim:
            self.interim = False
            self.reason, self.lines, self.tokens, self.encoding, self.framed = b"", [], frozenset(), None, False
            return
        if self.done or self.failure:
            return
        self._end_body()
        self.done = True
        ex = self.ex
        self.reusable = ex is not None and ex.complete and self.parser.should_keep_alive()

    # --- endings ---------------------------------------------------------------------------------------------------

    def _end_body(self) -> None:
        if self.decoder is not None:
            rest = self.decoder.flush()
            self.decoder = None
            if rest:
                self.on_body(rest)
        if self.chunked:
            self.out.append(LAST_CHUNK)

    def _finish(self, ex: Exchange) -> None:
        self.ex = ex.upstream = None
        self.throttle(False)
        self._unhold(ex)
        if self.reusable and not ex.client.stopping:
            self.last = self.loop.time()
            self._arm(self.last + UPSTREAM_IDLE)
            self.pool.release(self)
        else:
            self.close()
        ex.client.finished(ex)

    def _fail(self, ex: Exchange) -> None:
        ex.upstream = None
        self._unhold(ex)
        self.close()
        if self.started:
            ex.client.cut(ex)
        else:
            ex.client.failed(ex, 502, self.failure)

    def _arm(self, at: float) -> None:
        if at < self.timer_at and not self.closed:
            if self.timer is not None:
                self.timer.cancel()
            self.timer, self.timer_at = self.loop.call_at(at, self._on_timer), at

    def _on_timer(self) -> None:
        self.timer, self.timer_at = None, math.inf
        now, ex = self.loop.time(), self.ex
        if self.closed:
            return
        if ex is None:  # idle in the pool
            if now >= self.last + UPSTREAM_IDLE:
                self.close()
                return
            self._arm(self.last + UPSTREAM_IDLE)
        elif self.paused or not ex.complete:  # waiting on the client, not on the upstream
            self._arm(now + self.pool.timeout)
        elif now >= self.last + self.pool.timeout:
            self._unhold(ex)
            self.close()
            if self.started:
                ex.client.cut(ex)
            else:
                ex.upstream = None
                ex.client.failed(ex, 504, f"the {self.pool.name} process did not answer in time")
        else:
            self._arm(self.last + self.pool.timeout)
