"""The proxy's pure pieces: routing (R2, R3), request targets, header filtering in one pass, canned answers, and the
composition of make_proxy (SPEC section 8)."""

from __future__ import annotations

import asyncio
import json

import pytest

from taskcore.settings import load_settings
from tasksvc_run.proxy.app import make_proxy
from tasksvc_run.proxy.heads import Refused, RequestHead, health, problem, request_target, route, route_raw
from tasksvc_run.proxy.pool import Pool


@pytest.mark.parametrize(("path", "dev", "target"), [
    ("/dev/chat", True, "dev"), ("/dev/chat", False, "web"), (b"/%77ebhook", False, "bot"),
    (b"/webhook%2fx", False, "bot"), (b"/%68ealth", False, "health"),
])
def test_routing_reads_the_path_as_the_upstreams_will(path: str | bytes, dev: bool, target: str) -> None:
    found = route_raw(path, dev=dev) if isinstance(path, bytes) else route(path, dev=dev)
    assert found == target


@pytest.mark.parametrize(("url", "expected"), [
    (b"/a/b?c=d#frag", (b"/a/b", b"/a/b?c=d")),
    (b"http://evil.example", (b"/", b"/")),
    (b"https://evil.example/x?y=1", (b"/x", b"/x?y=1")),
])
def test_targets_are_sent_upstream_in_origin_form(url: bytes, expected: tuple[bytes, bytes]) -> None:
    assert request_target(url) == expected


@pytest.mark.parametrize("url", [b"*", b"example.com:443", b"http://[bad"])
def test_other_target_forms_are_refused_with_400(url: bytes) -> None:
    with pytest.raises(Refused) as refused:
        request_target(url)
    assert refused.value.status == 400


def test_the_bot_gets_the_clients_accept_encoding_and_the_web_identity() -> None:
    head = RequestHead()
    for name, value in [(b"Host", b"h"), (b"Accept-Encoding", b"gzip"), (b"Connection", b"X-Hop, close"),
                        (b"X-Hop", b"1"), (b"X-Kept", b"2")]:
        head.add(name, value)
    assert head.forwarded_lines(web=False) == [b"Host: h\r\n", b"X-Kept: 2\r\n", b"Accept-Encoding: gzip\r\n"]
    assert head.forwarded_lines(web=True) == [b"Host: h\r\n", b"X-Kept: 2\r\n", b"Accept-Encoding: identity\r\n"]


def test_canned_answers_are_whole_http_responses() -> None:
    head, _, body = problem(504, "slow", close=True).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 504 Gateway Timeout\r\n")
    assert b"Connection: close" in head
    assert json.loads(body) == {"type": "about:blank", "title": "Gateway Timeout", "status": 504, "detail": "slow"}
    assert problem(502, "x", close=False, head_only=True).endswith(b"\r\n\r\n")
    assert health(close=False, head_only=False).endswith(b'\r\n\r\n{"status":"ok"}')
    assert health(close=True, head_only=True).endswith(b"Connection: close\r\n\r\n")


def test_upstreams_are_plain_http_urls() -> None:
    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(ValueError, match="http://"):
            Pool(loop, "web", "https://127.0.0.1:1", size=1, wait=1.0, timeout=1.0)
    finally:
        loop.close()


def test_the_dev_upstream_exists_in_development_only() -> None:
    dev = make_proxy(load_settings({"NODE_ENV": "development"}), dev_url="http://127.0.0.1:1")
    prod = make_proxy(load_settings({"NODE_ENV": "test", "BOT_PORT": "4001"}), dev_url="http://127.0.0.1:1")
    assert dev.upstreams["dev"] == "http://127.0.0.1:1"
    assert prod.upstreams == {"bot": "http://127.0.0.1:4001", "web": "http://127.0.0.1:3008"}
