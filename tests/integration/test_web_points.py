"""Points and this week's summary on the web (SPEC section 25): the task item's ``points`` in every list and answer,
the OpenAPI document, the task line and the group page."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.access import GatingMode
from taskcore.services import tasks as svc
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


def worth(db: Database, points: int, description: str = "Limpiar", *, by: str = ME) -> int:
    return units.run(db, svc.create_task, creator=by, description=description, group_id=GROUP, assignees=(ME,), now=NOW,
                     points=points).id


async def test_every_task_item_carries_its_points(web: WebEnv) -> None:
    three, one = worth(web.db, 3), worth(web.db, 1, "Pan")
    _, mine = await web.call("GET", "/api/me/tasks")
    assert {item["id"]: item["points"] for item in mine["items"]} == {three: 3, one: 1}
    _, grouped = await web.call("GET", f"/api/groups/{GROUP}/tasks")
    assert {item["id"]: item["points"] for item in grouped["items"]} == {three: 3, one: 1}
    status, claimed = await web.call("POST", f"/api/tasks/{three}/claim")
    assert (status, claimed["points"]) == (200, 3)


async def test_the_openapi_document_names_points(web: WebEnv) -> None:
    _, document = await web.call("GET", "/api/openapi.json")
    item = document["components"]["schemas"]["TaskItem"]
    assert item["properties"]["points"]["maximum"] == 10


async def test_the_task_line_shows_points_when_not_one(web: WebEnv) -> None:
    worth(web.db, 4)
    worth(web.db, 1, "Pan")
    async with web.client.get("/", headers=web.session_for(ME)) as response:
        html = await response.text()
    assert html.count('data-field="points"') == 1
    assert "4 puntos" in html


async def test_the_group_page_shows_this_weeks_summary(web: WebEnv) -> None:
    done = worth(web.db, 5, by=OTHER)  # someone else's task: its points count at once (SPEC section 38)
    worth(web.db, 2, "Otra")
    units.run(web.db, svc.complete_task, GatingMode.OFF, user_id=ME, task_id=done, now=NOW)
    async with web.client.get(f"/grupos/{GROUP.replace('@', '%40')}", headers=web.session_for(ME)) as response:
        html = await response.text()
    assert "Esta semana" in html
    row = f'<tr data-person="{web.pid(ME)}"><th scope="row">Miembro sin nombre</th>'
    assert row + "<td>1</td><td>5</td><td>0</td></tr>" in html
