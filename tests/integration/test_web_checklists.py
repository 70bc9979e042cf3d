"""Checklists and seasons on the web (SPEC section 41): the JSON API's items (both list paths alike, documented in
the OpenAPI document), ticking an item (a JSON write, like the other task actions), the pages' tick buttons, and a
season shown in the reader's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date

import pytest

from taskcore.recurrence import parse_recurrence
from taskcore.services import tasks as svc
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


def kitchen(db: Database, *, recurrence: str | None = None) -> int:
    made = units.run(db, svc.create_task, creator=OTHER, description="Limpiar la cocina", group_id=GROUP,
                     due=date(2026, 11, 23), assignees=(ME,), now=NOW, items=("encimera", "horno"),
                     recurrence=None if recurrence is None else parse_recurrence(recurrence), today=NOW.date())
    return made.id


async def test_the_api_lists_a_task_s_items_on_both_paths_as_documented(web: WebEnv) -> None:
    task_id = kitchen(web.db)
    items = [{"n": 1, "text": "encimera", "done": False}, {"n": 2, "text": "horno", "done": False}]
    for path in ("/api/me/tasks", f"/api/groups/{GROUP}/tasks"):
        status, body = await web.call("GET", path)
        assert status == 200
        assert [(item["id"], item["items"]) for item in body["items"]] == [(task_id, items)]
        check_documented(document(), path.replace(GROUP, "{id}"), "get", 200, body)


async def test_ticking_an_item_then_the_last_completes_the_task_and_the_next_occurrence_has_its_items(
    web: WebEnv
) -> None:
    task_id = kitchen(web.db, recurrence="cada lunes")
    status, body = await web.call("POST", f"/api/tasks/{task_id}/items/2/tick")
    assert status == 200
    assert (body["completed"], body["items"][1], body["next"]) == (False, {"n": 2, "text": "horno", "done": True},
                                                                   None)
    check_documented(document(), "/api/tasks/{id}/items/{n}/tick", "post", 200, body)
    status, body = await web.call("POST", f"/api/tasks/{task_id}/items/1/tick")
    assert (status, body["completed"]) == (200, True)
    assert [item["done"] for item in body["next"]["items"]] == [False, False]
    assert body["next"]["due_date"] == "2026-11-30"


async def test_an_item_the_task_lacks_is_a_404_saying_which_it_has_and_a_bad_number_a_404(web: WebEnv) -> None:
    """The path names an item that does not exist: not found (schemathesis: a path the document admits is never a
    422), with the chat's words for why."""
    task_id = kitchen(web.db)
    status, problem = await web.call("POST", f"/api/tasks/{task_id}/items/3/tick")
    assert status == 404
    assert problem["detail"] == f"la tarea #{task_id} no tiene el elemento 3: tiene del 1 al 2"
    check_documented(document(), "/api/tasks/{id}/items/{n}/tick", "post", 404, problem)
    status, _ = await web.call("POST", f"/api/tasks/{task_id}/items/x/tick")
    assert status == 404


async def test_ticking_is_refused_to_a_cross_site_form(web: WebEnv) -> None:
    task_id = kitchen(web.db)
    status, _ = await web.call("POST", f"/api/tasks/{task_id}/items/1/tick", data=b"",
                               headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    _, body = await web.call("GET", "/api/me/tasks")
    assert [item["done"] for item in body["items"][0]["items"]] == [False, False]


async def test_the_page_shows_each_item_with_a_tick_button(web: WebEnv) -> None:
    task_id = kitchen(web.db)
    await web.call("POST", f"/api/tasks/{task_id}/items/1/tick")
    async with web.client.get("/", headers=web.session_for(ME)) as response:
        html = await response.text()
    assert 'data-tick="1" aria-pressed="true" disabled>☑' in html
    assert 'data-tick="2" aria-pressed="false">☐' in html
    assert "2. horno" in html


async def test_a_season_is_shown_in_the_reader_s_language_on_the_page_and_in_the_api(web: WebEnv) -> None:
    kitchen(web.db, recurrence="cada lunes de abril a septiembre, cada 2 semanas el resto")
    status, _ = await web.call("POST", "/api/me/preferences", json={"freq": "off", "lang": "en"})
    assert status == 200
    _, body = await web.call("GET", "/api/me/tasks")
    words = "every Monday from April to September, every 2 weeks the rest"
    assert body["items"][0]["recurrence"]["text"] == words
    assert body["items"][0]["recurrence"]["rule"] == ("FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9\n"
                                                      "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYMONTH=1,2,3,10,11,12")
    async with web.client.get("/", headers=web.session_for(ME)) as response:
        assert f"↻ {words}" in await response.text()


async def test_a_task_made_on_the_web_may_bring_its_checklist_and_too_many_items_are_a_422(web: WebEnv) -> None:
    status, body = await web.call("POST", "/api/tasks", json={"description": "Mudanza", "items": ["cajas", "cinta"]})
    assert status == 201
    assert body["items"] == [{"n": 1, "text": "cajas", "done": False}, {"n": 2, "text": "cinta", "done": False}]
    check_documented(document(), "/api/tasks", "post", 201, body)
    status, problem = await web.call("POST", "/api/tasks", json={"description": "x", "items": ["a"] * 21})
    assert (status, [error["field"] for error in problem["errors"]]) == (422, ["items"])
    status, problem = await web.call("POST", "/api/tasks", json={"description": "x", "items": ["a", " "]})
    assert (status, problem["errors"]) == (422, [{"field": "items", "message": "el elemento 2 está vacío"}])
