"""A method a path does not have (SPEC section 28): 405 with Allow, before the session's content-type check and
before the rate limit, on every /api path."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.storage.db import Database
from tasksvc_run.web.routes import ROUTES
from tests.builders import make_group
from tests.integration.web_helpers import GROUP, ME, WebEnv, web_env

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
ALLOWED: dict[str, set[str]] = {}
for _route in ROUTES:
    ALLOWED.setdefault(_route.path, set()).add(_route.method)
MISSING = [(path, method) for path, allowed in ALLOWED.items() for method in METHODS if method not in allowed]


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, members=(ME,))
    async with web_env(db) as env:
        yield env


def concrete(path: str) -> str:
    """The path with a sample value in place of its parameter (a group path gets a group id)."""
    return path.replace("{id}", GROUP) if path.startswith("/api/groups/") else path.replace("{id}", "1")


@pytest.mark.parametrize(("path", "method"), MISSING, ids=[f"{m} {p}" for p, m in MISSING])
async def test_a_method_the_path_does_not_have_is_405_with_allow_even_without_a_json_content_type(
        web: WebEnv, path: str, method: str) -> None:
    headers = {**web.session_for(ME), "Content-Type": "text/plain"}
    async with web.client.request(method, concrete(path), headers=headers, data="x") as response:
        problem = await response.json(content_type="application/problem+json")
        assert (response.status, problem["status"]) == (405, 405)
        assert set(response.headers["Allow"].split(",")) == ALLOWED[path]


async def test_put_on_my_tasks_is_405_not_415(web: WebEnv) -> None:
    async with web.client.put("/api/me/tasks", headers=web.session_for(ME)) as response:
        assert (response.status, response.headers["Allow"]) == (405, "GET")


async def test_every_api_path_has_some_method_it_does_not_have_so_the_check_covers_them_all() -> None:
    assert {path for path, _ in MISSING} == set(ALLOWED)


async def test_a_405_takes_nothing_from_the_rate_limit(db: Database) -> None:
    make_group(db, GROUP, members=(ME,))
    async with web_env(db, RATE_LIMIT_PER_MIN="1", RATE_LIMIT_BURST="1") as web:
        for _ in range(3):
            async with web.client.put("/api/me/tasks", headers=web.session_for(ME)) as response:
                assert response.status == 405
        assert (await web.call("POST", "/api/me/calendar"))[0] == 201


async def test_without_a_session_any_api_path_is_still_401_first(web: WebEnv) -> None:
    async with web.client.put("/api/me/tasks") as response:
        assert response.status == 401
