"""API fuzzing from the OpenAPI document: any path value, query and body gives a documented answer, never a 5xx.

Hypothesis draws an operation of the document, values for its path and query parameters (from the documented
shapes and from arbitrary text) and a body (schema-shaped, arbitrary JSON, or not JSON at all), sends it to the app
on a real loopback socket, and checks the status is documented and the body matches the documented schema.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from taskcore.services.devseed import seed_dev_data
from taskcore.services.web_auth import issue_login_token, redeem_login_token
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tasksvc_run.web.routes import document
from tasksvc_run.web.session import COOKIE
from tests.builders import NOW, TODAY
from tests.integration.web_helpers import ME, ThreadedServer, check_documented, threaded_app, web_settings

SEEDED_GROUPS = ["120363401000000001@g.us", "5491100000000-1580000000@g.us", "120363401000000004@g.us"]
REQUEST_TIMEOUT = 10.0


@dataclass(frozen=True)
class Target:
    server: ThreadedServer
    cookie: str


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    db = Database.from_url(sqlite_url(Path(tmp_path_factory.mktemp("fuzz")) / "tasks.db"))
    migrator.migrate(db)
    units.run(db, seed_dev_data, default_user=ME, now=NOW, today=TODAY)
    session = units.run(db, redeem_login_token, token=units.run(db, issue_login_token, user_id=ME, now=NOW), now=NOW)
    # A generous bucket, so the handlers rather than the rate limit see most requests.
    with threaded_app(web_settings(RATE_LIMIT_PER_MIN="1000000"), db) as server:
        yield Target(server, f"{COOKIE}={session.session_id}")
    db.dispose()


OPERATIONS = [(path, method, op) for path, item in document()["paths"].items() for method, op in item.items()]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
texts = st.text(max_size=40)
seeded_ids = st.integers(1, 33).map(str)
path_values = st.one_of(seeded_ids, seeded_ids, st.integers(-3, 40).map(str), st.integers(0, 10**30).map(str),
                        st.text(min_size=1, max_size=40).filter(lambda v: v not in (".", "..")),  # values, not syntax
                        st.sampled_from(SEEDED_GROUPS), st.sampled_from([g.replace("@", "%40") for g in SEEDED_GROUPS]))
query_values = st.one_of(texts, st.integers(-10**6, 10**25).map(str), st.sampled_from(
    ["true", "false", "1", "0", "open", "recent", "2026-11-22", "2026-02-30", "", "%", "\\", "_"]))

# Plausible values per body field, so that many requests get past parsing to the use cases.
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "freq": st.sampled_from(["off", "daily", "weekly", "weekdays", "diario", ""]) | json_values,
    "time": st.sampled_from(["08:30", "7:5", "23:59", "24:00", "7.30", None]) | json_values,
    "due_date": st.sampled_from(["2026-12-01", "2026-02-30", "01/12/2026", None]) | json_values,
    "description": st.text(max_size=20) | st.sampled_from(["<b>x</b>", " ", "x" * 1001, "\x00"]) | json_values,
    "completion": st.sampled_from(["any", "each", "todos", "", None]) | json_values,
    "tz": st.sampled_from(["America/Bogota", "europe/madrid", "Europe/Atlantis", "", "../etc", None]) | json_values,
    "recurrence": st.sampled_from([None, "cada lunes"]) | json_values,
    "name": st.text(max_size=70) | st.sampled_from(["Home Assistant", "", "x" * 61, "<b>x</b>"]) | json_values,
    "lang": st.sampled_from(["es", "pt", "en", "fr", "PT", "", None]) | json_values,
    "group_id": st.sampled_from([*SEEDED_GROUPS, "1@g.us", " 1@g.us", None]) | json_values,
    "assignees": st.lists(st.sampled_from([ME, "34600000002", "p_" + "a" * 24, "x", ""]) | texts, max_size=3)
    | json_values,
    "confirm": st.sampled_from([True, False, None, "yes"]) | json_values,
    "quiet": st.sampled_from([{"from": "22:00", "to": "07:00"}, {"from": "8:00", "to": "8:00"}, None]) | json_values,
    "away_until": st.sampled_from(["2026-12-01", "2020-01-01", "2026-02-30", None]) | json_values,
    "points": st.sampled_from([1, 5, 10, 0, 11, 3.0, 2.5, "3", True, None]) | json_values,
    "nag": st.sampled_from([{"every_hours": 24}, {"every_hours": 0}, {"every_hours": 169}, {}, None]) | json_values,
    "reason": st.text(max_size=20) | st.sampled_from(["hoy no", "x" * 301, "\x00", None]) | json_values,
    "items": st.lists(st.sampled_from(["horno", "", " ", "x" * 201, "a|b"]) | texts, max_size=22)
    | json_values,  # a checklist (SPEC section 41)
}


def _property_names(op: dict[str, Any]) -> list[str]:
    body = op.get("requestBody")
    if body is None:
        return []
    if "application/json" not in body["content"]:  # a CSV file to import (SPEC section 35)
        return []
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    return list(document()["components"]["schemas"][ref]["properties"])


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, str, dict[str, str], bytes | None]:
    """(document path, method, URL, headers, body) of one request."""
    path, method, op = draw(st.sampled_from(OPERATIONS))
    url = path.replace("{id}", quote(draw(path_values), safe="%@"))
    url = url.replace("{rid}", quote(draw(path_values), safe="%@"))  # a reward of a group (SPEC section 34)
    url = url.replace("{n}", quote(draw(path_values), safe="%@"))  # an item of a task's checklist (SPEC section 41)
    names = [p["name"] for p in op["parameters"] if p["in"] == "query"]
    query = draw(st.dictionaries(st.sampled_from(names) if names else texts, query_values, max_size=4)
                 | st.dictionaries(texts, texts, max_size=2))
    if query:
        url += "?" + urlencode(query)
    own = {name: FIELD_VALUES[name] for name in _property_names(op)}
    shaped = st.fixed_dictionaries({}, optional=own) if own else st.none()
    body = draw(st.one_of(shaped, shaped, shaped, st.none(), json_values.map(lambda v: {"x": v}), json_values))
    raw = None if body is None else json.dumps(body).encode()
    if draw(st.integers(0, 4)) == 0:
        raw = draw(st.sampled_from([b"{", b"\xff\xfe", b"[" * 5000, b""]))
    types = ["application/json"] * 4 + ["application/json; charset=utf-8", "text/plain", "text/csv", None]
    content_type = draw(st.sampled_from(types))
    headers = {"Content-Type": content_type} if content_type and raw is not None else {}
    return path, method.upper(), url, headers, raw


def send(target: Target, method: str, url: str, headers: dict[str, str], body: bytes | None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", target.server.port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request(method, url, body=body, headers={"Cookie": target.cookie, **headers})
        response = conn.getresponse()
        kind, raw = response.getheader("Content-Type", ""), response.read()
    finally:
        conn.close()
    if response.status == 204:  # revocations (SPEC 22): no body at all
        assert (kind, raw) == ("", b""), (url, kind, raw)
        return 204, None
    if kind.split(";")[0] == "text/csv":  # an export (SPEC section 35): a string, as the document says
        return response.status, raw.decode("utf-8-sig")
    assert kind.split(";")[0] in ("application/json", "application/problem+json"), (response.status, kind, raw)
    return response.status, json.loads(raw)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request=requests())
@example(request=("/api/groups/{id}/tasks", "GET", "/api/groups/%7B/tasks", {}, None))  # braces in a path value
@example(request=("/api/tasks/{id}", "PATCH", "/api/tasks/1", {"Content-Type": "application/json"}, b"[" * 5000))
def test_no_request_built_from_the_document_gets_a_5xx_or_an_undocumented_answer(
    target: Target, request: tuple[str, str, str, dict[str, str], bytes | None],
) -> None:
    path, method, url, headers, body = request
    status, answer = send(target, method, url, headers, body)
    event(f"{method} {path} -> {status}")
    assert status < 500, (url, body, answer)
    if status == 204:
        assert "content" not in document()["paths"][path][method.lower()]["responses"]["204"]
        return
    check_documented(document(), path, method, status, answer)
