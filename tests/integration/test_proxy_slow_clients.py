"""Slow clients at the proxy (SPEC sections 8 and 16): hundreds of uploads trickling in hold up nobody else, a body
that arrives too slowly gets 408, and a full pool gives 504 after a bounded wait instead of waiting without end."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from tasksvc_run.proxy import app as proxy_app
from tests.integration.proxy_helpers import proxy_at

UPLOADS = 300
ANSWER_WITHIN = 1.0  # seconds: /webhook and web reads while the uploads trickle in
SLOW_BODY = b"POST /api/me/preferences HTTP/1.1\r\nHost: tasks.test\r\nContent-Type: application/json\r\n" \
            b"Content-Length: 4000\r\n\r\n"


@dataclass
class Upstreams:
    """A bot and a web upstream on loopback; the web's /slow answers after ``slow_for`` seconds."""

    slow_for: float = 3.0
    bodies_started: int = 0
    servers: list[TestServer] = field(default_factory=list)

    async def handle(self, request: web.Request) -> web.Response:
        if request.body_exists:
            self.bodies_started += 1
        body = await request.read()
        if request.path == "/slow":
            await asyncio.sleep(self.slow_for)
        return web.json_response({"path": request.path, "size": len(body)})

    async def start(self) -> tuple[str, str]:
        for _ in range(2):
            app = web.Application()
            app.router.add_route("*", "/{tail:.*}", self.handle)
            server = TestServer(app, host="127.0.0.1")
            await server.start_server()
            self.servers.append(server)
        return tuple(str(s.make_url("")).rstrip("/") for s in self.servers)  # type: ignore[return-value]


@contextlib.asynccontextmanager
async def proxy_in_front(upstreams: Upstreams, **limits: object) -> AsyncIterator[str]:
    """The proxy in front of ``upstreams`` (``limits`` as make_proxy's keyword arguments); its base URL."""
    bot_url, web_url = await upstreams.start()
    try:
        async with proxy_at(bot_url, web_url, **limits) as proxy:
            yield f"http://127.0.0.1:{proxy.port}"  # type: ignore[attr-defined]
    finally:
        for upstream in upstreams.servers:
            await upstream.close()


@contextlib.asynccontextmanager
async def trickling(base: str, count: int, every: float = 0.5) -> AsyncIterator[list[asyncio.StreamReader]]:
    """``count`` raw connections that send a request head and then one byte of the body every ``every`` seconds."""
    host, port = base.removeprefix("http://").split(":")
    opened = [await asyncio.open_connection(host, int(port)) for _ in range(count)]
    for _, writer in opened:
        writer.write(SLOW_BODY + b"{")

    async def drip() -> None:
        while True:
            await asyncio.sleep(every)
            for _, writer in opened:
                if not writer.is_closing():
                    writer.write(b" ")

    dripping = asyncio.create_task(drip())
    try:
        yield [reader for reader, _ in opened]
    finally:
        dripping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await dripping
        for _, writer in opened:
            writer.close()
        await asyncio.gather(*(writer.wait_closed() for _, writer in opened), return_exceptions=True)


async def timed(session: aiohttp.ClientSession, method: str, url: str, **kw: object) -> tuple[int, float]:
    """The status and the seconds it took; a request that does not finish within 5 s counts as 0 after 5 s."""
    started = time.monotonic()
    try:
        async with session.request(method, url, timeout=aiohttp.ClientTimeout(total=5), **kw) as answer:  # type: ignore[arg-type]
            await answer.read()
            return answer.status, time.monotonic() - started
    except TimeoutError:
        return 0, time.monotonic() - started


async def status_line(reader: asyncio.StreamReader, within: float) -> bytes:
    async with asyncio.timeout(within):
        return await reader.readline()


@pytest.fixture(autouse=True)
def enough_file_descriptors() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * UPLOADS + 256  # client and proxy ends of each upload, the proxy's upstream side, the rest
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


async def test_webhook_and_web_reads_answer_within_a_second_while_300_uploads_trickle_in() -> None:
    upstreams = Upstreams()
    async with proxy_in_front(upstreams) as base, trickling(base, UPLOADS), aiohttp.ClientSession() as session:
        await asyncio.sleep(1.0)  # every upload is under way
        for _ in range(3):
            webhook = await timed(session, "POST", f"{base}/webhook", json={"event": "x"})
            page = await timed(session, "GET", f"{base}/api/me/tasks")
            assert webhook[0] == page[0] == 200, (webhook, page)
            assert webhook[1] < ANSWER_WITHIN, webhook
            assert page[1] < ANSWER_WITHIN, page
        assert upstreams.bodies_started == 3  # the slow bodies never took an upstream connection


async def test_a_body_that_trickles_past_the_deadline_gets_408() -> None:
    async with proxy_in_front(Upstreams(), body_limits=proxy_app.BodyLimits(idle=5.0, deadline=1.0)) as base, \
            trickling(base, 20, every=0.2) as readers:
        lines = await asyncio.gather(*(status_line(reader, within=10) for reader in readers))
    assert {line.split(b" ")[1] for line in lines} == {b"408"}


async def test_a_body_that_stops_coming_gets_408_after_the_idle_limit() -> None:
    async with proxy_in_front(Upstreams(), body_limits=proxy_app.BodyLimits(idle=0.5, deadline=60.0)) as base, \
            trickling(base, 5, every=30.0) as readers:
        lines = await asyncio.gather(*(status_line(reader, within=10) for reader in readers))
    assert {line.split(b" ")[1] for line in lines} == {b"408"}


async def test_a_large_body_that_stalls_while_streaming_upstream_gets_408() -> None:
    head = (b"POST /upload HTTP/1.1\r\nHost: tasks.test\r\nContent-Length: 200000\r\n\r\n" + b"x" * 100_000)
    limits = proxy_app.BodyLimits(idle=0.5, deadline=60.0, buffered=1024)  # streamed, not buffered
    async with proxy_in_front(Upstreams(), body_limits=limits) as base:
        host, port = base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(head)
        try:
            line = await status_line(reader, within=10)
        finally:
            writer.close()
            await writer.wait_closed()
    assert line.split(b" ")[1] == b"408"


async def test_a_full_web_pool_gives_504_after_a_bounded_wait_and_the_bot_is_not_held_up() -> None:
    pools = proxy_app.PoolLimits(sizes={"bot": 4, "web": 4, "dev": 1}, wait=0.3)
    async with proxy_in_front(Upstreams(slow_for=3.0), pool_limits=pools) as base, \
            aiohttp.ClientSession() as session:
        holding = [asyncio.create_task(timed(session, "GET", f"{base}/slow")) for _ in range(4)]
        await asyncio.sleep(0.5)  # the four slow requests hold the whole web pool
        waiting = await timed(session, "GET", f"{base}/api/me/tasks")
        webhook = await timed(session, "POST", f"{base}/webhook", json={"event": "x"})
        held = await asyncio.gather(*holding)
    assert waiting[0] == 504
    assert waiting[1] < 2.0  # the pool wait (0.3 s), not the slow requests' 3 s
    assert webhook[0] == 200
    assert [status for status, _ in held] == [200] * 4
