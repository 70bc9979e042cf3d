"""Points and nagging set through the API (SPEC section 25): POST /api/tasks and PATCH /api/tasks/{id} take them
with the chat's rules, and the task item answers them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from taskcore.services.languages import choose_language
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.integration.test_web_create import task_count
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

DATED = {"description": "Fregar", "group_id": GROUP, "due_date": "2026-11-30"}  # for ME: dated(web)


def dated(web: WebEnv) -> dict[str, Any]:
    """DATED for ME, named by public id."""
    return DATED | {"assignees": [web.pid(ME)]}


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


async def fields_of(web: WebEnv, method: str, path: str, body: dict[str, Any]) -> tuple[int, list[str]]:
    status, answer = await web.call(method, path, json=body)
    return status, [error["field"] for error in answer.get("errors", [])]


class TestCreate:
    async def test_points_and_nag_are_saved_and_answered(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks", json=dated(web) | {"points": 3, "nag": {"every_hours": 12}})
        assert (status, body["points"], body["nag"]) == (201, 3, {"every_hours": 12})
        _, document = await web.call("GET", "/api/openapi.json")
        check_documented(document, "/api/tasks", "post", 201, body)
        _, mine = await web.call("GET", "/api/me/tasks")
        assert [(item["points"], item["nag"]) for item in mine["items"]] == [(3, {"every_hours": 12})]

    async def test_a_whole_number_written_with_a_point_is_a_whole_number(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks",
                                      json=dated(web) | {"points": 4.0, "nag": {"every_hours": 8.0}})
        assert (status, body["points"], body["nag"]) == (201, 4, {"every_hours": 8})

    @pytest.mark.parametrize("extra", [{}, {"nag": None}])
    async def test_by_default_one_point_and_no_nag(self, web: WebEnv, extra: dict[str, Any]) -> None:
        status, body = await web.call("POST", "/api/tasks", json={"description": "Pan", **extra})
        assert (status, body["points"], body["nag"]) == (201, 1, None)

    @pytest.mark.parametrize("body", [
        {"description": "Pan", "due_date": "2026-11-30", "nag": {"every_hours": 24}},  # personal
        {"description": "Pan", "group_id": GROUP, "nag": {"every_hours": 24}},  # undated
    ])
    async def test_a_nag_on_a_personal_or_undated_task_is_a_422_naming_nag(self, web: WebEnv,
                                                                          body: dict[str, Any]) -> None:
        status, answer = await web.call("POST", "/api/tasks", json=body)
        assert (status, [error["field"] for error in answer["errors"]]) == (422, ["nag"])
        assert answer["errors"][0]["message"] in ("solo las tareas de grupo pueden insistir",
                                                  "para insistir la tarea necesita fecha")
        assert task_count(web.db) == 0

    @pytest.mark.parametrize(("extra", "field"), [
        ({"points": 0}, "points"), ({"points": 11}, "points"), ({"points": "3"}, "points"),
        ({"points": True}, "points"), ({"points": 2.5}, "points"), ({"points": None}, "points"),
        ({"nag": {"every_hours": 0}}, "nag.every_hours"), ({"nag": {"every_hours": 169}}, "nag.every_hours"),
        ({"nag": {}}, "nag.every_hours"), ({"nag": 24}, "nag"), ({"nag": {"every_hours": 2, "x": 1}}, "nag.x"),
    ])
    async def test_values_out_of_range_are_a_422_naming_the_field(self, web: WebEnv, extra: dict[str, Any],
                                                                  field: str) -> None:
        assert await fields_of(web, "POST", "/api/tasks", dated(web) | extra) == (422, [field])
        assert task_count(web.db) == 0


class TestEdit:
    async def test_points_change_and_the_item_answers_them(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME,))
        status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"points": 7})
        assert (status, body["points"], body["nag"]) == (200, 7, None)
        _, mine = await web.call("GET", "/api/me/tasks")
        assert mine["items"][0]["points"] == 7

    async def test_a_dated_group_task_starts_and_stops_nagging(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME,), due="2026-11-30")
        status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"nag": {"every_hours": 6}})
        assert (status, body["nag"]) == (200, {"every_hours": 6})
        status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"nag": None, "points": 2})
        assert (status, body["nag"], body["points"]) == (200, None, 2)

    async def test_a_date_and_a_nag_in_one_request(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME,))
        status, body = await web.call("PATCH", f"/api/tasks/{task.id}",
                                      json={"due_date": "2026-12-01", "nag": {"every_hours": 48}})
        assert (status, body["due_date"], body["nag"]) == (200, "2026-12-01", {"every_hours": 48})

    @pytest.mark.parametrize(("group", "due", "body"), [
        (None, "2026-11-30", {"nag": {"every_hours": 24}}),  # personal
        (GROUP, None, {"nag": {"every_hours": 24}}),  # undated
        (GROUP, "2026-11-30", {"nag": {"every_hours": 24}, "due_date": None}),  # undated by this very request
    ])
    async def test_a_nag_the_task_cannot_take_is_a_403_naming_nag_and_changes_nothing(
            self, web: WebEnv, group: str | None, due: str | None, body: dict[str, Any]) -> None:
        task = make_task(web.db, creator=ME, group_id=group, assignees=(ME,), due=due)
        status, answer = await web.call("PATCH", f"/api/tasks/{task.id}", json=body)
        assert (status, [error["field"] for error in answer["errors"]]) == (403, ["nag"])
        assert answer["detail"] in ("Solo las tareas de grupo pueden insistir.",
                                    "Para insistir la tarea necesita fecha.")
        _, mine = await web.call("GET", "/api/me/tasks")
        assert [(item["due_date"], item["nag"]) for item in mine["items"]] == [(due, None)]

    async def test_the_problem_speaks_the_user_s_language(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None, assignees=(ME,), due="2026-11-30")
        units.run(web.db, choose_language, user_id=ME, lang="en", default="es", now=NOW)
        _, answer = await web.call("PATCH", f"/api/tasks/{task.id}", json={"nag": {"every_hours": 24}})
        assert (answer["detail"], answer["errors"][0]["message"]) == ("Only group tasks can nag.",
                                                                      "only group tasks can nag")

    @pytest.mark.parametrize(("body", "field"), [
        ({"points": 0}, "points"), ({"points": 11}, "points"), ({"points": None}, "points"),
        ({"nag": {"every_hours": 169}}, "nag.every_hours"), ({"nag": "24"}, "nag"),
    ])
    async def test_values_out_of_range_are_a_422_naming_the_field(self, web: WebEnv, body: dict[str, Any],
                                                                  field: str) -> None:
        task = make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME,), due="2026-11-30")
        assert await fields_of(web, "PATCH", f"/api/tasks/{task.id}", body) == (422, [field])


async def test_the_document_names_the_new_fields_with_their_limits(web: WebEnv) -> None:
    _, document = await web.call("GET", "/api/openapi.json")
    schemas = document["components"]["schemas"]
    for name in ("TaskCreate", "TaskPatch"):
        points = schemas[name]["properties"]["points"]
        assert (points["type"], points["minimum"], points["maximum"]) == ("integer", 1, 10)
        assert "nag" in schemas[name]["properties"]
    hours = schemas["NagIn"]["properties"]["every_hours"]
    assert (hours["minimum"], hours["maximum"]) == (1, 168)
    assert schemas["NagIn"]["required"] == ["every_hours"]
