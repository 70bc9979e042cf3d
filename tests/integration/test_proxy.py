"""The proxy (seed R1-R3, R6; SPEC section 8) in front of two real loopback upstreams."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from tasksvc_run.proxy.app import MAX_BODY, route
from tests.integration.proxy_helpers import ProxyClient, proxy_at


@dataclass
class Upstream:
    """A loopback app that echoes what it received, and can be slow or compress on request."""

    name: str
    seen: list[dict[str, object]] = field(default_factory=list)
    health: tuple[int, dict[str, str]] = (200, {"status": "ok"})  # its /health (the bot's word on its database)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        if request.path == "/health":  # the proxy asking on the side, not a request it forwards
            return web.json_response(self.health[1], status=self.health[0])
        self.seen.append({"method": request.method, "path": request.rel_url.raw_path_qs,
                          "headers": dict(request.headers), "size": len(body)})
        if request.path == "/slow":
            await asyncio.sleep(2)
        if request.path == "/gzip":
            data = gzip.compress(b"hola " * 100)
            return web.Response(body=data, headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding",
                                                    "Content-Type": "text/plain"})
        return web.json_response({"upstream": self.name, "size": len(body)},
                                 headers={"Connection": "X-Secret-Hop", "X-Secret-Hop": "1", "X-Kept": "yes"})

    def app(self) -> web.Application:
        app = web.Application(client_max_size=20 * MAX_BODY)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        return app


Stack = tuple[ProxyClient, Upstream, Upstream, TestServer]


@pytest.fixture
async def stack() -> AsyncIterator[Stack]:
    """The proxy in front of two upstreams, answering 504 when one takes more than 0.3 s."""
    async for built in _stack(timeout_ms=300):
        yield built


@pytest.fixture
async def roomy_stack() -> AsyncIterator[Stack]:
    """The same with the default upstream timeout, for work that takes time on a busy machine (10 MiB bodies)."""
    async for built in _stack(timeout_ms=30_000):
        yield built


async def _stack(*, timeout_ms: int) -> AsyncIterator[Stack]:
    bot, webapp = Upstream("bot"), Upstream("web")
    bot_server, web_server = TestServer(bot.app(), host="127.0.0.1"), TestServer(webapp.app(), host="127.0.0.1")
    await bot_server.start_server()
    await web_server.start_server()
    async with proxy_at(str(bot_server.make_url("")).rstrip("/"), str(web_server.make_url("")).rstrip("/"),
                        PROXY_UPSTREAM_TIMEOUT_MS=str(timeout_ms)) as proxy:
        client = ProxyClient(proxy.port)  # type: ignore[attr-defined]
        try:
            yield client, bot, webapp, web_server
        finally:
            await client.close()
    await bot_server.close()
    await web_server.close()


@pytest.mark.parametrize(("path", "target"), [
    ("/webhook", "bot"), ("/webhook/messages-upsert", "bot"), ("/metrics", "bot"), ("/health", "health"),
    ("/metrics/x", "web"), ("/webhooks", "web"), ("/", "web"), ("/api/me/tasks", "web"), ("/login", "web"),
])
def test_r2_r3_paths_are_routed_to_bot_health_or_web(path: str, target: str) -> None:
    assert route(path) == target


async def test_health_is_answered_by_the_proxy(stack: tuple) -> None:  # type: ignore[type-arg]
    client, bot, webapp, _ = stack
    response = await client.get("/health")
    assert (response.status, await response.json()) == (200, {"status": "ok"})
    assert bot.seen == webapp.seen == []


async def test_webhook_posts_reach_the_bot_with_body_method_and_query(stack: tuple) -> None:  # type: ignore[type-arg]
    client, bot, webapp, _ = stack
    response = await client.post("/webhook/messages-upsert?x=1", data=b"{}" * 1000)
    assert (await response.json()) == {"upstream": "bot", "size": 2000}
    assert bot.seen[0]["method"] == "POST"
    assert bot.seen[0]["path"] == "/webhook/messages-upsert?x=1"
    assert webapp.seen == []


async def test_everything_else_reaches_the_web(stack: tuple) -> None:  # type: ignore[type-arg]
    client, _, webapp, _ = stack
    response = await client.patch("/api/tasks/1?a=%20b", json={"description": "x"})
    assert (await response.json())["upstream"] == "web"
    assert webapp.seen[0]["path"] == "/api/tasks/1?a=%20b"


async def test_forwarded_headers_are_added_and_hop_by_hop_ones_dropped(stack: tuple) -> None:  # type: ignore[type-arg]
    client, _, webapp, _ = stack
    response = await client.get("/x", headers={"Keep-Alive": "timeout=5", "X-Custom": "1", "Connection": "X-Custom"})
    headers = webapp.seen[0]["headers"]
    assert isinstance(headers, dict)
    assert headers["X-Forwarded-For"] == "127.0.0.1"
    assert headers["X-Forwarded-Proto"] == "http"
    assert "X-Forwarded-Host" in headers
    assert "Keep-Alive" not in headers
    assert "X-Custom" not in headers  # named by Connection, so hop-by-hop
    assert response.headers["X-Kept"] == "yes"
    assert "X-Secret-Hop" not in response.headers


async def test_the_clients_own_forwarded_headers_are_replaced_by_what_the_proxy_sees(stack: tuple) -> None:  # type: ignore[type-arg]
    client, _, webapp, _ = stack
    await client.get("/x", headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https",
                                    "X-Forwarded-Host": "evil.example", "X-Forwarded-Port": "443",
                                    "Forwarded": "for=203.0.113.9;proto=https", "X-Real-IP": "203.0.113.9"})
    headers = webapp.seen[0]["headers"]
    assert isinstance(headers, dict)
    assert (headers["X-Forwarded-For"], headers["X-Forwarded-Proto"]) == ("127.0.0.1", "http")
    assert headers["X-Forwarded-Host"] == f"127.0.0.1:{client.port}"
    assert not {"X-Forwarded-Port", "Forwarded", "X-Real-IP"} & set(headers)


async def test_r6_the_web_is_asked_for_identity_even_when_the_client_wants_gzip(stack: tuple) -> None:  # type: ignore[type-arg]
    client, _, webapp, _ = stack
    await client.get("/", headers={"Accept-Encoding": "gzip, br"})
    headers = webapp.seen[0]["headers"]
    assert isinstance(headers, dict)
    assert headers["Accept-Encoding"] == "identity"


async def test_r6_responses_lose_content_encoding_vary_and_content_length(stack: tuple) -> None:  # type: ignore[type-arg]
    client, *_ = stack
    response = await client.get("/gzip", headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
    body = await response.read()
    assert body == b"hola " * 100  # decoded by the proxy, sent as identity
    for name in ("Content-Encoding", "Vary", "Content-Length"):
        assert name not in response.headers


async def test_bodies_over_10_mib_get_413(roomy_stack: Stack) -> None:
    client, *_ = roomy_stack
    response = await client.post("/api/x", data=io.BytesIO(b"x" * (MAX_BODY + 1)))
    assert response.status == 413
    assert response.content_type == "application/problem+json"

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(11):
            yield b"y" * (1024 * 1024)

    chunked = await client.post("/api/y", data=chunks())
    assert chunked.status == 413


async def test_a_body_of_exactly_10_mib_passes(roomy_stack: Stack) -> None:
    client, *_ = roomy_stack
    response = await client.post("/api/x", data=io.BytesIO(b"x" * MAX_BODY))
    assert (await response.json())["size"] == MAX_BODY


async def test_a_down_upstream_gives_502_and_health_stays_200(stack: tuple) -> None:  # type: ignore[type-arg]
    client, _, _, web_server = stack
    await web_server.close()
    response = await client.get("/api/me/tasks")
    assert response.status == 502
    assert json.loads(await response.text())["status"] == 502
    assert (await client.get("/health")).status == 200


UNWRITABLE = {"status": "unavailable", "problem": "the database does not take writes", "database": "/app/data/tasks.db",
              "reason": "attempt to write a readonly database"}


async def test_health_is_503_naming_the_database_when_the_bot_says_it_takes_no_writes(stack: tuple) -> None:  # type: ignore[type-arg]
    client, bot, _, _ = stack
    bot.health = (503, UNWRITABLE)
    response = await client.get("/health")
    assert response.status == 503
    assert json.loads(await response.text()) == UNWRITABLE
    assert [seen["path"] for seen in bot.seen] == []  # asked on the side, not forwarded as a request
    await asyncio.sleep(1.1)  # one answer serves a second; then the bot is asked again
    bot.health = (200, {"status": "ok"})
    response = await client.get("/health")
    assert (response.status, await response.text()) == (200, '{"status":"ok"}')


async def test_health_stays_200_when_the_bot_does_not_answer() -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on: a bot that is gone
        probe.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{probe.getsockname()[1]}"
    async with proxy_at(nobody, nobody) as proxy:
        client = ProxyClient(proxy.port)  # type: ignore[attr-defined]
        try:
            response = await client.get("/health")
            assert (response.status, await response.text()) == (200, '{"status":"ok"}')
        finally:
            await client.close()


async def test_a_page_asked_for_while_the_web_is_still_starting_waits_for_it() -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on yet: the web process still starting
        probe.bind(("127.0.0.1", 0))
        web_port = probe.getsockname()[1]
    bot_server, web_server = TestServer(Upstream("bot").app(), host="127.0.0.1"), None
    await bot_server.start_server()
    try:
        async with proxy_at(str(bot_server.make_url("")).rstrip("/"), f"http://127.0.0.1:{web_port}") as proxy:
            client = ProxyClient(proxy.port)  # type: ignore[attr-defined]
            try:
                asking = asyncio.create_task(client.get("/api/me/tasks"))
                await asyncio.sleep(0.3)
                assert not asking.done()  # refused so far: waited for, not answered 502
                web_server = TestServer(Upstream("web").app(), host="127.0.0.1", port=web_port)
                await web_server.start_server()
                response = await asyncio.wait_for(asking, 10)
                assert response.status == 200
                assert json.loads(await response.text())["upstream"] == "web"
                await web_server.close()  # once it has answered, a web that is down is 502 at once
                assert (await client.get("/api/me/tasks")).status == 502
            finally:
                await client.close()
    finally:
        await bot_server.close()
        if web_server is not None:
            await web_server.close()


async def test_a_slow_upstream_gives_504(stack: tuple) -> None:  # type: ignore[type-arg]
    client, *_ = stack
    response = await client.get("/slow")
    assert response.status == 504
    assert response.content_type == "application/problem+json"


async def test_the_proxy_survives_a_client_that_goes_away(stack: tuple) -> None:  # type: ignore[type-arg]
    client, *_ = stack
    with pytest.raises(TimeoutError):
        await client.get("/slow", timeout=aiohttp.ClientTimeout(total=0.05))
    assert (await client.get("/health")).status == 200


async def test_no_answer_names_the_server_software(stack: tuple) -> None:  # type: ignore[type-arg]
    client, _, _, _ = stack  # the stand-in upstreams are plain aiohttp apps: they send "Server: Python/… aiohttp/…"
    for path in ("/x", "/health", "/webhook"):
        response = await client.get(path)
        assert "Server" not in response.headers, path
