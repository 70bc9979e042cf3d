"""One request and its answer, from the first byte of its head until the last byte of its response: what the client
connection, the upstream connection and the pool share about it."""

from __future__ import annotations

from asyncio import TimerHandle
from typing import TYPE_CHECKING

from tasksvc_run.proxy.heads import RequestHead

if TYPE_CHECKING:
    from tasksvc_run.proxy.client import ClientConnection
    from tasksvc_run.proxy.upstream import UpstreamConnection

IDEMPOTENT = frozenset({b"GET", b"HEAD", b"OPTIONS", b"PUT", b"DELETE"})


class Exchange:
    """The request side's state (head, body received so far, whether it is all here) and who serves it."""

    __slots__ = (
        "asked", "body", "body_started", "cancelled", "client", "complete", "continued", "head", "head_bytes",
        "head_done", "keep_alive", "method", "path", "retried", "route", "size", "started", "streaming", "target",
        "upstream", "url", "version", "waiting",
    )

    def __init__(self, client: ClientConnection, now: float) -> None:
        self.client = client
        self.head = RequestHead()
        self.url = b""
        self.started = now  # when its first byte came: the head's deadline runs from here
        self.body_started = now
        self.head_done = False
        self.head_bytes = 0
        self.complete = False  # the whole request (head, body, trailers) has been read
        self.method = b"GET"
        self.version = b"1.1"
        self.path = b"/"
        self.target = b"/"
        self.route = "web"
        self.keep_alive = True
        self.body: list[bytes] = []  # received and not yet sent upstream (all of it, while it is buffered)
        self.size = 0
        self.upstream: UpstreamConnection | None = None
        self.streaming = False  # the head went upstream before the body was all here
        self.waiting: TimerHandle | None = None  # the pool-wait timer, while the pool is full
        self.asked = False  # handed to its pool
        self.continued = False  # 100 Continue was sent
        self.retried = False
        self.cancelled = False  # its client went away, or it was refused: a connection opened for it is not used

    @property
    def head_only(self) -> bool:
        """A HEAD request: its answer has no body."""
        return self.method == b"HEAD"

    def retryable(self) -> bool:
        """May go again on a fresh connection when a kept-alive one closed before answering: idempotent, sent whole,
        not retried yet."""
        return self.complete and not self.streaming and not self.retried and self.method in IDEMPOTENT
