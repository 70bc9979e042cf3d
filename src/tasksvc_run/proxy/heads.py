"""The heads the proxy reads and writes, as bytes, each header looked at once (seed R2, R3, R6; SPEC sections 8, 16).

A request keeps every header but the hop-by-hop ones (those named by its Connection header too) and the client's own
claims of origin (X-Forwarded-*, Forwarded, X-Real-IP); the proxy adds X-Forwarded-For/-Proto/-Host as it sees the
request, and asks the web for identity (R6). A response loses the hop-by-hop headers, Content-Encoding, Vary and
Content-Length (R6); this hop frames it again.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from urllib.parse import unquote_to_bytes

from httptools import HttpParserInvalidURLError, parse_url

from tasksvc_run.proxy.limits import MAX_FIELD, MAX_HEADERS, MAX_LINE

HOP_BY_HOP = frozenset({
    b"connection", b"keep-alive", b"proxy-authenticate", b"proxy-authorization", b"te", b"trailer", b"trailers",
    b"transfer-encoding", b"upgrade", b"proxy-connection",
})
KEEP, DROP, CONNECTION, HOST, LENGTH, EXPECT, ENCODING = range(7)
# What one pass does with a header, by its lower-cased name; names absent here are kept (KEEP).
REQUEST_RULES: dict[bytes, int] = {
    **dict.fromkeys(HOP_BY_HOP, DROP), b"connection": CONNECTION, b"forwarded": DROP, b"x-real-ip": DROP,
    b"host": HOST, b"content-length": LENGTH, b"expect": EXPECT, b"accept-encoding": ENCODING,
}
RESPONSE_RULES: dict[bytes, int] = {
    **dict.fromkeys(HOP_BY_HOP, DROP), b"connection": CONNECTION, b"transfer-encoding": LENGTH,
    b"content-length": LENGTH, b"vary": DROP, b"content-encoding": ENCODING,
    b"server": DROP,  # no answer names the server's software (SPEC section 32)
}
FORWARDED_PREFIX = b"x-forwarded-"
CHUNKED = b"Transfer-Encoding: chunked\r\n"
CLOSE = b"Connection: close\r\n"
LAST_CHUNK = b"0\r\n\r\n"
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


class Refused(Exception):
    """A request the proxy answers itself with a problem (its status and detail) and then closes."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail


def route(path: str, *, dev: bool = False) -> str:
    """Which upstream serves a path: "bot", "health", "dev" (development's local gateway) or "web" (R2, R3)."""
    return route_raw(path.encode("utf-8", "surrogateescape"), dev=dev)


def route_raw(path: bytes, *, dev: bool = False) -> str:
    """``route`` of a path as it came on the wire (percent-decoded first, as the upstreams will read it)."""
    if b"%" in path:
        path = unquote_to_bytes(path)
    if path == b"/webhook" or path.startswith(b"/webhook/") or path == b"/metrics":
        return "bot"
    if path == b"/health":
        return "health"
    if dev and path.startswith(b"/dev/"):
        return "dev"
    return "web"


class RequestHead:
    """The headers of one request, filtered as they arrive: the lines to forward and what the proxy must know."""

    __slots__ = ("accept", "count", "expect", "host", "length", "lines", "tokens")

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.count = 0
        self.host: bytes | None = None
        self.length: bytes | None = None
        self.expect: bytes | None = None
        self.accept: bytes | None = None  # the client's Accept-Encoding line: the bot gets it, the web gets identity
        self.tokens: frozenset[bytes] = frozenset()

    def add(self, name: bytes, value: bytes) -> None:
        """One header of the request; Refused past the limits or for a second Host."""
        self.count += 1
        if self.count > MAX_HEADERS or len(name) + len(value) > MAX_FIELD:
            raise Refused(431, "the request's headers are too large")
        lower = name.lower()
        rule = REQUEST_RULES.get(lower, KEEP)
        if rule == KEEP:
            if not lower.startswith(FORWARDED_PREFIX):
                self.lines.append(name + b": " + value + b"\r\n")
        elif rule == HOST:
            if self.host is not None:
                raise Refused(400, "a request carries one Host header")
            self.host = value
            self.lines.append(b"Host: " + value + b"\r\n")
        elif rule == LENGTH:
            self.length = value
        elif rule == ENCODING:
            self.accept = name + b": " + value + b"\r\n"
        elif rule == EXPECT:
            self.expect = value.lower()
        elif rule == CONNECTION:
            self.tokens = self.tokens | connection_tokens(value)

    def forwarded_lines(self, web: bool) -> list[bytes]:
        """The lines to forward: those a Connection header named dropped, Accept-Encoding as R6 wants it."""
        lines = self.lines
        if self.tokens:
            lines = [line for line in lines if line.split(b":", 1)[0].lower() not in self.tokens]
        if web:
            return [*lines, b"Accept-Encoding: identity\r\n"]
        return [*lines, self.accept] if self.accept and b"accept-encoding" not in self.tokens else lines


def connection_tokens(value: bytes) -> frozenset[bytes]:
    """The header names a Connection header marks as hop-by-hop."""
    return frozenset(t.strip().lower() for t in value.split(b",") if t.strip())


def request_target(url: bytes) -> tuple[bytes, bytes]:
    """The path (for routing) and the origin-form target (path and query, no fragment) to send upstream; Refused
    for the authority and asterisk forms, which this proxy does not serve."""
    if b"#" in url:
        url = url.split(b"#", 1)[0]
    if url.startswith(b"/"):
        return url.split(b"?", 1)[0], url
    if url.startswith((b"http://", b"https://")):  # absolute form: the path is what counts, never the host
        try:
            parsed = parse_url(url)
        except HttpParserInvalidURLError:
            raise Refused(400, "the request target is not a valid URL") from None
        path = parsed.path or b"/"
        return path, path + (b"?" + parsed.query if parsed.query else b"")
    raise Refused(400, "the request target must be a path (origin form)")


def check_url(url: bytes) -> None:
    """Refused (414) past the request-line limit."""
    if len(url) > MAX_LINE:
        raise Refused(414, "the request target is too long")


def problem(status: int, detail: str, *, close: bool, head_only: bool = False) -> bytes:
    """A whole ``application/problem+json`` response (RFC 9457), as the shells' problems are shaped."""
    phrase = HTTPStatus(status).phrase
    body = json.dumps({"type": "about:blank", "title": phrase, "status": status, "detail": detail},
                      ensure_ascii=False).encode()
    head = (f"HTTP/1.1 {status} {phrase}\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n{'Connection: close' + chr(13) + chr(10) if close else ''}\r\n")
    return head.encode() if head_only else head.encode() + body


HEALTH_BODY = b'{"status":"ok"}'
HEALTH_HEAD = b"Content-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n"


def health(*, close: bool, head_only: bool, status: int = 200, body: bytes = HEALTH_BODY) -> bytes:
    """GET /health, answered by the proxy itself: 200 ``{"status":"ok"}``, or the bot's 503 naming a database that
    does not take writes (proxy/health.py)."""
    phrase = b"OK" if status == 200 else HTTPStatus(status).phrase.encode()
    return (b"HTTP/1.1 %d %s\r\n" % (status, phrase) + HEALTH_HEAD % len(body) + (CLOSE if close else b"") + b"\r\n"
            + (b"" if head_only else body))
