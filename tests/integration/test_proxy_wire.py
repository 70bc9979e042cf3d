"""The proxy on the wire (SPEC section 8, R6): framing both ways (chunked, HEAD, 204/304, HTTP/1.0), Expect:
100-continue, pipelined and kept-alive requests, kept-alive upstream connections, and what happens when either side
goes away halfway. Raw bytes on loopback sockets, since clients hide framing; the upstream is a scripted loopback
server that answers each path with given bytes."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import pytest

from tasksvc_run.proxy.app import PoolLimits, Proxy
from tests.integration.proxy_helpers import Answer, Setup, get, proxy_at, raw_exchange, scripted


@pytest.fixture
async def setup() -> AsyncIterator[Setup]:
    async with scripted(PROXY_UPSTREAM_TIMEOUT_MS="2000") as built:
        yield built


async def one(proxy: Proxy, data: bytes, **kw: object) -> Answer:
    answers = await raw_exchange(proxy.port, data, **kw)  # type: ignore[attr-defined]
    assert len(answers) == 1, answers
    return answers[0]


async def test_a_chunked_response_reaches_the_client_chunked_with_its_body_whole(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/chunked"))
    assert (answer.status, answer.body) == (200, b"hello world")
    assert answer.headers["transfer-encoding"] == "chunked"
    assert answer.headers["x-kind"] == "chunked"
    assert "x-trailer" not in answer.headers


async def test_r6_a_content_length_response_is_re_framed_chunked(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/plain"))
    assert json.loads(answer.body) == {"target": "/plain", "size": 0}
    assert answer.headers["transfer-encoding"] == "chunked"
    assert "content-length" not in answer.headers


async def test_a_chunked_request_body_arrives_whole(setup: Setup) -> None:
    proxy, upstream = setup
    body = b"4\r\nabcd\r\n3\r\nefg\r\n0\r\n\r\n"
    answer = await one(proxy, get(b"/upload", b"Transfer-Encoding: chunked", method=b"POST") + body)
    assert json.loads(answer.body)["size"] == 7
    assert upstream.seen[0]["body"] == b"abcdefg"


async def test_a_large_chunked_request_body_streams_through_chunked() -> None:
    piece = b"z" * 50_000
    body = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(4)) + b"0\r\n\r\n"
    async with echo_proxy() as port:
        answers = await raw_exchange(port, get(b"/upload", b"Transfer-Encoding: chunked", method=b"POST") + body)
    assert json.loads(answers[0].body) == {"size": 200_000, "chunked": True}


async def test_head_gets_the_head_alone_and_the_connection_goes_on(setup: Setup) -> None:
    proxy, _ = setup
    answers = await raw_exchange(proxy.port, get(b"/plain", method=b"HEAD") + get(b"/again"), responses=2,  # type: ignore[attr-defined]
                                 heads=frozenset({0}))
    assert answers[0].status == 200
    assert "transfer-encoding" not in answers[0].headers
    assert answers[0].body == b""  # the next answer's head follows at once
    assert answers[1].status == 200


async def test_204_and_304_carry_no_body_and_no_framing(setup: Setup) -> None:
    proxy, _ = setup
    answers = await raw_exchange(proxy.port, get(b"/no-content") + get(b"/not-modified") + get(b"/after"),  # type: ignore[attr-defined]
                                 responses=3)
    assert [a.status for a in answers] == [204, 304, 200]
    for answer in answers[:2]:
        assert answer.body == b""
        assert not {"transfer-encoding", "content-length"} & set(answer.headers)
    assert answers[1].headers["etag"] == '"v1"'


async def test_an_interim_103_from_the_upstream_is_not_relayed(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/interim"))
    assert (answer.status, answer.body) == (200, b"final")


async def test_expect_100_continue_gets_100_then_the_answer(setup: Setup) -> None:
    proxy, upstream = setup
    reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
    try:
        writer.write(get(b"/upload", b"Content-Length: 5", b"Expect: 100-continue", method=b"POST"))
        async with asyncio.timeout(10):
            assert await reader.readuntil(b"\r\n\r\n") == b"HTTP/1.1 100 Continue\r\n\r\n"
            writer.write(b"12345")
            head = await reader.readuntil(b"\r\n\r\n")
    finally:
        writer.close()
    assert head.startswith(b"HTTP/1.1 200")
    assert upstream.seen[0]["body"] == b"12345"
    assert "Expect" not in dict(upstream.seen[0]["headers"])  # type: ignore[arg-type]


async def test_an_expectation_other_than_100_continue_gets_417(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/x", b"Expect: magic", b"Content-Length: 1", method=b"POST") + b"x")
    assert answer.status == 417
    assert answer.headers["content-type"] == "application/problem+json"


async def test_pipelined_requests_are_answered_in_order_on_one_kept_alive_upstream_connection(setup: Setup) -> None:
    proxy, upstream = setup
    webhook = get(b"/webhook", b"Content-Length: 2", method=b"POST") + b"{}"
    requests = get(b"/a") + get(b"/health") + webhook + get(b"/b")
    answers = await raw_exchange(proxy.port, requests, responses=4)  # type: ignore[attr-defined]
    assert [a.status for a in answers] == [200] * 4
    assert json.loads(answers[0].body)["target"] == "/a"
    assert json.loads(answers[1].body) == {"status": "ok"}
    assert json.loads(answers[2].body) == {"target": "/webhook", "size": 2}
    assert json.loads(answers[3].body)["target"] == "/b"
    ports = {seen["target"]: seen["port"] for seen in upstream.seen}
    assert ports[b"/a"] == ports[b"/b"]  # one kept-alive connection of the web's pool served both


async def test_an_http_1_0_client_gets_the_body_until_close(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/plain", version=b"1.0"))
    assert answer.headers["connection"] == "close"
    assert "transfer-encoding" not in answer.headers
    assert json.loads(answer.body)["target"] == "/plain"


async def test_an_absolute_url_is_forwarded_as_its_path_and_other_forms_are_refused(setup: Setup) -> None:
    proxy, upstream = setup
    answer = await one(proxy, b"GET http://evil.example/api/x?y=1 HTTP/1.1\r\nHost: evil.example\r\n\r\n")
    assert answer.status == 200
    assert upstream.seen[0]["target"] == b"/api/x?y=1"
    assert (await one(proxy, b"OPTIONS * HTTP/1.1\r\nHost: tasks.test\r\n\r\n")).status == 400
    assert (await one(proxy, b"CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example\r\n\r\n")).status == 405


async def test_an_upstream_that_cuts_its_answer_short_cuts_the_clients(setup: Setup) -> None:
    proxy, _ = setup
    reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
    writer.write(get(b"/cut"))
    async with asyncio.timeout(10):
        received = await reader.read()  # until the proxy closes
    writer.close()
    assert received.startswith(b"HTTP/1.1 200")
    assert b"only a part" in received
    assert not received.endswith(b"0\r\n\r\n")  # never made to look complete
    assert (await one(proxy, get(b"/health"))).status == 200


async def test_a_body_that_ends_with_the_upstreams_connection_is_relayed_whole(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/until-close"))
    assert (answer.status, answer.body) == (200, b"to the end")


async def test_an_encoding_the_proxy_cannot_undo_and_a_malformed_answer_get_502(setup: Setup) -> None:
    for path in (b"/brotli", b"/garbage"):
        answer = await one(setup[0], get(path))
        assert answer.status == 502, path
        assert json.loads(answer.body)["status"] == 502


async def test_an_upstream_that_hangs_up_without_answering_gives_502(setup: Setup) -> None:
    answer = await one(setup[0], get(b"/hang-up"))
    assert answer.status == 502


async def test_a_get_is_retried_once_when_a_kept_alive_connection_was_closed_but_a_post_is_not() -> None:
    async with scripted() as (proxy, upstream):
        upstream.hang_up_reused = True
        assert (await one(proxy, get(b"/first"))).status == 200
        assert (await one(proxy, get(b"/second"))).status == 200  # hung up on, then sent again on a new connection
        assert [seen["target"] for seen in upstream.seen] == [b"/first", b"/second", b"/second"]
        post = get(b"/webhook", b"Content-Length: 2", method=b"POST") + b"{}"
        assert (await one(proxy, post)).status == 200  # the bot's pool: a new connection
        assert (await one(proxy, post)).status == 502  # a POST may have been acted on: not sent twice


async def test_a_client_that_goes_away_mid_body_frees_its_upstream_connection() -> None:
    pools = PoolLimits(sizes={"bot": 1, "web": 1}, wait=2.0)
    async with echo_proxy(pool_limits=pools, buffered=1000) as port:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(get(b"/upload", b"Content-Length: 100000", method=b"POST") + b"x" * 5000)
        await writer.drain()
        await asyncio.sleep(0.2)  # streaming upstream: the only web connection is taken
        writer.close()
        answers = await raw_exchange(port, get(b"/next"))
    assert answers[0].status == 200  # not 504 after the pool wait


# --- an echo upstream on aiohttp for bodies the scripted one does not read ----------------------------------------


@contextlib.asynccontextmanager
async def echo_proxy(*, pool_limits: PoolLimits | None = None, buffered: int | None = None,
                     max_size: int = 20 * 1024 * 1024) -> AsyncIterator[int]:
    """The proxy in front of an aiohttp app that answers {"size", "chunked"} of each request's body; its port."""
    from aiohttp import web  # noqa: PLC0415 - only these tests need the aiohttp server

    from tasksvc_run.proxy.app import BodyLimits  # noqa: PLC0415

    async def echo(request: web.Request) -> web.Response:
        body = await request.read()
        return web.json_response({"size": len(body), "chunked": request.headers.get("Transfer-Encoding") == "chunked"})

    app = web.Application(client_max_size=max_size)
    app.router.add_route("*", "/{tail:.*}", echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    options: dict[str, object] = {"pool_limits": pool_limits} if pool_limits else {}
    if buffered is not None:
        options["body_limits"] = BodyLimits(buffered=buffered)
    try:
        async with proxy_at(url, url, **options) as proxy:
            yield proxy.port  # type: ignore[attr-defined]
    finally:
        await runner.cleanup()
