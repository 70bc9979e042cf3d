"""API tokens and calendar addresses never reach a log line (SPEC sections 2, 16 and 22), even when a request with
one fails in a way that is logged."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiohttp.test_utils import TestClient, TestServer

from taskcore.storage.db import Database
from tasksvc_run.logs import JsonFormatter, KeyValueFormatter
from tasksvc_run.web import calendar as calendar_pages
from tasksvc_run.web import make_web_app
from tests.builders import NOW, make_task
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import ME, WebEnv, web_settings


@asynccontextmanager
async def quiet_web_env(db: Database) -> AsyncIterator[WebEnv]:
    """The web app as ``tasksvc web`` serves it: without aiohttp's access log (whose request lines would show any
    path; the serving commands turn it off)."""
    settings = web_settings(WEB_BASE_URL="https://tareas.example")
    clock = FrozenClock(current=NOW)
    server = TestServer(make_web_app(settings, db=db, clock=clock))
    await server.start_server(access_log=None)
    client = TestClient(server)
    try:
        yield WebEnv(client, db, clock, settings)
    finally:
        await client.close()


def logged(records: list[logging.LogRecord]) -> str:
    """Every record as both formatters write it, tracebacks included."""
    return "\n".join(f"{KeyValueFormatter().format(r)}\n{JsonFormatter().format(r)}" for r in records)


async def test_no_token_or_feed_address_is_logged_whatever_happens(
    db: Database, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.DEBUG)
    make_task(db, creator=ME, group_id=None, due="2026-11-30")
    async with quiet_web_env(db) as web:
        _, made = await web.call("POST", "/api/me/tokens", json={"name": "script"})
        _, feed = await web.call("POST", "/api/me/calendar")
        token, path = made["token"], feed["url"].removeprefix("https://tareas.example")
        bearer = {"Authorization": f"Bearer {token}"}
        for headers in (bearer, {**bearer, **web.session_for(ME)}):
            async with web.client.get("/api/me/tasks", headers=headers) as response:
                await response.read()
        await web.call("DELETE", f"/api/me/tokens/{made['id']}")
        async with web.client.get("/api/me/tasks", headers=bearer) as response:
            assert response.status == 401

        def broken(*_: object, **__: object) -> bytes:
            raise RuntimeError("the feed could not be written")

        monkeypatch.setattr(calendar_pages, "build_calendar", broken)
        async with web.client.get(path) as response:
            assert response.status == 500
        await web.call("DELETE", "/api/me/calendar")
        async with web.client.get(path) as response:
            assert response.status == 404
    text = logged(caplog.records)
    assert "the feed could not be written" in text
    assert "/cal/…" in text
    assert token not in text
    assert path.removeprefix("/cal/").removesuffix(".ics") not in text
