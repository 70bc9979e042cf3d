"""Serving a client connection: each request read (reader.py) is answered here (/health), refused with its problem,
or handed to its upstream's pool once enough of it is read, then answered in order: pipelined requests wait their
turn, and the connection is kept alive between them.

A body up to ``BodyLimits.buffered`` bytes is read whole before an upstream connection is taken, so a client that
trickles it in holds nothing but its own socket; a larger one streams through once its first part is here. A request
the proxy will not forward gets its problem answer when its turn comes; then the connection stops reading, and closes
once the client stops sending (at most LINGER seconds), so that the client reads the answer.
"""

from __future__ import annotations

import logging
from functools import partial

from tasksvc_run.proxy.exchange import Exchange
from tasksvc_run.proxy.heads import CHUNKED, CONTINUE, health, problem
from tasksvc_run.proxy.reader import BODY, PIPELINED, UPSTREAM, Context, RequestReader

__all__ = ["ClientConnection", "Context"]
log = logging.getLogger(__name__)
LINGER = 2.0  # seconds a refused client may go on sending (discarded) so that it reads the answer


class ClientConnection(RequestReader):
    """The proxy's side of one client's connection."""

    health_asked: Exchange | None = None  # the /health request whose answer the bot is asked for

    # --- asyncio.Protocol ------------------------------------------------------------------------------------------

    def connection_lost(self, exc: Exception | None) -> None:
        self._drop()
        self.ctx.connections.discard(self)
        if self.ctx.stopping and not self.ctx.connections:
            self.ctx.drained.set()
        if self.timer is not None:
            self.timer.cancel()

    def pause_writing(self) -> None:
        self.slow_reader = True
        if self.queue and (up := self.queue[0].upstream) is not None:
            up.throttle(True)

    def resume_writing(self) -> None:
        self.slow_reader = False
        if self.queue and (up := self.queue[0].upstream) is not None:
            up.throttle(False)


    # --- serving the queue -----------------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Move the first request of the queue on: answer it here, or hand it to its pool once enough is read."""
        if not self.queue:
            if self.refusal is not None:
                self._linger()
            elif self.stopping and not self.gone:
                self._close()
            return
        ex = self.queue[0]
        if not ex.head_done or ex.asked or self.gone:
            return
        if ex.head.expect is not None and not ex.complete and not ex.continued:
            ex.continued = True
            self._write(CONTINUE)
        if ex.route == "health":
            bot = self.ctx.health
            if ex.complete and bot is None:
                self._answer(ex, health(close=self._closes(ex), head_only=ex.head_only))
            elif ex.complete and bot is not None and self.health_asked is not ex:
                self.health_asked = ex
                bot.ask(partial(self._healthy, ex))
        elif ex.complete or ex.size > self.ctx.limits.buffered:
            ex.asked = True
            self.ctx.pools[ex.route].acquire(ex)
            if ex.upstream is None and not ex.complete:
                self._hold(BODY)

    def _healthy(self, ex: Exchange, status: int, body: bytes) -> None:
        """The bot said how the store is: answer ``ex`` with it, if it is still this connection's turn."""
        if not self.gone and self.queue and self.queue[0] is ex:
            self._answer(ex, health(close=self._closes(ex), head_only=ex.head_only, status=status, body=body))

    def attached(self, ex: Exchange) -> None:
        """The pool gave ``ex`` a connection: send its head and what there is of its body."""
        up = ex.upstream
        assert up is not None  # noqa: S101
        if self.slow_reader:
            up.throttle(True)
        length, body = ex.head.length, ex.body
        if ex.complete:
            framing = b"Content-Length: %d\r\n" % ex.size if ex.size or length is not None else b""
        else:
            ex.streaming, ex.body = True, []
            framing = b"Content-Length: " + length + b"\r\n" if length is not None else CHUNKED
            if length is None:
                body = [b"%x\r\n%s\r\n" % (len(piece), piece) for piece in body]
        up.send(b"".join((ex.method, b" ", ex.target, b" HTTP/1.1\r\n", *ex.head.forwarded_lines(ex.route == "web"),
                          self.forwarded, b"X-Forwarded-Host: ", ex.head.host or self.local, b"\r\n", framing,
                          b"\r\n", *body)))
        if ex.complete:
            up.request_sent()
        self._release(BODY)

    def relay(self, out: list[bytes]) -> None:
        """Bytes of the first request's answer, from its upstream."""
        self._write(out[0] if len(out) == 1 else b"".join(out))
        out.clear()

    def finished(self, ex: Exchange) -> None:
        """The first request's answer is all written."""
        if self.queue and self.queue[0] is ex:
            self.queue.popleft()
        if not ex.complete:  # answered before its body was all here: the rest is read and dropped, then goodbye
            self.reading, self.refusal = None, b""
            self._linger()
            return
        if self._closes(ex):
            self._close()
            return
        if len(self.queue) <= 1:
            self._release(PIPELINED)
        self._advance()

    def failed(self, ex: Exchange, status: int, detail: str) -> None:
        """The first request could not be forwarded: its problem answer (nothing of another answer was sent)."""
        ex.upstream = None
        if not self.gone and self.queue and self.queue[0] is ex:
            self._answer(ex, problem(status, detail, close=self._closes(ex), head_only=ex.head_only))

    def cut(self, ex: Exchange) -> None:
        """The first request's answer broke off after its head was sent: all that is left is to close."""
        ex.upstream = None
        self._close()

    def hold(self, on: bool) -> None:
        """Stop or go on reading while the upstream is slow to take the body it is sent."""
        (self._hold if on else self._release)(UPSTREAM)

    # --- the rest --------------------------------------------------------------------------------------------------

    def _closes(self, ex: Exchange) -> bool:
        return not ex.keep_alive or not ex.complete or self.stopping

    def _answer(self, ex: Exchange, data: bytes) -> None:
        self.queue.popleft()
        self._write(data)
        self.finished(ex)

    def _refuse(self, status: int, detail: str) -> None:
        """The request being read gets ``status`` when its turn comes; nothing more is read from this client."""
        ex, self.reading = self.reading, None
        self.refusal = problem(status, detail, close=True, head_only=ex is not None and ex.head_only)
        if ex is None or ex not in self.queue:
            return
        self.queue.remove(ex)
        ex.cancelled = True
        if ex.upstream is not None:
            up, ex.upstream = ex.upstream, None
            if up.started:  # its answer had begun: it cannot be followed by another
                self.refusal = b""
            up.close()
        elif ex.asked:
            self.ctx.pools[ex.route].cancel(ex)

    def _linger(self) -> None:
        """Write the refusal, stop writing, and give the client LINGER seconds to stop sending before closing."""
        transport = self.transport
        if transport is None or self.gone or self.refusal is None:
            return
        self._write(self.refusal)
        self.refusal = b""
        self._release(PIPELINED | BODY | UPSTREAM)
        if transport.can_write_eof():
            transport.write_eof()
        self.gone = True
        self._arm(self.loop.time() + LINGER, force=True)

    def close(self) -> None:
        """Close the connection now (what was written still goes out)."""
        self._close()

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        self._drop()

    def _drop(self) -> None:
        """Let go of every upstream connection and pool place this client's requests hold."""
        self.gone = True
        for ex in self.queue:
            ex.cancelled = True
            if ex.upstream is not None:
                up, ex.upstream = ex.upstream, None
                up.close()
            elif ex.asked:
                self.ctx.pools[ex.route].cancel(ex)
        self.queue.clear()
