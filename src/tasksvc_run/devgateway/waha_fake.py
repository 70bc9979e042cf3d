"""A fake WAHA (GOWS engine): an aiohttp server on 127.0.0.1 speaking ../shared/gateway/waha/CONTRACT.md, for the
tests and for ``tasksvc dev --gateway waha``.

Like the real one it checks ``X-Api-Key`` (401) and then the session (404), validates every body, answers in the
samples' shapes and records every accepted call. Its store keeps what was sent (look-ups by id), its media files are
served by URL, and it pushes to the session's webhooks what WAHA would: the ``message.any`` echo of each send, then
receipts (``message.ack``, ``message.ack.group`` per member), ``session.status`` on a restart or ``set_connection``,
and what people write (``say``: ``message`` and ``message.any``), signed when the webhook has an HMAC key.

Its switches and test hooks mirror the Evolution fake (``devgateway.fake``), so one suite can drive either:
``fail_next``, ``hang_next``, ``hold``/``release``, ``store_webhook``/``lose_webhook``, ``set_connection``,
``calls_to``, ``sent_texts``, ``wait_for``, ``effects`` (receipts, ``refuse_cold``: a direct message to someone
who never wrote in private fails at once with HTTP 500 naming error 463). Anything off the contract's routes is
answered 404 and makes ``close()`` raise. aiohttp and the standard library only.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from taskcore.gateway.waha.decode import EVENTS
from tasksvc_run.devgateway import waha_records as records
from tasksvc_run.devgateway import waha_wire as wire
from tasksvc_run.devgateway.delivery import json_or_none
from tasksvc_run.devgateway.waha_hooks import WahaDeliveries, WahaEffects
from tasksvc_run.devgateway.waha_replies import WahaCall, reply
from tasksvc_run.devgateway.waha_store import WahaMedia, WahaStore

SEND_ROUTES = frozenset({"sendText", "reaction"})
ROUTES = (  # (method, path, route name): the sessions' and files' paths first, ahead of /api/{session}/...
    ("GET", "/api/server/version", "version"), ("GET", "/api/sessions/{session}/me", "me"),
    ("GET", "/api/sessions/{session}", "session"),
    ("PUT", "/api/sessions/{session}", "session/update"), ("GET", "/api/files/{session}/{name}", "files"),
    ("POST", "/api/sendText", "sendText"), ("PUT", "/api/reaction", "reaction"),
    ("GET", "/api/{session}/groups", "groups"),
    ("GET", "/api/{session}/groups/{group}/participants/v2", "participants"),
    ("GET", "/api/{session}/new-message-id", "new-message-id"),
    ("GET", "/api/{session}/chats/{chat}/messages", "chat/messages"),
    ("GET", "/api/{session}/chats/{chat}/messages/{message}", "chat/message"),
    ("GET", "/api/{session}/lids/{lid}", "lids"),
)
CONNECTION = {"open": "WORKING", "connecting": "STARTING", "close": "STOPPED"}


@dataclass
class _Script:
    route: str | None
    times: int
    status: int | None = None
    body: Any = None
    delay: float = 0.0


@dataclass
class FakeWaha:
    """The fake server; ``async with FakeWaha() as waha:`` starts it and ``waha.url`` is its base URL. ``instance``
    is the session's name; ``groups`` are GOWS ``GroupInfo`` objects (the sample's shape)."""

    api_key: str = "test-api-key"
    instance: str = "taskbot"
    groups: list[dict[str, Any]] = field(default_factory=list)
    participants: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    send_delay: float = 0.0
    state: str = "WORKING"
    version: str = "2026.7.1"  # what GET /api/server/version reports (WAHA's own, with its engine GOWS)
    owner_jid: str | None = "34600000999@s.whatsapp.net"  # the session's own number (None: never paired)
    owner_lid: str | None = "211000000000999@lid"
    config: dict[str, Any] | None = None  # the session's configuration (its webhooks)
    lids: dict[str, str | None] = field(default_factory=dict)  # LID -> phone (``@c.us``) beyond the groups'
    store: WahaStore = field(default_factory=WahaStore)
    effects: WahaEffects = field(default_factory=WahaEffects)
    media: WahaMedia = field(default_factory=WahaMedia)
    calls: list[WahaCall] = field(default_factory=list, init=False)
    failed: list[tuple[str, int]] = field(default_factory=list, init=False)
    dropped: list[WahaCall] = field(default_factory=list, init=False)
    unexpected: list[str] = field(default_factory=list, init=False)
    restarts: int = field(default=0, init=False)
    held: int = field(default=0, init=False)
    url: str = field(default="", init=False)
    port: int = 0
    _scripts: list[_Script] = field(default_factory=list, init=False)
    _open: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _runner: web.AppRunner | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.deliveries = WahaDeliveries(self.instance)

    @property
    def me(self) -> records.Me | None:
        """The session's own account (None before pairing)."""
        if not self.owner_jid:
            return None
        return records.Me(self.owner_jid.partition("@")[0].partition(":")[0] + "@c.us", self.owner_lid)

    async def start(self) -> str:
        """Listen on 127.0.0.1, a free port; return the base URL."""
        self._open.set()
        app = web.Application()
        for method, path, route in ROUTES:
            app.router.add_route(method, path, self._endpoint(route))
        self.add_routes(app)
        app.router.add_route("*", "/{tail:.*}", self._unexpected)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
        return self.url

    def add_routes(self, app: web.Application) -> None:
        """Hook for subclasses: routes served beside WAHA's own (the simulator's)."""

    async def close(self) -> None:
        """Stop serving; raise AssertionError when a request went to a route the contract does not have."""
        self._open.set()
        await self.deliveries.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.unexpected:
            raise AssertionError(f"fake WAHA got requests off the contract: {self.unexpected}")

    async def __aenter__(self) -> FakeWaha:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def fail_next(self, times: int = 1, *, status: int = 500, body: Any = None, route: str | None = None) -> None:
        """The next ``times`` calls (of ``route``, or any) answer ``status`` with ``body`` (default: an engine
        error that names no WhatsApp code)."""
        self._scripts.append(_Script(route, times, status, body if body is not None else wire.engine_error(
            "14 UNAVAILABLE: scripted failure", {}, 14)))

    def hang_next(self, times: int = 1, *, seconds: float, route: str | None = None) -> None:
        """The next ``times`` calls wait ``seconds`` before being carried out (if their caller is still there)."""
        self._scripts.append(_Script(route, times, delay=seconds))

    def hold(self) -> None:
        """Sends wait from now on until ``release()``."""
        self._open.clear()

    def release(self) -> None:
        """Let held sends go on (those whose caller went away are dropped)."""
        self._open.set()

    def store_webhook(self, url: str, *, events: list[str] | None = None, hmac_key: str | None = None,
                      retries: dict[str, Any] | None = None) -> dict[str, Any]:
        """Configure the session's one webhook as a ``PUT /api/sessions`` would (no restart); the configuration."""
        hook = {"url": url, "events": list(events if events is not None else EVENTS),
                "hmac": {"key": hmac_key} if hmac_key else None, "retries": retries, "customHeaders": None}
        self.config = {"metadata": {}, "webhooks": [hook]}
        return copy.deepcopy(self.config)

    def lose_webhook(self) -> None:
        """Forget the webhooks (a session re-created without them): nothing is posted any more."""
        if self.config is not None:
            self.config = {**self.config, "webhooks": []}

    def set_connection(self, state: str) -> None:
        """The session's status changes (``WORKING``, ``STARTING``, ``FAILED``...; or Evolution's ``open``,
        ``connecting``, ``close``) and ``session.status`` is posted; while not ``WORKING`` sends answer 422."""
        self.state = CONNECTION.get(state, state)
        self.deliveries.emit(self.config, "session.status", self.status_payload(), self.me)

    def status_payload(self) -> dict[str, Any]:
        """The payload of ``session.status``."""
        return {"name": self.instance, "status": self.state,
                "statuses": [{"status": self.state, "timestamp": int(time.time() * 1000)}], "data": None}

    def say(self, said: records.Said) -> str:
        """Someone writes to the bot: the message is stored and posted as ``message`` and ``message.any``, as
        WAHA does; a direct message counts as writing in private. Its bare id."""
        bare = wire.message_id().replace("3EB0", "3A", 1)
        record = records.said_record(said, bare, time.time())
        self.store.keep(record)
        if not records.is_group(said.chat):
            self.effects.wrote_privately.add(said.chat.partition("@")[0])
        self.deliveries.emit_all(self.config, [("message", record), ("message.any", record)], self.me)
        return bare

    def calls_to(self, route: str) -> list[WahaCall]:
        """Accepted calls of one route, in order."""
        return [call for call in self.calls if call.route == route]

    def sent_texts(self) -> list[str]:
        """The ``text`` of every accepted sendText, in order."""
        return [call.body["text"] for call in self.calls_to("sendText")]

    async def wait_for(self, predicate: Callable[[FakeWaha], bool], within: float = 5.0) -> None:
        """Wait until ``predicate(self)`` holds after some call was answered; AssertionError after ``within`` s."""
        try:
            async with asyncio.timeout(within):
                while not predicate(self):
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"fake WAHA: condition not met within {within} s; calls={self.calls}") from None

    def _endpoint(self, route: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            return await self._serve(route, request)

        return handle

    def _authorized(self, request: web.Request) -> bool:
        return self.api_key in (request.headers.get("X-Api-Key"), request.query.get("x-api-key"))

    async def _serve(self, route: str, request: web.Request) -> web.StreamResponse:
        if not self._authorized(request):
            self.failed.append((route, 401))
            return web.json_response(wire.unauthorized(), status=401)
        body = await json_or_none(request) if request.method in ("POST", "PUT") else None
        named = body.get("session") if isinstance(body, dict) else None
        session = request.match_info.get("session") or (named if isinstance(named, str) else "default")
        if session != self.instance:
            self.failed.append((route, 404))
            return web.json_response(wire.session_not_found(session), status=404)
        script = self._next_script(route)
        if script is not None and script.status is not None:
            self.failed.append((route, script.status))
            self._changed.set()
            return web.json_response(script.body, status=script.status)
        await self._wait(route, script)
        call = WahaCall(route, request.method, dict(request.query), body, dict(request.headers),
                        dict(request.match_info))
        if request.transport is None or request.transport.is_closing():
            self.dropped.append(call)
            self._changed.set()
            return web.Response(status=499)
        if route == "files":
            return self._file(call)
        return self._answer(call)

    def _next_script(self, route: str) -> _Script | None:
        for script in self._scripts:
            if script.route in (None, route):
                script.times -= 1
                if script.times <= 0:
                    self._scripts.remove(script)
                return script
        return None

    async def _wait(self, route: str, script: _Script | None) -> None:
        delay = (script.delay if script else 0.0) + (self.send_delay if route in SEND_ROUTES else 0.0)
        if delay:
            await asyncio.sleep(delay)
        if route in SEND_ROUTES and not self._open.is_set():
            self.held += 1
            self._changed.set()
            try:
                await self._open.wait()
            finally:
                self.held -= 1

    def _answer(self, call: WahaCall) -> web.Response:
        status, answer = reply(self, call)
        if status >= 400:
            self.failed.append((call.route, status))
        else:
            self.calls.append(dataclasses.replace(call, answer=answer))
        self._changed.set()
        return web.json_response(answer, status=status)

    def _file(self, call: WahaCall) -> web.Response:
        found = self.media.files.get(call.params.get("name", ""))
        if found is None:
            self.failed.append(("files", 404))
            return web.json_response(wire.file_gone(), status=404)
        self.calls.append(call)
        self._changed.set()
        return web.Response(body=found[0], content_type=found[1])

    async def _unexpected(self, request: web.Request) -> web.Response:
        self.unexpected.append(f"{request.method} {request.path}")
        return web.json_response(wire.not_found(f"Cannot {request.method} {request.path}"), status=404)
