"""A fake WAHA (GOWS engine): an aiohttp server on 127.0.0.1 speaking ../shared/gateway/waha/CONTRACT.md, for the
tests and for ``tasksvc dev --gateway waha``.

Like the real one it checks ``X-Api-Key`` (401) and then the session (404), validates every body, answers in the
samples' shapes and records every accepted call. Its store keeps what was sent (look-ups by id), its media files are
served by URL, and it pushes to the session's webhooks what WAHA would: the ``message.any`` echo of each send, then
receipts (``message.ack``, ``message.ack.group`` per member), ``session.status`` on a restart or ``set_connection``,
and what people write (``say``: ``message`` and ``message.any``), signed when the webhook has an HMAC key.

Its switches and test hooks are the Evolution fake's (``devgateway.fake``; both are ``devgateway.loopback``'s), so
one suite can drive either: ``fail_next``, ``hang_next``, ``answer_late``, ``hold``/``release``,
``store_webhook``/``lose_webhook``, ``set_connection``, ``calls_to``, ``sent_texts``, ``wait_for``, ``effects``
(receipts, ``refuse_cold``: a direct message to someone who never wrote in private fails at once with HTTP 500
naming error 463). Anything off the contract's routes is answered 404 and makes ``close()`` raise. aiohttp and the
standard library only.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from aiohttp import web

from taskcore.gateway.waha.decode import EVENTS
from tasksvc_run.devgateway import waha_records as records
from tasksvc_run.devgateway import waha_wire as wire
from tasksvc_run.devgateway.acts import BotSent, Group, Member, Reacted, Written
from tasksvc_run.devgateway.delivery import json_or_none
from tasksvc_run.devgateway.loopback import LoopbackFake, answered
from tasksvc_run.devgateway.waha_hooks import Posted, WahaDeliveries, WahaEffects, subscribed
from tasksvc_run.devgateway.waha_replies import WahaCall, read_send, reply
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
class FakeWaha(LoopbackFake[WahaCall]):
    """The fake server; ``async with FakeWaha() as waha:`` starts it and ``waha.url`` is its base URL. ``instance``
    is the session's name; ``groups`` are GOWS ``GroupInfo`` objects (the sample's shape)."""

    label: ClassVar[str] = "fake WAHA"
    send_routes: ClassVar[frozenset[str]] = SEND_ROUTES

    groups: list[dict[str, Any]] = field(default_factory=list)
    participants: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    state: str = "WORKING"
    version: str = "2026.7.1"  # what GET /api/server/version reports (WAHA's own, with its engine GOWS)
    owner_lid: str | None = "211000000000999@lid"
    config: dict[str, Any] | None = None  # the session's configuration (its webhooks)
    lids: dict[str, str | None] = field(default_factory=dict)  # LID -> phone (``@c.us``) beyond the groups'
    store: WahaStore = field(default_factory=WahaStore)
    effects: WahaEffects = field(default_factory=WahaEffects)
    media: WahaMedia = field(default_factory=WahaMedia)
    restarts: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.deliveries = WahaDeliveries(self.instance)

    @property
    def me(self) -> records.Me | None:
        """The session's own account (None before pairing)."""
        if not self.owner_jid:
            return None
        return records.Me(self.owner_jid.partition("@")[0].partition(":")[0] + "@c.us", self.owner_lid)

    def routes(self, app: web.Application) -> None:
        """The contract's routes."""
        for method, path, route in ROUTES:
            app.router.add_route(method, path, self.endpoint(route))

    async def stop_posting(self) -> None:
        """Let the webhook posts under way end."""
        await self.deliveries.close()

    def failure_body(self) -> Any:
        """An engine error that names no WhatsApp code."""
        return wire.engine_error("14 UNAVAILABLE: scripted failure", {}, 14)

    def off_route(self, said: str) -> Any:
        """NestJS's 404."""
        return wire.not_found(said)

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

    def say(self, said: records.Said, bare: str | None = None) -> str:
        """Someone writes to the bot: the message is stored and posted as ``message`` and ``message.any``, as
        WAHA does; a direct message counts as writing in private. Its bare id (``bare``, or a fresh one)."""
        bare = bare or self.new_id()
        record = records.said_record(said, bare, time.time())
        self.store.keep(record)
        if not records.is_group(said.chat):
            self.effects.wrote_privately.add(said.chat.partition("@")[0])
        self.deliveries.emit_all(self.config, [("message", record), ("message.any", record)], self.me)
        return bare

    def new_id(self) -> str:
        """A person's message id (``3A`` and 18 hex digits, as phones make them)."""
        return wire.message_id().replace("3EB0", "3A", 1)

    async def write(self, written: Written) -> int | None:
        """A person writes (``say``); a photo is kept among the files and its URL given as ``media.url``."""
        media = None
        if written.photo is not None:
            name = f"{written.id}.{written.mimetype.rpartition('/')[2]}"
            self.media.give(name, written.photo, written.mimetype)
            media = {"url": f"{self.url}/api/files/{self.instance}/{name}", "mimetype": written.mimetype,
                     "size": len(written.photo)}
        quoted = written.quoted
        said = records.Said(
            wire.waha_jid(written.chat), wire.waha_jid(written.sender), written.text, written.name,
            wire.waha_jid(written.phone) if written.phone else "", None if quoted is None else records.Quoted(
                quoted.id, wire.waha_jid(quoted.author), quoted.text),
            tuple(wire.waha_jid(jid) for jid in written.mentions), media)
        return await self._posted(("message", "message.any"), written.id, lambda: self.say(said, written.id))

    async def react(self, reacted: Reacted) -> int | None:
        """A person reacts (``message.reaction``)."""
        me = self.me
        if me is None:
            return None
        chat, reactor = wire.waha_jid(reacted.chat), wire.waha_jid(reacted.sender)
        target = records.reacted_id(me, chat, reacted.target.id, author=wire.waha_jid(reacted.target.author),
                                    reactor=reactor)
        record = records.reaction_record(records.Reaction(chat, reactor, reacted.emoji, target), reacted.id,
                                         time.time())
        return await self._posted(("message.reaction",), reacted.id, lambda: self._emit("message.reaction", record))

    async def join(self, group: Group) -> int | None:
        """The bot is added to ``group``: listed from now on, announced by ``group.v2.join``."""
        self.groups.append(records.group_info(group))
        payload = records.join_payload(group, time.time())
        return await self._posted(("group.v2.join",), group.id, lambda: self._emit("group.v2.join", payload))

    async def change(self, group: Group, action: str, member: Member) -> int | None:
        """A member added or promoted: the group listed as it is now, told by ``group.v2.participants``."""
        self.groups = [row for row in self.groups if row.get("JID") != group.id] + [records.group_info(group)]
        payload = records.participants_payload(group.id, action, member, time.time())
        return await self._posted(("group.v2.participants",), group.id,
                                  lambda: self._emit("group.v2.participants", payload))

    def read_send(self, call: WahaCall) -> BotSent | None:
        """A sendText or reaction in the port's words."""
        return read_send(call.route, call.body, call.answer)

    def _emit(self, event: str, payload: dict[str, Any]) -> None:
        self.deliveries.emit(self.config, event, payload, self.me)

    async def _posted(self, events: tuple[str, ...], ident: str, post: Callable[[], object]) -> int | None:
        """``post`` an event about ``ident`` (as any of ``events``: a message comes as ``message`` and
        ``message.any``) once the bot set a webhook for one of them (waited for a while); what the webhook answered
        the first."""
        if not await self.listening(lambda fake: any(subscribed(hook, e) for hook in fake.hooks() for e in events)):
            return None
        post()
        return await answered(self.deliveries.posted, lambda done: done.event in events and _names(done, ident))

    def hooks(self) -> list[dict[str, Any]]:
        """The webhooks of the session's configuration."""
        return [hook for hook in (self.config or {}).get("webhooks") or [] if isinstance(hook, dict)]

    def _authorized(self, request: web.Request) -> bool:
        return self.api_key in (request.headers.get("X-Api-Key"), request.query.get("x-api-key"))

    async def admit(self, route: str, request: web.Request) -> WahaCall | web.StreamResponse:
        """The call; 401 for a wrong ``X-Api-Key``, 404 for another session."""
        if not self._authorized(request):
            self.refused(route, 401)
            return web.json_response(wire.unauthorized(), status=401)
        body = await json_or_none(request) if request.method in ("POST", "PUT") else None
        named = body.get("session") if isinstance(body, dict) else None
        session = request.match_info.get("session") or (named if isinstance(named, str) else "default")
        if session != self.instance:
            self.refused(route, 404)
            return web.json_response(wire.session_not_found(session), status=404)
        return WahaCall(route, request.method, dict(request.query), body, dict(request.headers),
                        dict(request.match_info))

    def carry_out(self, call: WahaCall) -> web.Response:
        """Answer the call (a media file, or JSON)."""
        return self._file(call) if call.route == "files" else self._answer(call)

    def _answer(self, call: WahaCall) -> web.Response:
        status, answer = reply(self, call)
        if status >= 400:
            self.refused(call.route, status)
        else:
            self.record(dataclasses.replace(call, answer=answer))
        return web.json_response(answer, status=status)

    def _file(self, call: WahaCall) -> web.Response:
        found = self.media.files.get(call.params.get("name", ""))
        if found is None:
            self.refused("files", 404)
            return web.json_response(wire.file_gone(), status=404)
        self.record(call)
        return web.Response(body=found[0], content_type=found[1])


def _names(post: Posted, ident: str) -> bool:
    """Whether a post is of the group ``ident``, or of the message whose bare id is ``ident``."""
    payload = post.body.get("payload") or {}
    if isinstance(payload.get("group"), dict) and payload["group"].get("id") == ident:
        return True
    parts = str(payload.get("id") or "").split("_")
    return len(parts) >= 3 and parts[2] == ident
