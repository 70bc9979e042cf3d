"""A person is not a phone number on the web (SPEC section 32): public ids, /api/me, one's own data, erasure, the
bot never a member, writes from another site refused, no server banner."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select, text

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.identities import record_alias
from taskcore.storage.people import note_bot_ids, save_addressing
from taskcore.storage.users import ensure_user
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

LID_ONLY = "123456789012345"  # a person the bot knows only by a LID
NAMELESS = "447700900123"
BOT = "34600009999"
DIGITS = (ME, OTHER, LID_ONLY, NAMELESS, BOT)


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Piso", members=(ME, OTHER, LID_ONLY, NAMELESS, BOT))
    with db.write() as conn:
        ensure_user(conn, ME, NOW, name="Ana")
        ensure_user(conn, OTHER, NOW, name="Carl")
        ensure_user(conn, LID_ONLY, NOW, name="Lía")
        note_bot_ids(conn, [BOT], NOW)
    async with web_env(db) as env:
        yield env


async def page(web: WebEnv, path: str, user: str = ME) -> str:
    async with web.client.get(path, headers=web.session_for(user)) as response:
        assert response.status == 200
        return await response.text()


def digits_in(body: str, own: str | None = None) -> list[str]:
    """The members' digits (but ``own``'s) found in ``body``."""
    return [found for found in DIGITS if found != own and found in body]


async def test_members_are_named_by_public_id_and_the_bot_is_not_one(web: WebEnv) -> None:
    status, body = await web.call("GET", f"/api/groups/{GROUP}/members")
    assert status == 200
    check_documented(document(), "/api/groups/{id}/members", "GET", status, body)
    assert body["items"] == [{"id": web.pid(ME), "name": "Ana"}, {"id": web.pid(OTHER), "name": "Carl"},
                             {"id": web.pid(LID_ONLY), "name": "Lía"}, {"id": web.pid(NAMELESS), "name": None}]
    assert all(re.fullmatch(r"p_[a-z2-7]{24}", item["id"]) for item in body["items"])


async def test_the_bot_cannot_be_assigned(web: WebEnv) -> None:
    status, body = await web.call("POST", "/api/tasks", json={"description": "Pan", "group_id": GROUP,
                                                              "assignees": [web.pid(BOT)]})
    assert (status, [error["field"] for error in body["errors"]]) == (422, ["assignees"])


async def test_no_answer_or_page_another_member_sees_carries_digits(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(NAMELESS, LID_ONLY), due="2026-11-30")
    await web.call("POST", f"/api/tasks/{task.id}/complete", user=OTHER)
    make_task(web.db, creator=LID_ONLY, group_id=GROUP, assignees=(OTHER,))
    _, created = await web.call("POST", "/api/tasks", json={"description": "Regar", "group_id": GROUP,
                                                             "assignees": [web.pid(NAMELESS), web.pid(OTHER)]})
    assert {person["id"] for person in created["assignees"]} == {web.pid(NAMELESS), web.pid(OTHER)}
    answers = [await web.client.get(path, headers=web.session_for(ME)) for path in (
        f"/api/groups/{GROUP}/members", f"/api/groups/{GROUP}/tasks", "/api/me/tasks?status=recent", "/api/me/groups",
        f"/grupos/{GROUP}", "/", "/?status=recent", "/grupos")]
    for response in answers:
        body = await response.text()
        assert response.status == 200, response.url
        assert digits_in(body, own=ME) == [], response.url
        assert "Server" not in response.headers
    html = await page(web, f"/grupos/{GROUP}")
    assert "Miembro sin nombre" in html
    assert f'value="{web.pid(NAMELESS)}"' in html


async def test_me_is_my_public_id_with_my_own_number(web: WebEnv) -> None:
    status, me = await web.call("GET", "/api/me")
    check_documented(document(), "/api/me", "GET", status, me)
    assert me == {"id": web.pid(ME), "name": "Ana", "phone": ME, "lang": "es", "tz": "Europe/Madrid"}
    _, lid = await web.call("GET", "/api/me", user=LID_ONLY)
    assert (lid["id"], lid["name"], lid["phone"]) == (web.pid(LID_ONLY), "Lía", None)


async def test_the_export_holds_what_is_stored_and_no_secret(web: WebEnv) -> None:
    make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME,), description="Fregar")
    await web.call("POST", "/api/me/tokens", json={"name": "Casa"})
    status, found = await web.call("GET", "/api/me/export")
    check_documented(document(), "/api/me/export", "GET", status, found)
    assert found["profile"] == {"name": "Ana", "phone": ME, "lang": "es", "tz": "Europe/Madrid"}
    assert [task["description"] for task in found["data"]["tasks"]] == ["Fregar"]
    assert [token["name"] for token in found["data"]["api_tokens"]] == ["Casa"]
    assert "token_hash" not in str(found)
    assert "tsk_" not in str(found)
    assert found["data"]["group_members"][0]["group_name"] == "Piso"


def rows_with(db: Database, digits: str) -> list[tuple[str, Any]]:
    """Every (table, row) of the database that holds ``digits`` anywhere."""
    found = []
    with db.read() as conn:
        for table in schema.metadata.sorted_tables:
            for row in conn.execute(select(table)):
                if any(digits in str(value) for value in row):
                    found.append((table.name, tuple(row)))
        migrations = conn.execute(text("SELECT * FROM schema_migrations")).all()
    assert migrations  # the one table not in the metadata; it holds no person
    return found


async def test_erasure_leaves_no_trace_of_the_person(web: WebEnv) -> None:
    mine = make_task(web.db, creator=ME, group_id=GROUP, assignees=(OTHER,), description="Del grupo")
    make_task(web.db, creator=ME, group_id=None, assignees=(ME,), description="Mía")
    done = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), description="Hecha")
    await web.call("POST", f"/api/tasks/{done.id}/complete")
    await web.call("POST", "/api/me/tokens", json={"name": "Casa"})
    await web.call("POST", "/api/me/calendar")
    await web.call("POST", "/api/me/preferences", json={"freq": "daily", "time": "08:00", "lang": "pt"})
    assert rows_with(web.db, ME)
    status, body = await web.call("DELETE", "/api/me", json={"confirm": False})
    assert (status, [error["field"] for error in body["errors"]]) == (422, ["confirm"])
    headers = web.session_for(ME)
    status, _ = await web.call("DELETE", "/api/me", user=None, json={"confirm": True},
                               headers={**headers, "Content-Type": "application/json"})
    assert status == 204
    assert rows_with(web.db, ME) == []
    assert (await web.call("GET", "/api/me", user=None, headers=headers))[0] == 401
    _, tasks = await web.call("GET", f"/api/groups/{GROUP}/tasks", user=OTHER)
    kept = {item["description"]: item for item in tasks["items"]}
    assert kept["Del grupo"]["id"] == mine.id
    assert kept["Del grupo"]["created_by"] is None
    _, recent = await web.call("GET", "/api/me/tasks?status=recent", user=OTHER)
    assert "Mía" not in str(recent)


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site"}])
async def test_a_write_from_another_site_is_a_403(web: WebEnv, headers: dict[str, str]) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP)
    status, body = await web.call("POST", f"/api/tasks/{task.id}/claim", headers=headers)
    assert (status, body["type"]) == (403, "about:blank#forbidden")
    assert (await web.call("GET", "/api/me/tasks", headers=headers))[0] == 200  # reads are not writes


async def test_a_write_from_this_site_or_a_script_passes(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP)
    host = web.client.server.host, web.client.server.port
    for headers in ({"Origin": f"http://{host[0]}:{host[1]}"}, {"Sec-Fetch-Site": "same-origin"}, {"Origin": "null"},
                    {}):
        status, _ = await web.call("POST", f"/api/tasks/{task.id}/claim", headers=headers)
        assert status == 200, headers


async def test_a_task_made_on_the_web_mentions_people_by_lid_in_a_lid_group(web: WebEnv) -> None:
    with web.db.write() as conn:
        record_alias(conn, "900222", OTHER, NOW)
        save_addressing(conn, GROUP, "lid")
    status, _ = await web.call("POST", "/api/tasks", json={"description": "Regar", "group_id": GROUP,
                                                           "assignees": [web.pid(OTHER), web.pid(LID_ONLY)]})
    assert status == 201
    with web.db.read() as conn:
        (payload,) = conn.execute(select(schema.outbound_queue.c.payload)).scalars()
    assert "@900222" in payload
    assert f"@{LID_ONLY}" in payload
    assert "900222@lid" in payload
    assert f"{LID_ONLY}@lid" in payload
    assert OTHER not in payload


async def test_a_person_known_only_by_a_lid_uses_the_web_and_the_calendar(db: Database) -> None:
    make_group(db, GROUP, members=(LID_ONLY, OTHER, NAMELESS))
    task = make_task(db, creator=OTHER, group_id=GROUP, assignees=(NAMELESS,), due="2026-11-30")
    async with web_env(db, WEB_BASE_URL="https://tareas.example") as web:
        assert (await web.call("POST", f"/api/tasks/{task.id}/claim", user=LID_ONLY))[0] == 200
        status, _ = await web.call("POST", "/api/me/preferences", user=LID_ONLY,
                                   json={"freq": "daily", "time": "08:00", "tz": "America/Bogota"})
        assert status == 200
        _, me = await web.call("GET", "/api/me", user=LID_ONLY)
        assert (me["phone"], me["tz"]) == (None, "America/Bogota")
        html = await page(web, f"/grupos/{GROUP}", user=LID_ONLY)
        assert "Miembro sin nombre" in html
        status, made = await web.call("POST", "/api/me/calendar", user=LID_ONLY)
        assert status == 201
        async with web.client.get(made["url"].removeprefix("https://tareas.example")) as response:
            feed = await response.text()
    assert response.status == 200
    assert "Comprar pan" in feed
    assert [found for found in DIGITS if found in feed] == []
    assert "Miembro sin nombre" in feed
