"""Odd requests at the public port: traversal, very long paths, header bombs, NUL and non-UTF-8 bytes, bad framing,
oversized bodies. Each gets an answer below 500 (most a 4xx), nothing escapes the routes, and the same processes keep
running (SPEC section 8: the proxy itself never crashes).
"""

from __future__ import annotations

import json

import pytest

from tests.hostile.conftest import Running


def get(target: bytes, *headers: bytes) -> bytes:
    """A GET request line with a Host header and ``headers``."""
    return b"GET " + target + b" HTTP/1.1\r\nHost: tasks.test\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n"


def post(target: bytes, body: bytes, *headers: bytes) -> bytes:
    """A POST with ``body`` and a matching Content-Length unless ``headers`` frame it otherwise."""
    framing = () if any(h.lower().startswith((b"content-length", b"transfer-encoding")) for h in headers) else (
        b"Content-Length: %d" % len(body),)
    return (b"POST " + target + b" HTTP/1.1\r\nHost: tasks.test\r\n"
            + b"".join(h + b"\r\n" for h in (*framing, *headers)) + b"\r\n" + body)


# name: (request bytes, the statuses it may get)
MUST_BE_4XX = {
    "a 100 KiB path": get(b"/" + b"a" * 100_000),
    "a raw NUL in the query": get(b"/api/me/tasks?search=a\x00b"),
    "raw non-UTF-8 bytes in the path": get(b"/\xff\xfe"),
    "a space in the path": get(b"/a b"),
    "two hundred headers": get(b"/", *(b"X-H%d: v" % i for i in range(200))),
    "a 20 KiB header": get(b"/", b"X-Big: " + b"a" * 20_000),
    "a 15 KiB cookie": get(b"/api/me/tasks", b"Cookie: tasksvc_session=" + b"a" * 15_000),
    "a 9 KiB Host": get(b"/", b"Host: " + b"h" * 9000),
    "a control byte in a header": get(b"/", b"X-A: a\x01b"),
    "a body announced over 10 MiB": post(b"/webhook", b"", b"Content-Length: 20000000"),
    "a Content-Length that is not a number": post(b"/webhook", b"", b"Content-Length: abc"),
    "a negative Content-Length": post(b"/webhook", b"", b"Content-Length: -1"),
    "Content-Length and chunked together": post(b"/webhook", b"0\r\n\r\n", b"Content-Length: 4",
                                                 b"Transfer-Encoding: chunked"),
    "a bad chunk size": post(b"/webhook", b"zz\r\n\r\n", b"Transfer-Encoding: chunked"),
    "an unknown transfer coding": post(b"/webhook", b"", b"Transfer-Encoding: gzip"),
    "an unknown method": b"FOO / HTTP/1.1\r\nHost: tasks.test\r\n\r\n",
    "HTTP/9.9": b"GET / HTTP/9.9\r\nHost: tasks.test\r\n\r\n",
    "no Host in HTTP/1.1": b"GET / HTTP/1.1\r\n\r\n",
    "a TLS hello on the plain port": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 50 + b"\r\n\r\n",
}
NOT_FOUND_OR_NOT_SIGNED_IN = {
    "../ in the path": get(b"/../../etc/passwd"),
    "%2e%2e in the path": get(b"/%2e%2e/%2e%2e/etc/passwd"),
    "../ under /static/": get(b"/static/../../../../etc/passwd"),
    "%2e%2e under /static/": get(b"/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd"),
    "backslashes under /static/": get(b"/static\\..\\..\\etc\\passwd"),
    "a double slash": get(b"//etc/passwd"),
    "../ out of /webhook": post(b"/webhook/../api/me/tasks", b"{}"),
    "an encoded slash after /webhook": get(b"/webhook%2f..%2fapi"),
    "../ out of /metrics": get(b"/metrics/../api/me/tasks"),
    "an 8000-byte path": get(b"/" + b"a" * 8000),
    "an encoded NUL in the path": get(b"/grupos/%00"),
    "encoded non-UTF-8 in the path": get(b"/grupos/%ff%fe"),
    "an encoded NUL in the query": get(b"/api/me/tasks?search=a%00b"),
    "encoded non-UTF-8 in the query": get(b"/api/me/tasks?search=%ff%fe"),
    "non-UTF-8 in a header value": get(b"/", b"X-A: \xff\xfe"),
    "non-UTF-8 in the cookie": get(b"/api/me/tasks", b"Cookie: tasksvc_session=\xff\xfe"),
    "an encoded traversal as a group id": get(b"/api/groups/%2e%2e%2fme/tasks"),
    "an absolute URI": get(b"http://evil.example/"),
    "CONNECT": b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "OPTIONS *": b"OPTIONS * HTTP/1.1\r\nHost: tasks.test\r\n\r\n",
    "a 1500-hop X-Forwarded-For": get(b"/", b"X-Forwarded-For: " + b"1.1.1.1, " * 1500),
}


@pytest.mark.parametrize("request_bytes", MUST_BE_4XX.values(), ids=MUST_BE_4XX.keys())
def test_malformed_or_oversized_requests_get_a_4xx(running: Running, request_bytes: bytes) -> None:
    status = running.raw(request_bytes)
    assert 400 <= status < 500 or (status == 0 and request_bytes.startswith(b"\x16")), status


@pytest.mark.parametrize("request_bytes", NOT_FOUND_OR_NOT_SIGNED_IN.values(), ids=NOT_FOUND_OR_NOT_SIGNED_IN.keys())
def test_odd_paths_never_leave_the_routes_and_never_get_a_5xx(running: Running, request_bytes: bytes) -> None:
    status = running.raw(request_bytes)
    assert 200 <= status < 500, status


@pytest.mark.parametrize("request_bytes", NOT_FOUND_OR_NOT_SIGNED_IN.values(), ids=NOT_FOUND_OR_NOT_SIGNED_IN.keys())
def test_odd_paths_with_a_session_never_get_a_5xx(running: Running, request_bytes: bytes) -> None:
    cookie = running.cookie().encode()
    status = running.raw(request_bytes.replace(b"\r\n\r\n", b"\r\nCookie: " + cookie + b"\r\n\r\n", 1))
    assert 200 <= status < 500, status


def test_traversal_never_serves_a_file_from_outside_the_static_folder(running: Running) -> None:
    for target in ("/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                   "/static/..%2f..%2f..%2f..%2fetc%2fpasswd", "/static/app.js/../../../pyproject.toml"):
        answer = running.request("GET", target)
        assert answer.status in (400, 403, 404), (target, answer.status)
        assert b"root:" not in answer.body
        assert b"[project]" not in answer.body


def test_a_streamed_body_over_10_mib_gets_413(running: Running) -> None:
    chunk = b"x" * (1024 * 1024)
    body = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(11)) + b"0\r\n\r\n"
    status = running.raw(post(b"/webhook", body, b"Transfer-Encoding: chunked", b"Content-Type: application/json"))
    assert status == 413


def test_a_2_mib_body_within_the_proxys_limit_is_read_by_the_bot_not_refused(running: Running) -> None:
    # SPEC 28: the bot's limit is the proxy's 10 MiB (it was aiohttp's 1 MiB); this body is JSON, but no event
    body = b'{"event": "messages.upsert", "data": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    answer = running.request("POST", "/webhook", body=body, headers={"Content-Type": "application/json"})
    assert (answer.status, json.loads(answer.body)) == (200, {"status": "ignored", "reason": "malformed data"})


def test_the_same_processes_are_still_running_after_all_of_it(running: Running) -> None:
    for request_bytes in [*MUST_BE_4XX.values(), *NOT_FOUND_OR_NOT_SIGNED_IN.values()]:
        running.raw(request_bytes)
    assert running.still_running()
