"""Shared tasks through the JSON API (SPEC section 19): item fields, parts, PATCH completion, 403 for a member who is
not an assignee, and the documented shapes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from taskcore.completion import CompletionMode
from taskcore.model import Origin
from taskcore.storage.db import Database
from tests.builders import NOW, create_and_read, make_group, make_task
from tests.chat_support import reactions
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

THIRD = "34600000003"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, members=(ME, OTHER, THIRD))
    async with web_env(db, REACTIONS_ENABLED="true") as env:
        yield env


def parts(body: dict[str, Any]) -> dict[str, bool]:
    return {person["id"]: person["done"] for person in body["assignees"]}


async def test_a_shared_task_item_has_its_mode_and_each_assignees_part(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME, OTHER), each=True)
    status, body = await web.call("GET", f"/api/groups/{GROUP}/tasks")
    assert status == 200
    (item,) = body["items"]
    assert item["id"] == task.id
    assert item["completion"] == "each"
    assert item["assignees"] == [{"id": web.pid(ME), "name": None, "done": False, "done_at": None},
                                 {"id": web.pid(OTHER), "name": None, "done": False, "done_at": None}]


async def test_complete_marks_my_part_and_answers_the_still_open_task(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME, OTHER), each=True)
    status, body = await web.call("POST", f"/api/tasks/{task.id}/complete")
    assert (status, body["completed"], body["completed_at"]) == (200, False, None)
    assert parts(body) == {web.pid(ME): True, web.pid(OTHER): False}
    assert body["assignees"][0]["done_at"] == "2026-11-22T10:00:00Z"
    status, body = await web.call("POST", f"/api/tasks/{task.id}/complete", user=OTHER)
    assert (status, body["completed"], body["completed_by"]) == (200, True, web.pid(OTHER))


async def test_a_member_who_is_not_an_assignee_gets_403(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(OTHER,), each=True)
    status, body = await web.call("POST", f"/api/tasks/{task.id}/complete")
    assert status == 403
    assert body["status"] == 403


async def test_unassigning_the_last_undone_part_completes_the_task_and_checks_its_origin(web: WebEnv) -> None:
    task = create_and_read(web.db, creator=OTHER, description="hoja", group_id=GROUP, assignees=(ME, OTHER),
                           now=NOW, origin=Origin(GROUP, "NEW1", f"{OTHER}@s.whatsapp.net", NOW),
                           completion=CompletionMode.EACH)
    await web.call("POST", f"/api/tasks/{task.id}/complete", user=OTHER)
    status, body = await web.call("POST", f"/api/tasks/{task.id}/unassign")
    assert (status, body["completed"], body["completed_by"]) == (200, True, web.pid(OTHER))
    assert reactions(web.db) == ["✅"]


@pytest.mark.parametrize(("sent", "mode"), [("each", "each"), ("any", "any")])
async def test_patch_sets_the_completion_mode(web: WebEnv, sent: str, mode: str) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,))
    status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"completion": sent})
    assert (status, body["completion"]) == (200, mode)


@pytest.mark.parametrize("value", ["todos", "", None, 1, ["each"]])
async def test_patch_refuses_any_other_completion_naming_the_field(web: WebEnv, value: object) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP)
    status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"completion": value})
    assert status == 422
    assert [e["field"] for e in body["errors"]] == ["completion"]


async def test_patch_refuses_parts_for_a_personal_task(web: WebEnv) -> None:
    task = make_task(web.db, creator=ME, group_id=None)
    status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"completion": "each"})
    assert status == 403  # a valid value this task cannot take (SPEC 6 and 28: not a 422)
    assert body["errors"] == [{"field": "completion", "message": "solo las tareas de grupo se completan por partes"}]


async def test_the_openapi_document_describes_parts_and_the_completion_field(web: WebEnv) -> None:
    status, doc = await web.call("GET", "/api/openapi.json")
    assert status == 200
    schemas = doc["components"]["schemas"]
    assert schemas["TaskItem"]["properties"]["completion"]["enum"] == ["any", "each"]
    assert {"done", "done_at"} <= set(schemas["PersonOut"]["properties"])
    assert schemas["TaskPatch"]["properties"]["completion"]["enum"] == ["any", "each"]
