"""The calendar feed over HTTP (SPEC section 22): its address from the API, ``/cal/<token>.ics`` without a session,
the events checked one by one against the API's own list, ETag, rotation and revocation, and through the proxy."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from icalendar import Calendar
from multidict import CIMultiDict

from taskcore.services.calendar import issue_calendar_feed
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.proxy.app import route
from tasksvc_run.web import make_web_app
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group, make_task
from tests.integration.proxy_helpers import ProxyClient, proxy_at
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env, web_settings

BASE = "https://tareas.example"
FEED_TYPE = "text/calendar; charset=utf-8"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db, WEB_BASE_URL=BASE) as env:
        yield env


async def new_feed(web: WebEnv, user: str = ME) -> str:
    """POST /api/me/calendar as ``user``; the feed's path."""
    status, body = await web.call("POST", "/api/me/calendar", user=user)
    assert status == 201
    check_documented(document(), "/api/me/calendar", "POST", 201, body)
    assert body["url"].startswith(f"{BASE}/cal/")
    assert body["url"].endswith(".ics")
    return str(body["url"]).removeprefix(BASE)


async def fetch(web: WebEnv, path: str, **headers: str) -> tuple[int, CIMultiDict[str], bytes]:
    """GET without a session."""
    async with web.client.get(path, headers=headers) as response:
        return response.status, CIMultiDict(response.headers), await response.read()


async def api_open_tasks(web: WebEnv) -> list[dict[str, Any]]:
    """Every page of GET /api/me/tasks (open)."""
    items, page = [], 1
    while True:
        _, body = await web.call("GET", f"/api/me/tasks?limit=100&page={page}")
        items += body["items"]
        if not body["hasMore"]:
            return items
        page += 1


def seed_tasks(web: WebEnv) -> None:
    make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-12-20", description="Regar, plantas")
    make_task(web.db, creator=ME, group_id=None, due="2026-11-25", description="Pagar la luz; ya")
    make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME, OTHER), due="2026-11-22", description="Cena")
    make_task(web.db, creator=ME, group_id=None, description="Sin fecha")
    make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(OTHER,), due="2026-11-23", description="De otro")
    for n in range(105):  # more than one page of the API
        make_task(web.db, creator=ME, group_id=None, due=f"2027-01-{n % 28 + 1:02d}", description=f"Tarea {n}")


async def test_the_feed_has_one_event_per_open_dated_task_of_the_apis_list(web: WebEnv) -> None:
    seed_tasks(web)
    status, headers, body = await fetch(web, await new_feed(web))
    assert (status, headers["Content-Type"]) == (200, FEED_TYPE)
    events = {str(e["uid"]): e for e in Calendar.from_ical(body).walk("VEVENT")}
    expected = [item for item in await api_open_tasks(web) if item["due_date"] is not None]
    assert len(expected) == 108
    assert sorted(events) == sorted(f"task-{item['id']}@tareas.example" for item in expected)
    for item in expected:
        event = events[f"task-{item['id']}@tareas.example"]
        assert str(event["summary"]) == f"#{item['id']} {item['description']}"
        assert event.decoded("dtstart") == date.fromisoformat(item["due_date"])
        assert (event.decoded("dtend") - event.decoded("dtstart")).days == 1
        where = f"Grupo: {item['group_name']}" if item["group_id"] else "Tarea personal"
        assert str(event["description"]).startswith(where + "\n")


async def test_no_session_is_needed_and_a_browsers_session_changes_nothing(web: WebEnv) -> None:
    make_task(web.db, creator=ME, group_id=None, due="2026-11-30", description="Mía")
    make_task(web.db, creator=OTHER, group_id=None, due="2026-11-30", description="Suya")
    path = await new_feed(web)
    async with web.client.get(path, headers=web.session_for(OTHER)) as response:
        body = await response.read()
    summaries = [str(e["summary"]) for e in Calendar.from_ical(body).walk("VEVENT")]
    assert len(summaries) == 1
    assert summaries[0].endswith("Mía")


async def test_the_etag_round_trip_answers_304_until_a_task_changes(web: WebEnv) -> None:
    task = make_task(web.db, creator=ME, group_id=None, due="2026-11-30")
    path = await new_feed(web)
    status, headers, _ = await fetch(web, path)
    etag = headers["ETag"]
    assert headers["Cache-Control"] == "private, no-cache"
    for condition in (etag, f"W/{etag}", f'"nope", {etag}', "*"):
        status, again, body = await fetch(web, path, **{"If-None-Match": condition})
        assert (status, body, again["ETag"]) == (304, b"", etag)
    assert (await fetch(web, path, **{"If-None-Match": '"nope"'}))[0] == 200
    await web.call("PATCH", f"/api/tasks/{task.id}", json={"due_date": "2026-12-01"})
    status, changed, body = await fetch(web, path, **{"If-None-Match": etag})
    assert status == 200
    assert changed["ETag"] != etag
    assert b"DTSTART;VALUE=DATE:20261201" in body


async def test_a_shared_task_leaves_my_feed_with_my_part_and_changes_the_others_feed(web: WebEnv) -> None:
    task = make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME, OTHER), due="2026-11-30", each=True)
    mine, theirs = await new_feed(web), await new_feed(web, OTHER)
    _, _, before = await fetch(web, mine)
    _, their_headers, _ = await fetch(web, theirs)
    assert len(Calendar.from_ical(before).walk("VEVENT")) == 1
    status, item = await web.call("POST", f"/api/tasks/{task.id}/complete")
    assert (status, item["completed"]) == (200, False)
    assert [open_item["id"] for open_item in await api_open_tasks(web)] == [task.id]  # still open, part done
    _, _, after = await fetch(web, mine)
    assert Calendar.from_ical(after).walk("VEVENT") == []
    status, headers, body = await fetch(web, theirs, **{"If-None-Match": their_headers["ETag"]})
    assert (status, headers["ETag"] != their_headers["ETag"]) == (200, True)
    (event,) = Calendar.from_ical(body).walk("VEVENT")
    unnamed = "Miembro sin nombre"  # never their digits (SPEC section 32)
    assert str(event["description"]) == f"Grupo: Familia\nResponsables: {unnamed} ✓, {unnamed} (1/2 partes)"


async def test_a_revoked_feed_and_an_unknown_one_answer_the_same_404(web: WebEnv) -> None:
    path = await new_feed(web)
    status, body = await web.call("DELETE", "/api/me/calendar")
    assert (status, body) == (204, None)
    revoked = await fetch(web, path)
    unknown = await fetch(web, "/cal/" + "A" * 43 + ".ics")
    assert revoked[0] == unknown[0] == 404
    assert revoked[2] == unknown[2]
    assert "ETag" not in revoked[1]
    assert (await web.call("DELETE", "/api/me/calendar"))[0] == 204  # revoking again is no error


async def test_rotating_the_address_stops_the_old_one(web: WebEnv) -> None:
    old, new = await new_feed(web), await new_feed(web)
    assert old != new
    assert [(await fetch(web, path))[0] for path in (old, new)] == [404, 200]


@pytest.mark.parametrize("path", ["/cal/", "/cal/x", "/cal/a/b.ics", "/cal/%2e%2e.ics"])
async def test_anything_else_under_cal_is_not_found(web: WebEnv, path: str) -> None:
    assert (await fetch(web, path))[0] == 404


async def test_a_feed_answers_head_too(web: WebEnv) -> None:
    path = await new_feed(web)
    async with web.client.head(path) as response:
        assert (response.status, response.headers["Content-Type"]) == (200, FEED_TYPE)


async def test_the_calendar_endpoints_need_a_session_or_a_token(web: WebEnv) -> None:
    assert (await web.call("POST", "/api/me/calendar", user=None))[0] == 401
    assert (await web.call("DELETE", "/api/me/calendar", user=None))[0] == 401


async def test_without_web_base_url_the_address_uses_the_origin_the_proxy_reports(db: Database) -> None:
    async with web_env(db) as env:
        forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "casa.example:8443"}
        status, body = await env.call("POST", "/api/me/calendar", headers=forwarded)
    assert status == 201
    assert body["url"].startswith("https://casa.example:8443/cal/")


async def test_the_calendar_page_shows_whether_there_is_a_feed(web: WebEnv) -> None:
    async with web.client.get("/calendario", headers=web.session_for(ME)) as response:
        page = await response.text()
    assert response.status == 200
    assert "Aún no tienes una dirección de calendario." in page
    await new_feed(web)
    async with web.client.get("/calendario", headers=web.session_for(ME)) as response:
        page = await response.text()
    assert "Tienes una dirección de calendario activa, creada el 22/11/2026 11:00." in page
    async with web.client.get("/calendario", allow_redirects=False) as response:
        assert (response.status, response.headers["Location"]) == (303, "/")


def test_the_proxy_sends_cal_to_the_web() -> None:
    assert route("/cal/abc.ics") == "web"


async def test_a_feed_through_the_proxy_keeps_its_type_etag_and_304(db: Database) -> None:
    make_task(db, creator=ME, group_id=None, due="2026-11-30", description="Por el proxy")
    web_server = TestServer(make_web_app(web_settings(WEB_BASE_URL=BASE), db=db), host="127.0.0.1")
    await web_server.start_server()
    try:
        async with proxy_at("http://127.0.0.1:9", str(web_server.make_url("")).rstrip("/")) as proxy:
            client = ProxyClient(proxy.port)  # type: ignore[attr-defined]
            try:
                path = f"/cal/{units.run(db, issue_calendar_feed, user_id=ME, now=NOW)}.ics"
                first = await client.get(path)
                body = await first.read()
                assert (first.status, first.headers["Content-Type"]) == (200, FEED_TYPE)
                assert "#" in str(Calendar.from_ical(body).walk("VEVENT")[0]["summary"])
                again = await client.get(path, headers={"If-None-Match": first.headers["ETag"]})
                assert (again.status, await again.read()) == (304, b"")
                assert (await client.get("/cal/" + "B" * 43 + ".ics")).status == 404
            finally:
                await client.close()
    finally:
        await web_server.close()


async def test_through_the_proxy_without_web_base_url_the_address_is_the_one_the_browser_used(db: Database) -> None:
    async with web_env(db) as env, proxy_at("http://127.0.0.1:9", str(env.client.make_url("")).rstrip("/")) as proxy:
        client = ProxyClient(proxy.port)  # type: ignore[attr-defined]
        try:
            headers = {**env.session_for(ME), "Content-Type": "application/json", "Host": "casa.example:8443"}
            made = await client.post("/api/me/calendar", headers=headers)
            url = (await made.json())["url"]
            assert (made.status, url.startswith("http://casa.example:8443/cal/")) == (201, True)
            feed = await client.get(url.removeprefix("http://casa.example:8443"))
            assert (feed.status, feed.headers["Content-Type"]) == (200, FEED_TYPE)
        finally:
            await client.close()
