"""The web process answers for a recently read session from memory, within bounds the user can rely on."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import delete

from taskcore.services.web_auth import SESSION_CACHE_TTL
from taskcore.storage.db import Database
from taskcore.storage.schema import web_sessions
from tests.integration.web_helpers import WebEnv, web_env


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with web_env(db) as env:
        yield env


async def test_a_session_used_just_before_logout_is_refused_right_after_it(web: WebEnv) -> None:
    headers = web.session_for()
    assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 200
    async with web.client.post("/logout", headers=headers, allow_redirects=False) as response:
        assert response.status == 303
    assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 401


async def test_a_session_ended_by_another_process_stops_working_within_the_cache_window(web: WebEnv) -> None:
    headers = web.session_for()
    assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 200
    with web.db.write() as conn:  # another web process signed it out
        conn.execute(delete(web_sessions))
    web.clock.advance(SESSION_CACHE_TTL)
    assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 401
