"""GET /api/openapi.json: a valid OpenAPI 3.1 document that matches the app in both directions (SPEC section 6)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from openapi_spec_validator import validate

from taskcore.storage.db import Database
from tasksvc_run.web import make_web_app
from tasksvc_run.web.routes import document
from tests.builders import make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env, web_settings

METHODS = {"get", "post", "patch", "put", "delete"}


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


def routed_operations() -> set[tuple[str, str]]:
    """(method, path) of every API route the app registers, in the document's path syntax."""
    app = make_web_app(web_settings())
    found = set()
    for route in app.router.routes():
        path = route.resource.canonical if route.resource else ""
        if path.startswith("/api/") and route.method != "HEAD":
            found.add((route.method.lower(), re.sub(r"\{(\w+)(:[^}]*)?\}", r"{\1}", path)))
    return found


def documented_operations() -> set[tuple[str, str]]:
    return {(method, path) for path, item in document()["paths"].items() for method in item if method in METHODS}


def test_the_document_is_valid_openapi_3_1() -> None:
    validate(document())
    assert document()["openapi"].startswith("3.1")


def test_every_api_route_of_the_app_is_documented() -> None:
    assert routed_operations() - documented_operations() == set()


def test_every_documented_operation_exists_in_the_app() -> None:
    assert documented_operations() - routed_operations() == set()


def test_every_operation_documents_the_401_of_a_missing_session() -> None:
    for item in document()["paths"].values():
        for operation in item.values():
            assert "401" in operation["responses"]


async def test_the_document_is_served_to_a_session(web: WebEnv) -> None:
    assert await web.call("GET", "/api/openapi.json") == (200, document())


async def test_the_document_needs_a_session_like_every_api_path(web: WebEnv) -> None:
    assert (await web.call("GET", "/api/openapi.json", user=None))[0] == 401


SAMPLES: list[tuple[str, str, str, Any]] = [
    ("GET", "/api/me/tasks", "/api/me/tasks", None),
    ("GET", "/api/me/tasks?status=recent", "/api/me/tasks", None),
    ("GET", "/api/me/groups", "/api/me/groups", None),
    ("GET", f"/api/groups/{GROUP}/tasks", "/api/groups/{id}/tasks", None),
    ("GET", "/api/me/preferences", "/api/me/preferences", None),
    ("POST", "/api/me/preferences", "/api/me/preferences", {"freq": "daily", "time": "9:00"}),
    ("POST", "/api/tasks/{task}/claim", "/api/tasks/{id}/claim", None),
    ("POST", "/api/tasks/{task}/unassign", "/api/tasks/{id}/unassign", None),
    ("PATCH", "/api/tasks/{task}", "/api/tasks/{id}", {"due_date": "2026-12-01", "description": "Otra"}),
    ("POST", "/api/tasks/{task}/complete", "/api/tasks/{id}/complete", None),
    ("POST", "/api/tasks/{task}/complete", "/api/tasks/{id}/complete", None),
    ("PATCH", "/api/tasks/{task}", "/api/tasks/{id}", {"due_date": None}),
    ("GET", "/api/me/tasks?page=0&limit=x", "/api/me/tasks", None),
    ("POST", "/api/me/preferences", "/api/me/preferences", [1]),
    ("GET", "/api/groups/1@g.us/tasks", "/api/groups/{id}/tasks", None),
    ("POST", "/api/tasks/999999/claim", "/api/tasks/{id}/claim", None),
    ("POST", "/api/tasks", "/api/tasks", {"description": "Pan", "group_id": GROUP, "assignees": [OTHER]}),
    ("POST", "/api/tasks", "/api/tasks", {"description": "Pan", "assignees": [OTHER]}),
    ("POST", "/api/tasks", "/api/tasks", {"description": "Pan", "group_id": "1@g.us"}),
    ("GET", f"/api/groups/{GROUP}/members", "/api/groups/{id}/members", None),
    ("GET", "/api/groups/1@g.us/members", "/api/groups/{id}/members", None),
]


async def test_real_answers_match_the_documented_schemas_and_statuses(web: WebEnv) -> None:
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-11-30")
    for method, url, path, body in SAMPLES:
        status, answer = await web.call(method, url.replace("{task}", str(task.id)), json=body)
        check_documented(document(), path, method, status, answer)
