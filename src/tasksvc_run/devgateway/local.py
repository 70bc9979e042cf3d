"""The development mode's local gateway: the fake gateway over the real database, plus the chat simulator.

It answers the gateway contract like the real one, stores what the bot sends instead of sending it, lists the
database's groups and members (so group sync keeps the seeded data), and serves /dev/chat: pick a user and a chat,
type, and the message goes to the bot through the real /webhook path; the bot's replies and reactions show up.
"""

from __future__ import annotations

import asyncio
import base64
import re
import secrets
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import aiohttp
from aiohttp import web

from taskcore.services import Database, directory
from tasksvc_run import units
from tasksvc_run.devgateway.fake import FakeGateway, GatewayCall
from tasksvc_run.devgateway.media import SAMPLE_PNG

BOT_JID = "34600000999@s.whatsapp.net"
_MENTION = re.compile(r"@([0-9]{5,20})\b")


def _jid(user_id: str) -> str:
    return f"{user_id}@s.whatsapp.net"


def _chat_of(number: str) -> str:
    return number if "@" in number else _jid(number)


def database_groups(db: Database) -> list[dict[str, Any]]:
    """Active groups of the database in fetchAllGroups shape: their active members and, as in every real group, the
    bot itself as participants."""
    groups, members = units.look(db, directory.active_groups)
    people: dict[str, list[dict[str, Any]]] = {gid: [{"id": BOT_JID, "admin": None}] for gid, _ in groups}
    for group_id, user_id, is_admin in members:
        if group_id in people and _jid(user_id) != BOT_JID:
            people[group_id].append({"id": _jid(user_id), "admin": "admin" if is_admin else None})
    return [{"id": gid, "subject": name or gid, "size": len(people.get(gid, [])), "creation": 1_700_000_000,
             "restrict": False, "announce": False, "isCommunity": False, "isCommunityAnnounce": False,
             "participants": people.get(gid, [])} for gid, name in groups]


def database_people(db: Database) -> tuple[list[dict[str, str]], list[dict[str, str | None]]]:
    """Users and groups to pick from in the simulator, each group with its status (pending: the bot is silent)."""
    users, rows = units.look(db, directory.people_and_groups)
    people = [{"id": uid, "name": name or uid} for uid, name in users if _jid(uid) != BOT_JID]
    groups = [{"id": gid, "name": name or gid, "status": status} for gid, name, status in rows]
    return people, groups


@dataclass(frozen=True)
class Quoted:
    """A message of the transcript replied or reacted to: its id, author JID and text."""

    id: str
    author: str
    text: str = ""

    @property
    def from_me(self) -> bool:
        """The bot wrote it."""
        return self.author == BOT_JID


def _key(chat: str, user: str) -> dict[str, Any]:
    key: dict[str, Any] = {"remoteJid": chat, "fromMe": False, "id": secrets.token_hex(10).upper()}
    if chat.endswith("@g.us"):
        key |= {"participant": _jid(user), "addressingMode": "pn"}
    return key


def _upsert(instance: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"event": "messages.upsert", "instance": instance, "data": data, "sender": BOT_JID, "apikey": None,
            "date_time": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())}


def message_event(
    *, instance: str, chat: str, user: str, name: str, text: str, quoted: Quoted | None = None
) -> dict[str, Any]:
    """A messages.upsert webhook event as Evolution API v2.3.7 sends it for a text message (a reply to ``quoted``
    carries its id as ``contextInfo.stanzaId``)."""
    data: dict[str, Any] = {
        "key": _key(chat, user), "pushName": name, "status": "DELIVERY_ACK", "message": {"conversation": text},
        "messageType": "conversation", "messageTimestamp": int(time.time()), "instanceId": "dev", "source": "web",
    }
    context: dict[str, Any] = {}
    mentioned = [_jid(digits) for digits in _MENTION.findall(text)]
    if mentioned:
        context["mentionedJid"] = mentioned
    if quoted is not None:
        context |= {"stanzaId": quoted.id, "participant": quoted.author,
                    "quotedMessage": {"conversation": quoted.text}}
    if context:
        data["contextInfo"] = context
    return _upsert(instance, data)


def reaction_event(*, instance: str, chat: str, user: str, name: str, emoji: str, target: Quoted) -> dict[str, Any]:
    """A reactionMessage as Evolution API v2.3.7 sends it (``emoji`` "" removes the reaction)."""
    reacted: dict[str, Any] = {"remoteJid": chat, "fromMe": target.from_me, "id": target.id}
    if chat.endswith("@g.us") and not target.from_me:
        reacted["participant"] = target.author
    reaction = {"key": reacted, "text": emoji, "senderTimestampMs": str(int(time.time() * 1000))}
    return _upsert(instance, {
        "key": _key(chat, user), "pushName": name, "status": "DELIVERY_ACK", "message": {"reactionMessage": reaction},
        "messageType": "reactionMessage", "messageTimestamp": int(time.time()), "instanceId": "dev", "source": "web",
    })


MAX_PHOTO_TEXT = 16 * 1024 * 1024  # base64 characters the simulator takes for one photo


def photo_bytes(value: object) -> bytes | None:
    """A photo sent from the simulator: ``"sample"`` (a built-in PNG) or base64 of a file; None for none (or
    text that is no base64, or too long)."""
    if value == "sample":
        return SAMPLE_PNG
    if not isinstance(value, str) or not value or len(value) > MAX_PHOTO_TEXT:
        return None
    try:
        return base64.b64decode(value, validate=True)
    except ValueError:
        return None


def as_photo(event: dict[str, Any], photo: bytes, caption: str) -> dict[str, Any]:
    """``event`` (a text message's) as the imageMessage Evolution API v2.3.7 sends for a photo: the caption and a
    reply's contextInfo inside imageMessage (and at the top level), no text."""
    data = event["data"]
    image: dict[str, Any] = {"url": "https://mmg.whatsapp.net/dev", "mimetype": "image/jpeg",
                             "fileLength": str(len(photo)), "mediaKey": "ZGV2", "directPath": "/dev"}
    if caption:
        image["caption"] = caption
    if "contextInfo" in data:
        image["contextInfo"] = data["contextInfo"]
    data["message"] = {"imageMessage": image}
    data["messageType"] = "imageMessage"
    return event


@dataclass
class LocalGateway(FakeGateway):
    """The fake gateway, with the database's groups and a chat transcript for the simulator."""

    db: Database | None = None
    webhook_url: str = ""
    webhook_secret: str | None = None
    transcript: list[dict[str, Any]] = field(default_factory=list, init=False)

    def add_routes(self, app: web.Application) -> None:
        """The simulator: its page, its state and a send action."""
        app.router.add_get("/dev/chat", self._page)
        app.router.add_get("/dev/chat/api/state", self._state)
        app.router.add_post("/dev/chat/api/send", self._send)
        app.router.add_post("/dev/chat/api/react", self._react)
        app.router.add_post("/dev/chat/api/switches", self._switches)

    def _reply(self, call: GatewayCall) -> tuple[int, Any]:
        if call.route in ("fetchAllGroups", "participants") and self.db is not None:
            self.groups = database_groups(self.db)
        return super()._reply(call)

    def record(self, call: GatewayCall) -> None:
        super().record(call)
        if call.route == "sendText":
            self._note("out", _chat_of(call.body["number"]), BOT_JID, text=call.body["text"],
                       quoted=(call.body.get("quoted") or {}).get("key", {}).get("id"),
                       id=((call.answer or {}).get("key") or {}).get("id"))
        elif call.route == "sendReaction":
            key = call.body["key"]
            self._note("out", key["remoteJid"], BOT_JID, reaction=call.body["reaction"], quoted=key["id"])

    def _note(self, direction: str, chat: str, sender: str, **fields: Any) -> None:
        self.transcript.append({"seq": len(self.transcript) + 1, "direction": direction, "chat": chat,
                                "from": sender, "at": time.time(), **fields})

    async def _page(self, _: web.Request) -> web.Response:
        html = resources.files("tasksvc_run.devgateway").joinpath("chat.html").read_text(encoding="utf-8")
        return web.Response(text=html, content_type="text/html")

    async def _state(self, request: web.Request) -> web.Response:
        since = int(request.query.get("since", "0") or 0)
        users, groups = await asyncio.to_thread(database_people, self.db) if self.db else ([], [])
        return web.json_response({"users": users, "groups": groups, "bot": BOT_JID,
                                  "messages": [m for m in self.transcript if m["seq"] > since]})

    def _quoted(self, message_id: object) -> Quoted | None:
        """The transcript's message with this id (one the simulator or the bot wrote)."""
        found = next((m for m in self.transcript if m.get("id") == message_id and "text" in m), None)
        return None if found is None else Quoted(str(found["id"]), str(found["from"]), str(found["text"]))

    async def _send(self, request: web.Request) -> web.Response:
        """A message typed by ``user`` in ``chat`` (their DM when empty), replying to ``quoted`` when given; with
        ``photo`` (base64 of an image, or ``"sample"``), a photo whose caption is ``text`` (SPEC section 34)."""
        body = await request.json()
        user, chat, text = str(body.get("user", "")), str(body.get("chat", "")), str(body.get("text", ""))
        photo = photo_bytes(body.get("photo"))
        if not user.isdigit() or not (text.strip() or photo):
            return web.json_response({"error": "user (digits) and a text or a photo are required"}, status=422)
        quoted = self._quoted(body.get("quoted")) if body.get("quoted") else None
        chat = chat or _jid(user)
        if not chat.endswith("@g.us"):
            self.effects.wrote_privately.add(user)
        name = str(body.get("name") or user)
        event = message_event(instance=self.instance, chat=chat, user=user, name=name, text=text, quoted=quoted)
        if photo is not None:
            event = as_photo(event, photo, text)
            self.media.give(event["data"]["key"]["id"], photo, "image/png" if photo is SAMPLE_PNG else "image/jpeg")
        self._note("in", chat, _jid(user), text=f"📷 {text}" if photo else text, id=event["data"]["key"]["id"],
                   name=name, quoted=quoted.id if quoted else None)
        return await self._deliver(event)

    async def _react(self, request: web.Request) -> web.Response:
        """``user`` reacts with ``emoji`` ("" removes it) to the transcript's message ``target``."""
        body = await request.json()
        user, chat, emoji = str(body.get("user", "")), str(body.get("chat", "")), str(body.get("emoji", ""))
        target = self._quoted(body.get("target"))
        if not user.isdigit() or target is None:
            return web.json_response({"error": "user (digits) and a target message id are required"}, status=422)
        chat = chat or _jid(user)
        name = str(body.get("name") or user)
        event = reaction_event(instance=self.instance, chat=chat, user=user, name=name, emoji=emoji, target=target)
        self._note("in", chat, _jid(user), reaction=emoji, quoted=target.id, name=name)
        return await self._deliver(event)

    async def _switches(self, request: web.Request) -> web.Response:
        """Flip what follows a send (SPEC section 31): ``refuse_cold`` (463 on cold direct messages),
        ``echo_as_upsert``, ``statuses``; answers the switches in force."""
        body = await request.json()
        for name in ("refuse_cold", "echo_as_upsert", "statuses"):
            if isinstance(body.get(name), bool):
                setattr(self.effects, name, body[name])
        return web.json_response({name: getattr(self.effects, name)
                                  for name in ("refuse_cold", "echo_as_upsert", "statuses")})

    async def _deliver(self, event: dict[str, Any]) -> web.Response:
        headers = {"X-Webhook-Secret": self.webhook_secret} if self.webhook_secret else {}
        async with aiohttp.ClientSession() as session, session.post(
            self.webhook_url, json=event, headers=headers, timeout=aiohttp.ClientTimeout(total=10)
        ) as answer:
            return web.json_response({"webhook_status": answer.status}, status=200 if answer.ok else 502)
