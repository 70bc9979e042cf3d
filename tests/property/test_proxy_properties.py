"""The proxy forwards what a direct request would carry (SPEC section 8): on random methods, paths, queries, headers
and bodies, framed by Content-Length or chunked, the upstream sees through the proxy the same method, target, end-to-end
headers in their order and body bytes as when the same request is sent to it directly; only the hop-by-hop headers,
the client's claims of origin and the framing differ, as R6 and section 16 say; and the answer's body comes back as
the upstream sent it.

One proxy and one recording upstream run on a loop in a background thread (asyncio's, then uvloop's); each example
sends blocking requests.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from httptools import HttpRequestParser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskcore.settings import load_settings
from tasksvc_run.proxy.app import make_proxy, new_loop
from tests.integration.proxy_helpers import parse_answers

TIMEOUT = 10.0
DROPPED = {"connection", "keep-alive", "te", "trailer", "upgrade", "proxy-connection", "proxy-authorization",
           "forwarded", "x-real-ip", "content-length", "transfer-encoding", "accept-encoding", "host"}


class Recorder(asyncio.Protocol):
    """An upstream that records each request (method, target, headers in order, body) and answers with its body."""

    def __init__(self, seen: list[tuple[bytes, bytes, list[tuple[bytes, bytes]], bytes]]) -> None:
        self.seen, self.parser = seen, HttpRequestParser(self)
        self.url, self.headers, self.body = b"", [], b""  # type: ignore[var-annotated]
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.parser.feed_data(data)

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_body(self, body: bytes) -> None:
        self.body += body

    def on_message_complete(self) -> None:
        self.seen.append((self.parser.get_method(), self.url, self.headers, self.body))
        assert self.transport is not None
        self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(self.body), self.body))
        self.url, self.headers, self.body = b"", [], b""


@dataclass
class Running:
    """The loop thread, the recorder's port and records, and the proxy's port."""

    loop: asyncio.AbstractEventLoop
    upstream_port: int
    proxy_port: int
    seen: list[tuple[bytes, bytes, list[tuple[bytes, bytes]], bytes]]


@pytest.fixture(scope="module", params=[asyncio.new_event_loop, new_loop], ids=["asyncio", "uvloop"])
def running(request: pytest.FixtureRequest) -> Iterator[Running]:
    """The recorder and the proxy on asyncio's loop, then on uvloop's (`tasksvc proxy` serves on it)."""
    loop: asyncio.AbstractEventLoop = request.param()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    seen: list[tuple[bytes, bytes, list[tuple[bytes, bytes]], bytes]] = []

    async def start() -> tuple[asyncio.Server, object, int, int]:
        server = await loop.create_server(lambda: Recorder(seen), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        proxy = make_proxy(load_settings({"NODE_ENV": "test"}), bot_url=f"http://127.0.0.1:{port}",
                           web_url=f"http://127.0.0.1:{port}")
        return server, proxy, port, await proxy.start("127.0.0.1", 0)

    server, proxy, upstream_port, proxy_port = asyncio.run_coroutine_threadsafe(start(), loop).result(TIMEOUT)
    try:
        yield Running(loop, upstream_port, proxy_port, seen)
    finally:
        async def stop() -> None:
            await proxy.close(grace=1.0)  # type: ignore[attr-defined]
            server.close()  # on the loop's thread: from another, it races the last connection's detach
            await server.wait_closed()

        asyncio.run_coroutine_threadsafe(stop(), loop).result(TIMEOUT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(TIMEOUT)
        loop.close()


TOKEN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", min_size=1, max_size=12)
SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-._~%!$&'()*+,;=:@", min_size=0, max_size=12)
VALUE = st.binary(max_size=40).map(lambda b: bytes(c for c in b if c == 9 or 32 <= c < 127 or c >= 128).strip())


@st.composite
def requests(draw: st.DrawFn) -> tuple[bytes, bytes, list[tuple[bytes, bytes]], bytes, bool]:
    """Method, target, headers (end-to-end and droppable ones mixed), body, and whether to send it chunked."""
    method = draw(st.sampled_from([b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS"]))
    path = "/api/" + "/".join(draw(st.lists(SEGMENT, max_size=4)))  # the web route: Accept-Encoding is identity
    query = draw(st.one_of(st.just(""), st.text(alphabet="abc=&%20xyz/?:@", max_size=20).map(lambda q: "?" + q)))
    names = draw(st.lists(st.one_of(TOKEN.map(lambda t: "X-" + t), st.sampled_from(
        ["Cookie", "Accept", "User-Agent", "Keep-Alive", "X-Forwarded-For", "X-Forwarded-Proto", "Forwarded",
         "X-Real-IP", "Accept-Encoding", "TE", "Proxy-Authorization"])), max_size=8))
    headers = [(name.encode(), draw(VALUE)) for name in names]
    body = draw(st.binary(max_size=3000)) if method != b"GET" else b""
    return method, (path + query).encode(), headers, body, draw(st.booleans())


def send(port: int, request: bytes) -> bytes:
    """One request on a fresh connection; the answer's body."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(request)
        received = b""
        while not parse_answers(received):
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    answers = parse_answers(received)
    assert answers, received[:200]
    assert answers[0].status == 200, received[:200]
    return answers[0].body


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(requests())
def test_the_upstream_sees_through_the_proxy_what_it_sees_directly(running: Running, drawn: tuple) -> None:  # type: ignore[type-arg]
    method, target, headers, body, chunked = drawn
    framing = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % len(body)
    payload = (b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body) if body else b"0\r\n\r\n") if chunked else body
    request = (method + b" " + target + b" HTTP/1.1\r\nHost: tasks.test\r\n"
               + b"".join(n + b": " + v + b"\r\n" for n, v in headers) + framing + b"\r\n\r\n" + payload)
    running.seen.clear()
    assert send(running.upstream_port, request) == body
    assert send(running.proxy_port, request) == body
    (d_method, d_target, d_headers, d_body), (p_method, p_target, p_headers, p_body) = running.seen
    assert (p_method, p_target, p_body) == (d_method, d_target, d_body)

    def end_to_end(pairs: list[tuple[bytes, bytes]]) -> list[tuple[str, bytes]]:
        return [(n.decode().lower(), v) for n, v in pairs
                if n.decode().lower() not in DROPPED and not n.decode().lower().startswith("x-forwarded-")]

    assert end_to_end(p_headers) == end_to_end(d_headers)
    added = {n.decode().lower(): v for n, v in p_headers}
    assert added["x-forwarded-for"] == b"127.0.0.1"
    assert added["x-forwarded-proto"] == b"http"
    assert added["x-forwarded-host"] == added["host"] == b"tasks.test"
    assert added["accept-encoding"] == b"identity"
    assert not {"forwarded", "x-real-ip", "te", "keep-alive", "proxy-authorization"} & set(added)
