"""Cross-site requests (SPEC section 16): a write under /api must declare a JSON body, with a body or without one.

An HTML form on another site can send a POST with the session cookie only as form data or plain text; a JSON
Content-Type needs CORS, which this service never grants. So every POST, PATCH, PUT and DELETE under /api that is
not ``application/json`` is refused with 415 before it can act.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.storage.db import Database
from tasksvc_run.web.routes import ROUTES
from tests.builders import make_group, make_task
from tests.integration.web_helpers import GROUP, ME, WebEnv, web_env

WRITES = [route for route in ROUTES if route.method in {"POST", "PATCH", "PUT", "DELETE"}]
FORM_LIKE = [
    {},  # no Content-Type at all (a form's empty POST, or fetch with mode no-cors and no body)
    {"Content-Type": "application/x-www-form-urlencoded"},
    {"Content-Type": "multipart/form-data; boundary=x"},
    {"Content-Type": "text/plain"},
]


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, members=(ME,))
    async with web_env(db) as env:
        yield env


def _path(route: object, task_id: int) -> str:
    return route.path.replace("{id}", str(task_id))  # type: ignore[attr-defined]


@pytest.mark.parametrize("headers", FORM_LIKE, ids=["none", "form", "multipart", "text"])
@pytest.mark.parametrize("route", WRITES, ids=lambda r: f"{r.method} {r.path}")
async def test_a_write_without_a_json_content_type_gets_415_even_without_a_body(
    web: WebEnv, route: object, headers: dict[str, str]
) -> None:
    task = make_task(web.db, group_id=GROUP)
    status, problem = await web.call(route.method, _path(route, task.id), headers=headers,  # type: ignore[attr-defined]
                                     data=b"")
    assert (status, problem["status"], problem["type"]) == (415, 415, "about:blank#unsupported-media-type")
    assert "application/json" in problem["detail"]


async def test_a_cross_site_form_cannot_complete_a_task(web: WebEnv) -> None:
    task = make_task(web.db, group_id=GROUP)
    status, _ = await web.call("POST", f"/api/tasks/{task.id}/complete", data=b"",
                               headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    status, body = await web.call("GET", f"/api/groups/{GROUP}/tasks")
    assert [(item["id"], item["completed"]) for item in body["items"]] == [(task.id, False)]


@pytest.mark.parametrize("action", ["claim", "unassign", "complete"])
async def test_a_json_content_type_without_a_body_is_accepted(web: WebEnv, action: str) -> None:
    task = make_task(web.db, group_id=GROUP)
    status, body = await web.call("POST", f"/api/tasks/{task.id}/{action}",
                                  headers={"Content-Type": "application/json"})
    assert (status, body["id"]) == (200, task.id)


async def test_a_json_content_type_with_a_charset_is_json(web: WebEnv) -> None:
    task = make_task(web.db, group_id=GROUP)
    status, _ = await web.call("POST", f"/api/tasks/{task.id}/claim",
                               headers={"Content-Type": "application/json; charset=utf-8"})
    assert status == 200


async def test_reads_need_no_content_type(web: WebEnv) -> None:
    assert (await web.call("GET", "/api/me/tasks"))[0] == 200


@pytest.mark.parametrize("content_type", ["Qm/[@V;JulDaO*", "application/json;", ";", "a/b; =", "application/json; x"])
@pytest.mark.parametrize("body", [b"", b'{"freq": "off"}'])
async def test_a_malformed_content_type_is_a_415_or_json_never_a_server_error(
        web: WebEnv, content_type: str, body: bytes) -> None:
    status, problem = await web.call("POST", "/api/me/preferences", data=body,
                                     headers={"Content-Type": content_type})
    expected = 415 if not content_type.startswith("application/json") else (200 if body else 400)
    assert status == expected, problem
