"""A fake Evolution API v2 gateway: an aiohttp server on 127.0.0.1 speaking ../shared/gateway/CONTRACT.md.

It checks the instance (404) and then the ``apikey`` header (401) like the real one, validates every body, answers in
the samples' shapes, and records every accepted call. Failures are scriptable (``devgateway.loopback``:
``fail_next``, ``hang_next``, ``answer_late``, ``hold``), and so is what the diagnostic calls see (``state``,
``groups_ignore``, ``version``, ``license_required``, ``store_webhook``), and a send is only carried out once its
delay is over: a caller that went away before then is dropped, not sent. Every accepted send is echoed to the
webhook, its statuses follow (``effects``), it is kept for ``findMessages``; ``lose_webhook``,
``deliveries.delivering`` and ``set_connection`` play the gateway's failures.
Anything off the contract's routes is answered 404 and makes ``close()`` raise. aiohttp and the standard library only.
"""

from __future__ import annotations

import copy
import dataclasses
import secrets
from dataclasses import dataclass, field
from typing import Any, ClassVar

from aiohttp import web

from tasksvc_run.devgateway import upserts, wire
from tasksvc_run.devgateway.acts import BOT_JID, BotSent, Group, Member, Reacted, Written, user_of
from tasksvc_run.devgateway.delivery import (
    Deliveries,
    Posted,
    SentStore,
    connection_data,
    instances_answer,
    json_or_none,
)
from tasksvc_run.devgateway.effects import SendEffects
from tasksvc_run.devgateway.loopback import LoopbackFake, answered
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


ROUTES = (
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
)


@dataclass
class FakeGateway(LoopbackFake[GatewayCall]):
    """The fake server; ``async with FakeGateway() as gw:`` starts it and ``gw.url`` is its base URL."""

    send_routes: ClassVar[frozenset[str]] = SEND_ROUTES

    groups: list[dict[str, Any]] = field(default_factory=list)
    participants: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    state: str = "open"
    groups_ignore: bool | None = False  # None: no settings row, /settings/find answers null
    version: str | None = "2.3.7"  # None: GET / reports no version
    license_required: bool = False  # a 2.4 gateway not activated: instance routes answer 503 LICENSE_REQUIRED
    store: SentStore = field(default_factory=SentStore)
    effects: SendEffects = field(default_factory=SendEffects)  # echo form, statuses, 463 on cold DMs (SPEC 31)
    media: MediaStore = field(default_factory=MediaStore)  # the photos it holds (SPEC section 34)
    webhook: dict[str, Any] | None = field(default=None, init=False)
    webhook_row: dict[str, Any] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.deliveries = Deliveries(self.instance, self.owner_jid)

    def routes(self, app: web.Application) -> None:
        """The contract's routes."""
        for method, path, route in ROUTES:
            app.router.add_route(method, path, self.endpoint(route))
        app.router.add_get("/", self._root)
        app.router.add_get("/instance/fetchInstances", self._instances)

    async def stop_posting(self) -> None:
        """Let the webhook posts under way end."""
        await self.deliveries.close()

    def failure_body(self) -> Any:
        """Evolution API's error envelope."""
        return wire.error_body(500, ["Error: scripted failure"])

    def off_route(self, said: str) -> Any:
        """Evolution API's 404."""
        return wire.error_body(404, [said])

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

    def new_id(self) -> str:
        """A person's message id, as WhatsApp clients make them (20 hex digits)."""
        return secrets.token_hex(10).upper()

    async def write(self, written: Written) -> int | None:
        """A person writes (a ``messages.upsert``; the photo kept for getBase64FromMediaMessage); a direct message
        counts as writing in private."""
        if written.photo is not None:
            self.media.give(written.id, written.photo, written.mimetype)
        if not written.in_group:
            self.effects.wrote_privately.add(user_of(written.sender))
        return await self.post("messages.upsert", upserts.message_data(written))

    async def react(self, reacted: Reacted) -> int | None:
        """A person reacts (a ``reactionMessage`` upsert)."""
        return await self.post("messages.upsert", upserts.reaction_data(reacted, self.owner_jid or BOT_JID))

    async def join(self, group: Group) -> int | None:
        """The bot is added to ``group``: listed from now on, announced by ``groups.upsert``."""
        self.groups.append(upserts.group_row(group))
        return await self.post("groups.upsert", upserts.groups_upsert_data(group))

    async def change(self, group: Group, action: str, member: Member) -> int | None:
        """A member added or promoted: the group listed as it is now, told by ``group-participants.update``."""
        self.groups = [row for row in self.groups if row.get("id") != group.id] + [upserts.group_row(group)]
        return await self.post("group-participants.update", upserts.participants_data(group.id, action, member))

    async def post(self, event: str, data: Any) -> int | None:
        """Post one event to the registered webhook (waiting a while for the bot to register one); its answer."""
        if not await self.listening(lambda fake: fake.webhook_row is not None):
            return None
        if not self.deliveries.emit(self.webhook_row, event, data):
            return None
        return await answered(self.deliveries.posted, lambda post: post.event == event and _same(post, data))

    def read_send(self, call: GatewayCall) -> BotSent | None:
        """A sendText or sendReaction in the port's words."""
        return upserts.read_send(call.route, call.body, call.answer)

    async def _root(self, request: web.Request) -> web.Response:
        return web.json_response(wire.root_answer(self.version, self.url))

    async def admit(self, route: str, request: web.Request) -> GatewayCall | web.StreamResponse:
        """The call; 503 for an unlicensed gateway, 404 for another instance, 401 for a wrong ``apikey``."""
        if self.license_required:
            self.refused(route, 503)
            return web.json_response(wire.license_required_body(), status=503)
        if request.match_info["instance"] != self.instance:
            message = f'The "{request.match_info["instance"]}" instance does not exist'
            return _error(404, [message])
        if request.headers.get("apikey") != self.api_key:
            return _error(401, "Unauthorized")
        body = await json_or_none(request)
        return GatewayCall(route, request.method, dict(request.query), body, dict(request.headers))

    def carry_out(self, call: GatewayCall) -> web.Response:
        """Answer the call; a send is kept, echoed and followed by its statuses."""
        status, body = self._reply(call)
        if status >= 400:
            self.refused(call.route, status)
        else:
            self.record(dataclasses.replace(call, answer=body))
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
            self.record(GatewayCall("fetchInstances", "GET", dict(request.query), None, dict(request.headers)))
        return web.json_response(body, status=status)


def _same(post: Posted, data: Any) -> bool:
    """Whether a post carries ``data`` (a message's by its key id, a group's by its id)."""
    posted = post.body.get("data")
    if isinstance(data, list):
        return isinstance(posted, list) and [g.get("id") for g in posted] == [g.get("id") for g in data]
    if "key" not in data:  # a group's participants changed
        return isinstance(posted, dict) and (posted.get("id"), posted.get("action")) == (data["id"], data["action"])
    return isinstance(posted, dict) and posted.get("key", {}).get("id") == data["key"]["id"]


def _error(status: int, messages: object) -> web.Response:
    return web.json_response(wire.error_body(status, messages), status=status)
