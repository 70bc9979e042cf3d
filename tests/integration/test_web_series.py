"""Recurring tasks and time zones through the JSON API and the pages (SPEC sections 20 and 21), checked against the
OpenAPI document."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from taskcore import parse_recurrence
from taskcore.services import tasks as svc
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

COLOMBIAN = "573001234567"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Piso", members=(ME, OTHER, COLOMBIAN))
    async with web_env(db) as env:
        yield env


def chore(db: Database, rule: str = "cada lunes y jueves", *, rotation: tuple[str, ...] = ()) -> int:
    created = units.run(db, svc.create_task, creator=OTHER, description="Sacar la basura", group_id=GROUP,
                        assignees=rotation or (ME,), now=NOW, recurrence=parse_recurrence(rule),
                        rotation=rotation, today=NOW.date())
    return created.id


async def call(web: WebEnv, method: str, path: str, template: str, user: str = ME, **kw: Any) -> tuple[int, Any]:
    status, body = await web.call(method, path, user=user, **kw)
    check_documented(document(), template, method, status, body)
    return status, body


async def test_a_recurring_task_item_carries_its_rule_text_and_turns(web: WebEnv) -> None:
    chore(web.db, rotation=(ME, OTHER))
    _, body = await call(web, "GET", "/api/me/tasks", "/api/me/tasks")
    (item,) = body["items"]
    assert item["recurrence"] == {"rule": "FREQ=WEEKLY;BYDAY=MO,TH", "text": "cada lunes y jueves",
                                  "rotation": [web.pid(ME), web.pid(OTHER)]}
    _, listed = await call(web, "GET", f"/api/groups/{GROUP}/tasks", "/api/groups/{id}/tasks")
    assert listed["items"][0]["recurrence"] == item["recurrence"]


async def test_completing_on_the_web_creates_the_next_occurrence_and_returns_it(web: WebEnv) -> None:
    task_id = chore(web.db, rotation=(ME, OTHER))
    status, body = await call(web, "POST", f"/api/tasks/{task_id}/complete", "/api/tasks/{id}/complete")
    assert status == 200
    assert body["completed"] is True
    following = body["next"]
    assert (following["due_date"], [p["id"] for p in following["assignees"]]) == ("2026-11-26", [web.pid(OTHER)])
    assert following["recurrence"]["text"] == "cada lunes y jueves"
    again = await call(web, "POST", f"/api/tasks/{task_id}/complete", "/api/tasks/{id}/complete")
    assert again[1]["next"] is None


async def test_the_completers_today_decides_the_next_date(web: WebEnv) -> None:
    task_id = chore(web.db, "cada día")
    web.clock.current = datetime(2026, 11, 25, 4, 0, tzinfo=UTC)  # 23:00 on the 24th in Bogotá, 25th in Madrid
    _, body = await call(web, "POST", f"/api/tasks/{task_id}/complete", "/api/tasks/{id}/complete", user=COLOMBIAN)
    assert body["next"]["due_date"] == "2026-11-24"
    second = body["next"]["id"]
    _, body = await call(web, "POST", f"/api/tasks/{second}/complete", "/api/tasks/{id}/complete")
    assert body["next"]["due_date"] == "2026-11-25"


async def test_a_null_recurrence_ends_the_series(web: WebEnv) -> None:
    task_id = chore(web.db)
    status, body = await call(web, "PATCH", f"/api/tasks/{task_id}", "/api/tasks/{id}", json={"recurrence": None})
    assert (status, body["recurrence"], body["completed"]) == (200, None, False)
    _, done = await call(web, "POST", f"/api/tasks/{task_id}/complete", "/api/tasks/{id}/complete")
    assert done["next"] is None


@pytest.mark.parametrize("value", ["cada lunes", {"rule": "FREQ=DAILY"}, 1])
async def test_a_recurrence_other_than_null_is_a_422(web: WebEnv, value: object) -> None:
    task_id = chore(web.db)
    status, problem = await call(web, "PATCH", f"/api/tasks/{task_id}", "/api/tasks/{id}", json={"recurrence": value})
    assert (status, [e["field"] for e in problem["errors"]]) == (422, ["recurrence"])

NOTHING_SET = {"quiet": None, "away_until": None}  # SPEC section 25's fields, unset


async def test_preferences_answer_the_zone_in_force_and_its_source(web: WebEnv) -> None:
    assert await call(web, "GET", "/api/me/preferences", "/api/me/preferences", user=COLOMBIAN) == (
        200, {"freq": "off", "time": "08:30", "tz": "America/Bogota", "tz_source": "phone",
                 "lang": "es", **NOTHING_SET})


async def test_a_zone_is_chosen_kept_and_cleared_through_the_preferences(web: WebEnv) -> None:
    path = "/api/me/preferences"
    saved = await call(web, "POST", path, path, json={"freq": "daily", "tz": "america/lima"})
    assert saved == (200, {"freq": "daily", "time": "08:30", "tz": "America/Lima", "tz_source": "user", "lang": "es",
                           **NOTHING_SET})
    kept = await call(web, "POST", path, path, json={"freq": "weekly", "time": "9:00"})
    assert kept == (200, {"freq": "weekly", "time": "09:00", "tz": "America/Lima", "tz_source": "user", "lang": "es",
                           **NOTHING_SET})
    assert await call(web, "GET", path, path) == kept
    cleared = await call(web, "POST", path, path, json={"freq": "weekly", "tz": None})
    assert cleared == (200, {"freq": "weekly", "time": "09:00", "tz": "Europe/Madrid", "tz_source": "phone",
                           "lang": "es", **NOTHING_SET})


@pytest.mark.parametrize("tz", ["Europe/Atlantis", "", 5])
async def test_an_unknown_zone_is_a_422_naming_tz_and_changes_nothing(web: WebEnv, tz: object) -> None:
    path = "/api/me/preferences"
    status, problem = await call(web, "POST", path, path, json={"freq": "daily", "tz": tz})
    assert (status, [e["field"] for e in problem["errors"]]) == (422, ["tz"])
    assert (await web.call("GET", path))[1]["freq"] == "off"


async def test_soon_days_counts_from_the_users_today(web: WebEnv) -> None:
    units.run(web.db, svc.create_task, creator=COLOMBIAN, description="pagar", group_id=None,
              due=datetime(2026, 11, 25).date(), now=NOW)
    web.clock.current = datetime(2026, 11, 25, 4, 0, tzinfo=UTC)  # the 24th in Bogotá
    _, body = await call(web, "GET", "/api/me/tasks?soonDays=0", "/api/me/tasks", user=COLOMBIAN)
    assert body["items"] == []
    _, body = await call(web, "GET", "/api/me/tasks?soonDays=1", "/api/me/tasks", user=COLOMBIAN)
    assert [item["description"] for item in body["items"]] == ["pagar"]


async def test_the_pages_mark_recurring_tasks_and_show_the_zone(web: WebEnv) -> None:
    chore(web.db, rotation=(ME, OTHER))
    headers = web.session_for(ME)
    async with web.client.get("/", headers=headers) as response:
        page = await response.text()
    assert "↻ cada lunes y jueves · por turnos" in page
    async with web.client.get("/recordatorios", headers=web.session_for(COLOMBIAN)) as response:
        reminders = await response.text()
    assert '<strong data-field="tz">America/Bogota</strong>' in reminders
    assert "la del prefijo de tu número" in reminders
