"""A fake Evolution API v2 gateway: an aiohttp server on 127.0.0.1 speaking ../shared/gateway/CONTRACT.md.

It checks the instance (404) and then the ``apikey`` header (401) like the real one, validates every body, answers in
the samples' shapes, and records every accepted call. Failures are scriptable (``fail_next``, ``hang_next``, ``hold``),
and so is what the diagnostic calls see (``state``, ``groups_ignore``, ``version``, ``license_required``,
``store_webhook``), and a send is only carried out once its delay is over: a caller that went away before then is
dropped, not sent. Every accepted send is echoed to the webhook, its statuses follow (``effects``), it is kept for
``findMessages``; ``lose_webhook``, ``deliveries.delivering`` and ``set_connection`` play the gateway's failures.
Anything off the contract's routes is answered 404 and makes ``close()`` raise. aiohttp and the standard library only.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tasksvc_run.devgateway import wire
from tasksvc_run.devgateway.delivery import Deliveries, SentStore, connection_data, instances_answer, json_or_none
from tasksvc_run.devgateway.effects import SendEffects
from tasksvc_run.devgateway.media import MediaStore

SEND_ROUTES = frozenset({"sendText", "sendReaction"})


@dataclass(frozen=True)
class GatewayCall:
    """One request the fake accepted."""

    route: str
    method: str
    query: dict[str, str]
    body: Any
    headers: dict[str, str]
    answer: Any = None


@dataclass
class _Script:
    route: str | None
    times: int
    status: int | None = None
    body: Any = None
    delay: float = 0.0


@dataclass
class FakeGateway:
    """The fake server; ``async with FakeGateway() as gw:`` starts it and ``gw.url`` is its base URL."""

    api_key: str = "test-api-key"
    instance: str = "taskbot"
    groups: list[dict[str, Any]] = field(default_factory=list)
    participants: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    send_delay: float = 0.0
    state: str = "open"
    groups_ignore: bool | None = False  # None: no settings row, /settings/find answers null
    version: str | None = "2.3.7"  # None: GET / reports no version
    license_required: bool = False  # a 2.4 gateway not activated: instance routes answer 503 LICENSE_REQUIRED
    owner_jid: str | None = "34600000999@s.whatsapp.net"  # the instance's own number (None: never paired)
    store: SentStore = field(default_factory=SentStore)
    effects: SendEffects = field(default_factory=SendEffects)  # echo form, statuses, 463 on cold DMs (SPEC 31)
    media: MediaStore = field(default_factory=MediaStore)  # the photos it holds (SPEC section 34)
    calls: list[GatewayCall] = field(default_factory=list, init=False)
    failed: list[tuple[str, int]] = field(default_factory=list, init=False)
    dropped: list[GatewayCall] = field(default_factory=list, init=False)
    unexpected: list[str] = field(default_factory=list, init=False)
    webhook: dict[str, Any] | None = field(default=None, init=False)
    webhook_row: dict[str, Any] | None = field(default=None, init=False)
    held: int = field(default=0, init=False)
    url: str = field(default="", init=False)
    _scripts: list[_Script] = field(default_factory=list, init=False)
    _open: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    port: int = 0
    _runner: web.AppRunner | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.deliveries = Deliveries(self.instance, self.owner_jid)

    async def start(self) -> str:
        """Listen on 127.0.0.1, a free port; return the base URL."""
        self._open.set()
        app = web.Application()
        for method, path, route in (
            ("POST", "/message/sendText/{instance}", "sendText"),
            ("POST", "/message/sendReaction/{instance}", "sendReaction"),
            ("GET", "/group/fetchAllGroups/{instance}", "fetchAllGroups"),
            ("GET", "/group/participants/{instance}", "participants"),
            ("POST", "/webhook/set/{instance}", "webhook/set"),
            ("GET", "/instance/connectionState/{instance}", "connectionState"),
            ("GET", "/settings/find/{instance}", "settings/find"),
            ("GET", "/webhook/find/{instance}", "webhook/find"),
            ("POST", "/chat/findMessages/{instance}", "findMessages"),
            ("POST", "/chat/getBase64FromMediaMessage/{instance}", "getBase64FromMediaMessage"),
        ):
            app.router.add_route(method, path, self._endpoint(route))
        app.router.add_get("/", self._root)
        app.router.add_get("/instance/fetchInstances", self._instances)
        self.add_routes(app)
        app.router.add_route("*", "/{tail:.*}", self._unexpected)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    def add_routes(self, app: web.Application) -> None:
        """Hook for subclasses: routes served beside the gateway's own."""

    async def close(self) -> None:
        """Stop serving; raise AssertionError when a request went to a route the contract does not have."""
        self._open.set()
        await self.deliveries.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.unexpected:
            raise AssertionError(f"fake gateway got requests off the contract: {self.unexpected}")

    async def __aenter__(self) -> FakeGateway:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def fail_next(self, times: int = 1, *, status: int = 500, body: Any = None, route: str | None = None) -> None:
        """The next ``times`` calls (of ``route``, or any) answer ``status`` with ``body`` (default: an error body)."""
        self._scripts.append(_Script(route, times, status, body if body is not None else wire.error_body(
            status, ["Error: scripted failure"])))

    def hang_next(self, times: int = 1, *, seconds: float, route: str | None = None) -> None:
        """The next ``times`` calls wait ``seconds`` before being carried out (if their caller is still there)."""
        self._scripts.append(_Script(route, times, delay=seconds))

    def hold(self) -> None:
        """Sends wait from now on until ``release()``."""
        self._open.clear()

    def release(self) -> None:
        """Let held sends go on (those whose caller went away are dropped)."""
        self._open.set()

    def store_webhook(
        self, url: str, *, enabled: bool = True, events: list[str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Store a webhook as ``webhook/set`` would (what ``/webhook/find`` answers); the stored row."""
        body = {"enabled": enabled, "url": url, "events": list(events or []), "headers": dict(headers or {})}
        self.webhook = copy.deepcopy(body)
        self.webhook_row = wire.webhook_answer(body)
        return self.webhook_row

    def lose_webhook(self) -> None:
        """Forget the webhook configuration (a reset, a new instance): ``/webhook/find`` answers null."""
        self.webhook = self.webhook_row = None

    def set_connection(self, state: str, reason: int = 200) -> None:
        """The session opens or closes (``connection.update``); while not open, sends fail with Connection Closed."""
        self.state = state
        self.deliveries.emit(self.webhook_row, "connection.update",
                             connection_data(self.instance, state, reason, self.owner_jid))

    def calls_to(self, route: str) -> list[GatewayCall]:
        """Accepted calls of one route, in order."""
        return [call for call in self.calls if call.route == route]

    def sent_texts(self) -> list[str]:
        """The ``text`` of every accepted sendText, in order."""
        return [call.body["text"] for call in self.calls_to("sendText")]

    async def wait_for(self, predicate: Callable[[FakeGateway], bool], within: float = 5.0) -> None:
        """Wait until ``predicate(self)`` holds after some call was answered; AssertionError after ``within`` s."""
        try:
            async with asyncio.timeout(within):
                while not predicate(self):
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"fake gateway: condition not met within {within} s; calls={self.calls}") from None

    def _record(self, call: GatewayCall) -> None:
        self.calls.append(call)
        self._changed.set()

    def _endpoint(self, route: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            return await self._serve(route, request)

        return handle

    async def _root(self, request: web.Request) -> web.Response:
        return web.json_response(wire.root_answer(self.version, self.url))

    async def _serve(self, route: str, request: web.Request) -> web.StreamResponse:
        if self.license_required:
            self.failed.append((route, 503))
            return web.json_response(wire.license_required_body(), status=503)
        if request.match_info["instance"] != self.instance:
            message = f'The "{request.match_info["instance"]}" instance does not exist'
            return _error(404, [message])
        if request.headers.get("apikey") != self.api_key:
            return _error(401, "Unauthorized")
        body = await json_or_none(request)
        script = self._next_script(route)
        if script is not None and script.status is not None:
            self.failed.append((route, script.status))
            self._changed.set()
            return web.json_response(script.body, status=script.status)
        await self._wait(route, script)
        call = GatewayCall(route, request.method, dict(request.query), body, dict(request.headers))
        if request.transport is None or request.transport.is_closing():
            self.dropped.append(call)
            self._changed.set()
            return web.Response(status=499)
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

    def _answer(self, call: GatewayCall) -> web.Response:
        status, body = self._reply(call)
        if status >= 400:
            self.failed.append((call.route, status))
            self._changed.set()
        else:
            self._record(dataclasses.replace(call, answer=body))
        if status < 400 and call.route in SEND_ROUTES:
            self.store.keep(body)
            self.deliveries.emit_all(self.webhook_row, self.effects.events(body))
        return web.json_response(body, status=status)

    def _reply(self, call: GatewayCall) -> tuple[int, Any]:
        if call.method == "GET":
            return self._read(call)
        if call.route in ("findMessages", "getBase64FromMediaMessage"):
            return self.store.find(call.body) if call.route == "findMessages" else self.media.answer(call.body)
        if call.route in SEND_ROUTES and self.state != "open":
            return 400, wire.error_body(400, ["Error: Connection Closed"])
        problem = wire.CHECKS[call.route](call.body)
        if problem is not None:
            return problem[0], wire.error_body(*problem)
        answer = wire.ANSWERS[call.route](call.body)
        if call.route == "webhook/set":
            self.webhook = copy.deepcopy(call.body["webhook"])
            self.webhook_row = copy.deepcopy(answer)
        return 201, answer

    def _read(self, call: GatewayCall) -> tuple[int, Any]:
        if call.route == "fetchAllGroups":
            return wire.groups_answer(self.groups, call.query.get("getParticipants"))
        if call.route == "participants":
            jid = call.query.get("groupJid")
            return wire.participants_answer(jid, self.participants.get(jid or "", None), self.groups)
        if call.route == "settings/find":
            return 200, wire.settings_answer(self.groups_ignore)
        if call.route == "webhook/find":
            return 200, copy.deepcopy(self.webhook_row)
        return 200, {"instance": {"instanceName": self.instance, "state": self.state}}

    async def _instances(self, request: web.Request) -> web.Response:
        status, body = instances_answer(self, request.query.get("instanceName"), request.headers.get("apikey"))
        if status == 200:
            self._record(GatewayCall("fetchInstances", "GET", dict(request.query), None, dict(request.headers)))
        return web.json_response(body, status=status)

    async def _unexpected(self, request: web.Request) -> web.Response:
        self.unexpected.append(f"{request.method} {request.path}")
        return _error(404, [f"Cannot {request.method} {request.path}"])


def _error(status: int, messages: object) -> web.Response:
    return web.json_response(wire.error_body(status, messages), status=status)
