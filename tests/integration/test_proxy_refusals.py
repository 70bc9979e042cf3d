"""What the proxy refuses itself, and what it does for a client or an upstream that misbehaves (SPEC sections 8, 16):
oversized heads, a missing or doubled Host, protocol upgrades, heads that trickle in, compressed answers (R6), a
client slow to read a large answer, and a stop while requests are in flight."""

from __future__ import annotations

import asyncio
import json

import pytest

from tasksvc_run.proxy.app import BodyLimits, PoolLimits
from tests.integration.proxy_helpers import get, parse_answers, raw_exchange, scripted


async def status_of(port: int, data: bytes) -> int:
    answers = await raw_exchange(port, data)
    assert len(answers) == 1, answers
    return answers[0].status


async def test_heads_past_the_limits_are_refused_with_414_or_431() -> None:
    async with scripted() as (proxy, upstream):
        assert await status_of(proxy.port, get(b"/" + b"a" * 9000)) == 414  # type: ignore[attr-defined]
        many = [b"X-H%d: v" % i for i in range(129)]
        assert await status_of(proxy.port, get(b"/", *many)) == 431  # type: ignore[attr-defined]
        assert await status_of(proxy.port, get(b"/", b"X-Big: " + b"v" * 17_000)) == 431  # type: ignore[attr-defined]
        assert upstream.seen == []


async def test_a_doubled_or_missing_host_is_a_400() -> None:
    async with scripted() as (proxy, upstream):
        port = proxy.port  # type: ignore[attr-defined]
        assert await status_of(port, get(b"/", b"Host: other.test")) == 400
        assert await status_of(port, b"GET / HTTP/1.1\r\nX-A: 1\r\n\r\n") == 400
        answer = (await raw_exchange(port, b"GET /old HTTP/1.0\r\n\r\n"))[0]  # HTTP/1.0 may go without
        assert answer.status == 200
        host = dict(upstream.seen[0]["headers"])["X-Forwarded-Host"]  # type: ignore[call-overload]
        assert host == f"127.0.0.1:{port}"


async def test_an_upgrade_is_served_as_a_plain_request_then_the_connection_closes() -> None:
    async with scripted() as (proxy, upstream):
        upgrade = get(b"/ws", b"Connection: Upgrade", b"Upgrade: websocket") + get(b"/never")
        answers = await raw_exchange(proxy.port, upgrade, responses=2)  # type: ignore[attr-defined]
        assert [a.status for a in answers] == [200]
        assert answers[0].headers["connection"] == "close"
        assert [seen["target"] for seen in upstream.seen] == [b"/ws"]
        assert not {"Upgrade", "Connection"} & set(dict(upstream.seen[0]["headers"]))  # type: ignore[call-overload]
        with_body = get(b"/ws", b"Connection: Upgrade", b"Upgrade: h2c", b"Content-Length: 3", method=b"POST") + b"abc"
        assert await status_of(proxy.port, with_body) == 400  # type: ignore[attr-defined]


async def test_request_trailers_are_not_forwarded() -> None:
    async with scripted() as (proxy, upstream):
        body = b"3\r\nabc\r\n0\r\nX-Trailer: secret\r\n\r\n"
        answer = (await raw_exchange(proxy.port, get(b"/t", b"Transfer-Encoding: chunked", method=b"POST") + body))[0]  # type: ignore[attr-defined]
        assert json.loads(answer.body) == {"target": "/t", "size": 3}
        assert "X-Trailer" not in dict(upstream.seen[0]["headers"])  # type: ignore[call-overload]


async def test_a_head_that_trickles_in_gets_408() -> None:
    async with scripted(body_limits=BodyLimits(idle=5.0, deadline=0.5)) as (proxy, upstream):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: tasks.test\r\n")
            async with asyncio.timeout(10):
                line = await reader.readline()
        finally:
            writer.close()
        assert line.split(b" ")[1] == b"408"
        assert upstream.seen == []


async def test_r6_a_gzip_answer_is_decoded_and_loses_its_encoding_headers() -> None:
    async with scripted() as (proxy, _):
        answer = (await raw_exchange(proxy.port, get(b"/gzip")))[0]  # type: ignore[attr-defined]
        assert answer.body == b"hola " * 1000
        assert not {"content-encoding", "vary", "content-length"} & set(answer.headers)


async def test_a_client_slow_to_read_a_large_answer_gets_all_of_it() -> None:
    async with scripted() as (proxy, _):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port, limit=2**16)  # type: ignore[attr-defined]
        try:
            writer.write(get(b"/big") + get(b"/after"))
            await asyncio.sleep(0.5)  # nothing read: the proxy stops reading the upstream meanwhile
            received = b""
            async with asyncio.timeout(20):
                while b'"target": "/after"' not in received:
                    chunk = await reader.read(65536)
                    assert chunk, "closed early"
                    received += chunk
                    await asyncio.sleep(0)
        finally:
            writer.close()
        answers = parse_answers(received)
        assert len(answers[0].body) == 20_000_000
        assert json.loads(answers[1].body)["target"] == "/after"


async def test_a_stop_lets_requests_in_flight_finish_and_refuses_new_connections() -> None:
    async with scripted() as (proxy, _):
        port = proxy.port  # type: ignore[attr-defined]
        in_flight = asyncio.create_task(raw_exchange(port, get(b"/slow")))
        idle_reader, idle = await asyncio.open_connection("127.0.0.1", port)  # kept alive, asking nothing
        await asyncio.sleep(0.2)
        await proxy.close(grace=5.0)
        async with asyncio.timeout(5):
            assert await idle_reader.read() == b""  # closed at once
        idle.close()
        answers = await in_flight
        assert answers[0].status == 200
        assert answers[0].headers["connection"] == "close"
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return
        writer.close()
        raise AssertionError("the stopped proxy still accepts connections")


async def test_malformed_requests_get_400_with_a_problem() -> None:
    async with scripted() as (proxy, upstream):
        for request in (b"FOO / HTTP/1.1\r\nHost: tasks.test\r\n\r\n",
                        get(b"/x", b"Transfer-Encoding: chunked", method=b"POST") + b"zz\r\n\r\n"):
            answer = (await raw_exchange(proxy.port, request))[0]  # type: ignore[attr-defined]
            assert answer.status == 400
            assert json.loads(answer.body)["status"] == 400
        assert upstream.seen == []


async def test_a_head_over_64_kib_in_pieces_gets_431() -> None:
    async with scripted() as (proxy, _):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: tasks.test\r\n" + b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 1000)
                                                                        for i in range(70)))
            async with asyncio.timeout(10):
                line = await reader.readline()
        finally:
            writer.close()
        assert line.split(b" ")[1] == b"431"


async def test_requests_wait_for_a_full_pool_and_one_that_gives_up_waiting_holds_nothing() -> None:
    pools, bodies = PoolLimits(sizes={"bot": 1, "web": 1}, wait=5.0), BodyLimits(buffered=10)
    async with scripted(pool_limits=pools, body_limits=bodies) as (proxy, upstream):
        port = proxy.port  # type: ignore[attr-defined]
        first = asyncio.create_task(raw_exchange(port, get(b"/slow")))
        await asyncio.sleep(0.1)
        _, quitter = await asyncio.open_connection("127.0.0.1", port)
        quitter.write(get(b"/quitter", b"Content-Length: 100", method=b"PUT") + b"q" * 50)  # waits, then goes away
        await asyncio.sleep(0.1)
        quitter.close()
        second = await raw_exchange(port, get(b"/second"))  # waits, then takes the connection /slow gives back
        assert (await first)[0].status == second[0].status == 200
        assert [seen["target"] for seen in upstream.seen] == [b"/slow", b"/second"]


async def test_an_answer_that_stops_coming_is_cut_after_the_upstream_timeout() -> None:
    async with scripted(PROXY_UPSTREAM_TIMEOUT_MS="300") as (proxy, _):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
        writer.write(get(b"/stall"))
        async with asyncio.timeout(10):
            received = await reader.read()  # until the proxy closes, well before the upstream's 3 s
        writer.close()
        assert received.startswith(b"HTTP/1.1 200")
        assert received.endswith(b"half\r\n")


async def test_a_large_body_to_an_upstream_slow_to_take_it_arrives_whole() -> None:
    async with scripted(body_limits=BodyLimits(buffered=1024)) as (proxy, upstream):
        body = b"s" * 8_000_000
        answers = await raw_exchange(proxy.port, get(b"/sip", b"Content-Length: %d" % len(body), method=b"POST")  # type: ignore[attr-defined]
                                     + body)
        assert json.loads(answers[0].body) == {"target": "/sip", "size": len(body)}
        assert upstream.seen[0]["body"] == body


async def test_an_answer_before_the_body_is_all_here_reaches_the_client_and_the_rest_is_dropped() -> None:
    from tests.integration.test_proxy_wire import echo_proxy  # noqa: PLC0415 - its aiohttp upstream limits bodies

    async with echo_proxy(buffered=1024, max_size=1000) as port:
        answers = await raw_exchange(port, get(b"/upload", b"Content-Length: 300000", method=b"POST") + b"u" * 300000)
    assert answers[0].status == 413  # the upstream's own answer, relayed while the body was still coming


async def test_a_refused_client_that_keeps_its_connection_open_is_closed_after_the_linger() -> None:
    async with scripted() as (proxy, _):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
        try:
            writer.write(b"FOO / HTTP/1.1\r\n\r\n")
            async with asyncio.timeout(10):
                received = await reader.read()  # the answer, then the end of the stream after LINGER
        finally:
            writer.close()
        assert received.startswith(b"HTTP/1.1 400")


async def test_a_body_that_keeps_coming_within_the_idle_limit_is_not_cut() -> None:
    async with scripted(body_limits=BodyLimits(idle=0.3, deadline=10.0)) as (proxy, upstream):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
        try:
            writer.write(get(b"/drip", b"Content-Length: 8", method=b"POST"))
            for _ in range(8):
                await asyncio.sleep(0.1)
                writer.write(b"d")
            async with asyncio.timeout(10):
                line = await reader.readline()
        finally:
            writer.close()
        assert line.startswith(b"HTTP/1.1 200")
        assert upstream.seen[0]["body"] == b"d" * 8


async def test_idle_connections_are_closed_after_their_keep_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    from tasksvc_run.proxy import reader as reader_module  # noqa: PLC0415
    from tasksvc_run.proxy import upstream as upstream_module  # noqa: PLC0415

    monkeypatch.setattr(reader_module, "KEEP_ALIVE", 0.3)
    monkeypatch.setattr(upstream_module, "UPSTREAM_IDLE", 0.1)  # closed well before the client's: no race between them
    async with scripted() as (proxy, upstream):
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)  # type: ignore[attr-defined]
        try:
            writer.write(get(b"/one"))
            async with asyncio.timeout(10):
                await reader.readuntil(b"\r\n0\r\n\r\n")
                assert await reader.read() == b""  # closed by the proxy once idle
        finally:
            writer.close()
        await raw_exchange(proxy.port, get(b"/two"))  # type: ignore[attr-defined]
        ports = [seen["port"] for seen in upstream.seen]
        assert ports[0] != ports[1]  # the idle upstream connection was closed too


async def test_a_failure_inside_the_proxy_is_a_500_for_that_request_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from tasksvc_run.proxy import heads  # noqa: PLC0415

    def broken(self: heads.RequestHead, name: bytes, value: bytes) -> None:
        raise RuntimeError("bug")

    async with scripted() as (proxy, _):
        monkeypatch.setattr(heads.RequestHead, "add", broken)
        answer = (await raw_exchange(proxy.port, get(b"/x")))[0]  # type: ignore[attr-defined]
        assert answer.status == 500
        monkeypatch.undo()
        assert (await raw_exchange(proxy.port, get(b"/health")))[0].status == 200  # type: ignore[attr-defined]
