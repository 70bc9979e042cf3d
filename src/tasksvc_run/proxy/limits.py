"""What the proxy allows a client and an upstream: body size and pace, request head size, pool sizes and waits
(SPEC sections 8 and 16). Constants rather than settings: no upload in this service needs more."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

MAX_BODY = 10 * 1024 * 1024  # request bodies over this get 413
MAX_LINE = 8190  # request target, as aiohttp's server allowed (414 past it)
MAX_FIELD = 16384  # one header, name and value (431 past it)
MAX_HEADERS = 128  # header lines in one request (431 past it)
MAX_HEAD = 64 * 1024  # the whole request head (431 past it)
KEEP_ALIVE = 75.0  # seconds an idle client connection stays open, as aiohttp's server kept it
UPSTREAM_IDLE = 30.0  # seconds an idle upstream connection stays in its pool
CONNECT_TIMEOUT = 5.0  # seconds to open a connection to an upstream (at most PROXY_UPSTREAM_TIMEOUT_MS)


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """How long a client may take to send its request (head and body), and how much of the body is read before an
    upstream connection is taken: a client that trickles its body in holds nothing but its own socket."""

    idle: float = 10.0  # seconds without a byte of the body
    deadline: float = 30.0  # seconds for the whole head, and again for the whole body
    buffered: int = 64 * 1024  # bytes read whole before an upstream connection is taken


@dataclass(frozen=True, slots=True)
class PoolLimits:
    """Connections each upstream may hold at once, and how long a request waits for one when its pool is full
    (at most PROXY_UPSTREAM_TIMEOUT_MS) before it gets 504."""

    sizes: Mapping[str, int] = field(default_factory=lambda: {"bot": 64, "web": 128, "dev": 16})
    wait: float = 5.0
