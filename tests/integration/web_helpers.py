"""Shared pieces of the web tests: settings, an app on aiohttp's test server, signed-in sessions, a threaded server."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import jsonschema
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from taskcore.public_ids import public_id
from taskcore.services.people import public_key
from taskcore.services.web_auth import issue_login_token, redeem_login_token
from taskcore.settings import Settings, load_settings
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web import make_web_app
from tasksvc_run.web.session import COOKIE
from tests.builders import NOW
from tests.fakes.clock import FrozenClock

ME = "34600000001"
OTHER = "34600000002"
GROUP = "120363000000000001@g.us"
START_TIMEOUT = 10.0


def web_settings(**env: str) -> Settings:
    """Test settings with gating enforced; keyword names are variable names (RATE_LIMIT_PER_MIN="2")."""
    return load_settings({"NODE_ENV": "test", "GROUP_GATING_MODE": "enforce", **env})


@dataclass
class WebEnv:
    """A running app with its database, clock and client."""

    client: TestClient[web.Request, web.Application]
    db: Database
    clock: FrozenClock
    settings: Settings

    def pid(self, user: str) -> str:
        """``user``'s public id under this database's key (SPEC section 32): how the API names them."""
        return public_id(user, units.run(self.db, public_key, now=self.clock.now()))

    def session_for(self, user: str = ME) -> dict[str, str]:
        """Headers carrying a fresh session of ``user``."""
        token = units.run(self.db, issue_login_token, user_id=user, now=self.clock.now())
        session = units.run(self.db, redeem_login_token, token=token, now=self.clock.now())
        return {"Cookie": f"{COOKIE}={session.session_id}"}

    async def call(self, method: str, path: str, user: str | None = ME, **kwargs: Any) -> tuple[int, Any]:
        """Make a request as ``user`` (None: no session) and return the status and the decoded JSON body.

        A write without ``json``, ``data`` or a Content-Type declares JSON, as the pages' script does."""
        headers = {**(self.session_for(user) if user else {}), **kwargs.pop("headers", {})}
        sends_body = kwargs.get("json") is not None or "data" in kwargs
        if method != "GET" and not sends_body and "Content-Type" not in headers:
            headers["Content-Type"] = "application/json"
        async with self.client.request(method, path, headers=headers, **kwargs) as response:
            raw = await response.read()
            return response.status, json.loads(raw) if raw else None


@asynccontextmanager
async def web_env(db: Database, **env: str) -> AsyncIterator[WebEnv]:
    """The web app over ``db`` on aiohttp's test server (127.0.0.1, a free port)."""
    settings = web_settings(**env)
    clock = FrozenClock(current=NOW)
    client = TestClient(TestServer(make_web_app(settings, db=db, clock=clock)))
    await client.start_server()
    try:
        yield WebEnv(client, db, clock, settings)
    finally:
        await client.close()


class ThreadedServer:
    """A web app served on 127.0.0.1 (a free port) by an event loop in a background thread."""

    def __init__(self, app: web.Application) -> None:
        self.app = app
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._runner = web.AppRunner(app, access_log=None)
        self._thread = threading.Thread(target=self._serve, name="web-under-test", daemon=True)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(self._runner.cleanup())
        self._loop.close()

    async def _start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    @property
    def url(self) -> str:
        """http://127.0.0.1:<port>."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start serving; fail loudly if that takes more than START_TIMEOUT."""
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT):
            raise TimeoutError("the web app did not start")

    def stop(self) -> None:
        """Stop serving and wait (bounded) for the thread."""
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(START_TIMEOUT)


@contextmanager
def threaded_app(settings: Settings, db: Database, clock: FrozenClock | None = None) -> Iterator[ThreadedServer]:
    """The web app over ``db``, served from a background thread for the duration of the block."""
    server = ThreadedServer(make_web_app(settings, db=db, clock=clock or FrozenClock(current=NOW)))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def documented_schema(document: dict[str, Any], path: str, method: str, status: int) -> dict[str, Any]:
    """The JSON schema the OpenAPI document gives for this answer; KeyError when the status is undocumented."""
    response = document["paths"][path][method.lower()]["responses"][str(status)]
    (content,) = response["content"].values()
    # The schema's refs point into the document's components, so validate with the components beside it.
    return {**content["schema"], "components": document["components"]}


def check_documented(document: dict[str, Any], path: str, method: str, status: int, body: Any) -> None:
    """Fail unless ``body`` is what the document promises for this operation and status."""
    jsonschema.validate(body, documented_schema(document, path, method, status),
                        cls=jsonschema.Draft202012Validator)
