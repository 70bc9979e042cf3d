"""A real bot app on 127.0.0.1 over a real SQLite file, and the few calls its tests make."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from taskcore.settings import load_settings
from taskcore.storage.db import Database
from tasksvc_run.bot.app import drain, make_bot_app
from tasksvc_run.bot.background import install_background
from tests.builders import NOW
from tests.chat_support import Queued, last_id, queued
from tests.fakes.clock import FrozenClock

DRAIN_SECONDS = 10.0


class Failures(logging.Handler):
    """Collects the processor's error records: an event that failed in the background fails the test."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Bot:
    """The running app, its client, database and clock."""

    client: TestClient[web.Request, web.Application]
    app: web.Application
    db: Database
    clock: FrozenClock
    failures: Failures

    async def post(self, payload: object, *, path: str = "/webhook",
                   headers: Mapping[str, str] | None = None) -> tuple[int, Any]:
        """POST a JSON payload; (status, decoded body)."""
        response = await self.client.post(path, json=payload, headers=headers)
        return response.status, await response.json(content_type=None)

    async def settle(self) -> None:
        """Wait (bounded) until every acknowledged event has been handled, and check that none failed."""
        await drain(self.app, DRAIN_SECONDS)
        assert not self.failures.records, [r.getMessage() for r in self.failures.records]

    async def send(self, payload: object, *, path: str = "/webhook", **kw: Any) -> list[Queued]:
        """POST, expect 200, wait for processing; the jobs it queued."""
        before = last_id(self.db)
        status, body = await self.post(payload, path=path, **kw)
        assert status == 200, body
        await self.settle()
        return queued(self.db, after=before)


@asynccontextmanager
async def running_bot(db: Database, env: Mapping[str, str] | None = None, *,
                      background: bool = False) -> AsyncIterator[Bot]:
    """Start the bot app with ``env`` (NODE_ENV=test unless given); stop it afterwards. With ``background``, its
    background work as a served bot has it (the gateway's client, the worker, the scheduler runtime: not started in
    test unless FORCE_SCHEDULERS)."""
    settings = load_settings({"NODE_ENV": "test", "WEB_BASE_URL": "https://tareas.example", **(env or {})})
    clock = FrozenClock(NOW)
    app = make_bot_app(settings, db=db, clock=clock)
    if background:
        install_background(app)
    failures = Failures()
    processor_log = logging.getLogger("tasksvc_run.bot.processor")
    processor_log.addHandler(failures)
    try:
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            yield Bot(client, app, db, clock, failures)
    finally:
        processor_log.removeHandler(failures)
