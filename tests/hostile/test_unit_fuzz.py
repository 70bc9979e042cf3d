"""Fuzzing the whole unit through its public port: hypothesis builds requests from the real routes with hostile
pieces (methods, path segments, queries, headers, bodies, with and without a session) and gateway-like events for
/webhook, and sends them as raw bytes. No answer is a 5xx, no event makes the bot fail, and the same processes keep
running.

tests/integration/test_web_fuzz.py fuzzes the web app alone from its OpenAPI document, and
tests/property/test_webhook_properties.py the bot app alone; this adds the proxy and the real processes in between.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.conftest import GROUP, Running
from tests.property.test_webhook_properties import json_values, near_events

ROUTES = ["/", "/grupos", "/grupos/{id}", "/recordatorios", "/login", "/logout", "/health", "/metrics", "/webhook",
          "/webhook/{id}", "/api/me/tasks", "/api/me/groups", "/api/me/preferences", "/api/groups/{id}/tasks",
          "/api/tasks/{id}", "/api/tasks/{id}/claim", "/api/tasks/{id}/unassign", "/api/tasks/{id}/complete",
          "/api/openapi.json", "/static/app.js", "/static/{id}", "/api/tasks", "/api/groups/{id}/members"]
METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"]
QUERY_NAMES = ["page", "limit", "search", "status", "soonDays", "dueBefore", "token", "x"]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])
LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])

odd_text = st.one_of(st.text(max_size=30), st.sampled_from(
    ["..", "%2e%2e", "\x00", "\udcff", "<script>", "1;DROP TABLE tasks", "%", "\\", "_", "' OR 1=1 --", GROUP,
     "9" * 40, "-1", "0", "1e3", "nan", "２"]))
header_values = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"),
                        max_size=40)


def _quote(text: str, safe: str) -> str:
    """Percent-encoded UTF-8; a lone surrogate stands for a byte that is not UTF-8 (%FF)."""
    return quote(text, safe=safe, errors="surrogateescape")


@st.composite
def hostile_requests(draw: st.DrawFn, cookie: str) -> bytes:
    """A well-framed HTTP/1.1 request with hostile contents."""
    method = draw(st.sampled_from(METHODS) | st.from_regex(r"[A-Z]{1,10}", fullmatch=True))
    path = draw(st.sampled_from(ROUTES)).replace("{id}", _quote(draw(odd_text), draw(st.sampled_from(["", "/%"]))))
    query = draw(st.dictionaries(st.sampled_from(QUERY_NAMES) | st.text(max_size=8), odd_text, max_size=4))
    if query:
        path += "?" + "&".join(f"{_quote(k, '')}={_quote(v, draw(st.sampled_from(['', '%'])))}"
                               for k, v in query.items())
    body = draw(st.none() | json_values.map(lambda v: json.dumps(v).encode()) | st.binary(max_size=200))
    headers = [b"Host: tasks.test"]
    if draw(st.booleans()):
        headers.append(b"Cookie: " + cookie.encode())
    if body is not None:
        kind = draw(st.sampled_from(["application/json", "application/json; charset=latin-1", "text/plain",
                                     "multipart/form-data; boundary=x", ""]))
        headers += [b"Content-Type: " + kind.encode(), b"Content-Length: %d" % len(body)]
    for name, value in draw(st.dictionaries(st.from_regex(r"X-[A-Za-z0-9-]{1,12}", fullmatch=True), header_values,
                                            max_size=3)).items():
        headers.append(name.encode() + b": " + value.encode("latin-1"))
    return (method.encode() + b" " + path.encode("utf-8", "surrogateescape") + b" HTTP/1.1\r\n"
            + b"".join(h + b"\r\n" for h in headers) + b"\r\n" + (body or b""))


@pytest.fixture(scope="module")
def session_cookie(running: Running) -> str:
    running.say("/t nueva una tarea para el fuzz")
    return running.cookie()


def _requests_never_get_a_5xx(running: Running, cookie: str, examples: settings) -> None:
    @examples
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        request = data.draw(hostile_requests(cookie))
        status = running.raw(request)
        assert 0 < status < 500, request[:300]

    check()
    assert running.still_running()


def test_requests_built_from_the_routes_never_get_a_5xx(running: Running, session_cookie: str) -> None:
    _requests_never_get_a_5xx(running, session_cookie, FAST)


@pytest.mark.slow
def test_three_thousand_hostile_requests_never_get_a_5xx(running: Running, session_cookie: str) -> None:
    _requests_never_get_a_5xx(running, session_cookie, LONG)


def _events_never_make_the_bot_fail(running: Running, examples: settings) -> None:
    before = len(_failures(running))

    @examples
    @given(payload=json_values | near_events(), path=st.sampled_from(["/webhook", "/webhook/messages-upsert"]))
    def check(payload: object, path: str) -> None:
        answer = running.request("POST", path, body=json.dumps(payload).encode(),
                                 headers={"Content-Type": "application/json"})
        assert answer.status in (200, 400), answer

    check()
    assert running.still_running()
    running.say("/t ver")  # processed after everything before it: the bot's log is complete up to here
    assert _failures(running)[before:] == []


def _failures(running: Running) -> list[str]:
    return [line[:300] for line in running.unit.log_path.read_text(errors="replace").splitlines()
            if "proc=bot" in line and "level=error" in line]


def test_gateway_like_events_through_the_proxy_never_make_the_bot_fail(running: Running) -> None:
    _events_never_make_the_bot_fail(running, FAST)


@pytest.mark.slow
def test_three_thousand_gateway_like_events_never_make_the_bot_fail(running: Running) -> None:
    _events_never_make_the_bot_fail(running, LONG)
