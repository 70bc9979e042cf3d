"""A nagging task in the API's task item and on the pages (SPEC section 25)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from zoneinfo import ZoneInfo

import pytest

from taskcore.access import GatingMode
from taskcore.services.nagging import set_nag
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


async def test_the_task_item_says_whether_and_how_often_the_task_nags(web: WebEnv) -> None:
    quiet = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-11-30")
    nagging = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-11-29")
    units.run(web.db, set_nag, GatingMode.OFF, user_id=OTHER, task_id=nagging.id, every_hours=12,
              zone=ZoneInfo("Europe/Madrid"), now=NOW)
    status, body = await web.call("GET", "/api/me/tasks")
    assert status == 200
    assert {item["id"]: item["nag"] for item in body["items"]} == {nagging.id: {"every_hours": 12}, quiet.id: None}


async def test_the_page_shows_that_a_task_nags(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-11-29")
    units.run(web.db, set_nag, GatingMode.OFF, user_id=OTHER, task_id=task.id, every_hours=6,
              zone=ZoneInfo("Europe/Madrid"),
              now=NOW)
    async with web.client.get("/", headers=web.session_for()) as response:
        html = await response.text()
    assert "🔔 Insiste cada 6 h" in html
