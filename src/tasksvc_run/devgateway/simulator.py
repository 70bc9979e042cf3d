"""The chat simulator of `tasksvc dev` (SPEC section 12), over whichever local gateway is running: its page
(``/dev/chat``), the transcript of what people and the bot wrote, and its JSON routes (``state``, ``send``,
``react``, ``switches``; ``group``, ``members``, ``person``: ``devgateway.households``), with the database's people
and groups to pick from, each person with their language (the page speaks the writer's: ``chat_texts``).

The simulator speaks the port's words (``devgateway.acts``); the local gateway behind it (``devgateway.local``:
Evolution API's, ``devgateway.local_waha``: WAHA's) writes what a person does in its own wire to the bot's webhook,
and hands every send of the bot's back here (``bot_sent``) to be noted in the transcript. Chats are named as the page
names them: a group by its id, a private chat by the person's phone JID.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar, Protocol

from aiohttp import web

from taskcore.languages import phone_language
from taskcore.services import Database, directory
from taskcore.services.languages import languages_of
from tasksvc_run import units
from tasksvc_run.devgateway.acts import (
    BOT_JID,
    BotSent,
    Group,
    Member,
    Quoted,
    Reacted,
    Written,
    mentioned_in,
    phone_jid,
)
from tasksvc_run.devgateway.chat_texts import page_texts
from tasksvc_run.devgateway.households import Households, is_person_key
from tasksvc_run.devgateway.loopback import CallT, LoopbackFake
from tasksvc_run.devgateway.media import SAMPLE_PNG

__all__ = ["MAX_PHOTO_TEXT", "ChatFake", "Simulated", "Simulator", "database_people", "directory_groups",
           "photo_bytes"]

MAX_PHOTO_TEXT = 16 * 1024 * 1024  # base64 characters the simulator takes for one photo


class ChatFake(Protocol):
    """What the simulator needs of the local gateway: a person's acts in its wire, and its switches."""

    @property
    def switched(self) -> object:
        """What the page's switches flip: the fake's effects of a send (their names: ``Simulator.switches``)."""
        ...

    def new_id(self) -> str:
        """A fresh id for a person's message."""
        ...

    async def write(self, written: Written) -> int | None:
        """A person writes; the webhook's answer."""
        ...

    async def react(self, reacted: Reacted) -> int | None:
        """A person reacts; the webhook's answer."""
        ...

    async def join(self, group: Group) -> int | None:
        """The bot is added to a group; the webhook's answer."""
        ...

    async def change(self, group: Group, action: str, member: Member) -> int | None:
        """Someone is added to a group or made its admin; the webhook's answer."""
        ...

    def listed_groups(self) -> list[Group]:
        """The groups the gateway lists now."""
        ...


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


def directory_groups(db: Database, bot: str = BOT_JID) -> list[Group]:
    """The database's active groups with their active members and, as in every real group, the bot itself (first,
    once, even when the member sync recorded it)."""
    groups, members = units.look(db, directory.active_groups)
    people: dict[str, list[Member]] = {gid: [Member(bot)] for gid, _ in groups}
    for group_id, user_id, is_admin in members:
        if group_id in people and phone_jid(user_id) != bot:
            people[group_id].append(Member(phone_jid(user_id), admin=bool(is_admin)))
    return [Group(gid, name or gid, tuple(people[gid])) for gid, name in groups]


def database_people(db: Database, bot: str = BOT_JID, default_language: str = "es"
                    ) -> tuple[list[dict[str, str]], list[dict[str, str | None]]]:
    """Users (with their language in force) and groups to pick from in the simulator, each group with its status
    (pending: the bot is silent)."""
    users, rows = units.look(db, directory.people_and_groups)
    found = [(uid, name) for uid, name in users if phone_jid(uid) != bot]
    langs = units.look(db, lambda uow: languages_of(uow.conn, [uid for uid, _ in found], default_language))
    people = [{"id": uid, "name": name or uid, "lang": langs[uid]} for uid, name in found]
    groups = [{"id": gid, "name": name or gid, "status": status} for gid, name, status in rows]
    return people, groups


def _answer(status: int | None) -> web.Response:
    """What the page is told of a webhook's answer (502 when it was no success, or none came)."""
    ok = status is not None and 200 <= status < 300
    return web.json_response({"webhook_status": status}, status=200 if ok else 502)


@dataclass
class Simulator:
    """The simulator over ``fake`` (its ``switches``: the names of the fake's effects the page may flip)."""

    fake: ChatFake
    db: Database | None
    switches: tuple[str, ...]
    bot: str = BOT_JID
    default_language: str = "es"
    transcript: list[dict[str, Any]] = field(default_factory=list)
    households: Households = field(init=False)

    def __post_init__(self) -> None:
        self.households = Households(self.bot)

    def add_routes(self, app: web.Application) -> None:
        """The page, its state and its actions."""
        from tasksvc_run.devgateway.household_routes import HouseholdRoutes  # noqa: PLC0415 - it imports this module

        app.router.add_get("/dev/chat", self._page)
        app.router.add_get("/dev/chat/api/state", self._state)
        app.router.add_post("/dev/chat/api/send", self._send)
        app.router.add_post("/dev/chat/api/react", self._react)
        app.router.add_post("/dev/chat/api/switches", self._switches)
        HouseholdRoutes(self).add_routes(app)

    def bot_sent(self, sent: BotSent) -> None:
        """Note a send of the bot's: a text (with the message it quotes) or a reaction."""
        if sent.emoji is not None:
            self._note("out", sent.chat, self.bot, reaction=sent.emoji, quoted=sent.quoted)
        else:
            self._note("out", sent.chat, self.bot, text=sent.text, quoted=sent.quoted, id=sent.message_id)

    def _note(self, direction: str, chat: str, sender: str, **fields: Any) -> None:
        self.transcript.append({"seq": len(self.transcript) + 1, "direction": direction, "chat": chat,
                                "from": sender, "at": time.time(), **fields})

    def quoted(self, message_id: object) -> Quoted | None:
        """The transcript's message with this id (one the simulator or the bot wrote)."""
        found = next((m for m in self.transcript if m.get("id") == message_id and "text" in m), None)
        return None if found is None else Quoted(str(found["id"]), str(found["from"]), str(found["text"]))

    async def _page(self, _: web.Request) -> web.Response:
        html = resources.files("tasksvc_run.devgateway").joinpath("chat.html").read_text(encoding="utf-8")
        texts = json.dumps(page_texts(), ensure_ascii=False).replace("</", "<\\/")
        return web.Response(text=html.replace("{/*TEXTS*/}", texts), content_type="text/html")

    def language_of(self, key: str) -> str:
        """The language of someone the database does not know yet: their number's country's, else the default."""
        return (None if key.endswith("@lid") else phone_language(key)) or self.default_language

    async def _state(self, request: web.Request) -> web.Response:
        since = int(request.query.get("since", "0") or 0)
        users, groups = (await asyncio.to_thread(database_people, self.db, self.bot, self.default_language)
                         if self.db else ([], []))
        known = {user["id"] for user in users}
        lids = {person.key.partition("@")[0] for person in self.households.people.values() if person.lid_only}
        users = [user for user in users if user["id"] not in lids] + [
            {"id": person.key, "name": person.name, "lang": self.language_of(person.key)}
            for person in self.households.people.values() if person.key not in known]
        listed = {group["id"] for group in groups}
        groups += [{"id": gid, "name": made.subject, "status": None}
                   for gid, made in self.households.groups.items() if gid not in listed]
        return web.json_response({"users": users, "groups": groups, "bot": self.bot,
                                  "messages": [m for m in self.transcript if m["seq"] > since]})

    async def _send(self, request: web.Request) -> web.Response:
        """A message typed by ``user`` in ``chat`` (their private chat when empty), replying to ``quoted`` when
        given; with ``photo`` (base64 of an image, or ``"sample"``), a photo whose caption is ``text`` (SPEC
        section 34)."""
        body = await request.json()
        user, chat, text = str(body.get("user", "")), str(body.get("chat", "")), str(body.get("text", ""))
        photo = photo_bytes(body.get("photo"))
        if not is_person_key(user) or not (text.strip() or photo):
            return web.json_response({"error": "user (digits or <lid>@lid) and a text or a photo are required"},
                                     status=422)
        quoted = self.quoted(body.get("quoted")) if body.get("quoted") else None
        name = str(body.get("name") or user)
        sender, phone = self.households.sender(user, chat)
        written = Written(chat or phone_jid(user), sender, text, self.fake.new_id(), name, quoted,
                          mentioned_in(text), photo, phone)
        self._note("in", written.chat, written.sender, text=f"📷 {text}" if photo else text, id=written.id,
                   name=name, quoted=quoted.id if quoted else None)
        return _answer(await self.fake.write(written))

    async def _react(self, request: web.Request) -> web.Response:
        """``user`` reacts with ``emoji`` ("" removes it) to the transcript's message ``target``."""
        body = await request.json()
        user, chat, emoji = str(body.get("user", "")), str(body.get("chat", "")), str(body.get("emoji", ""))
        target = self.quoted(body.get("target"))
        if not is_person_key(user) or target is None:
            return web.json_response({"error": "user (digits or <lid>@lid) and a target message id are required"},
                                     status=422)
        name = str(body.get("name") or user)
        sender, _phone = self.households.sender(user, chat)
        reacted = Reacted(chat or phone_jid(user), sender, emoji, target, self.fake.new_id(), name)
        self._note("in", reacted.chat, reacted.sender, reaction=emoji, quoted=target.id, name=name)
        return _answer(await self.fake.react(reacted))

    async def _switches(self, request: web.Request) -> web.Response:
        """Flip what follows a send (SPEC section 31: ``refuse_cold``, the echo's form, ``statuses``); answers the
        switches in force."""
        body = await request.json()
        for name in self.switches:
            if isinstance(body.get(name), bool):
                setattr(self.fake.switched, name, body[name])
        return web.json_response({name: getattr(self.fake.switched, name) for name in self.switches})


@dataclass
class Simulated(LoopbackFake[CallT]):
    """A fake as `tasksvc dev` runs it: over the database (``db``), with the chat simulator beside its routes, every
    send of the bot's noted in the simulator's transcript. ``switches``: its effects the page may flip."""

    switches: ClassVar[tuple[str, ...]] = ()

    db: Database | None = None
    simulator: Simulator = field(init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.simulator = Simulator(self, self.db, self.switches, bot=self.owner_jid or BOT_JID)

    @property
    def switched(self) -> object:
        """What the page's switches flip (the fake's effects)."""
        raise NotImplementedError

    @property
    def transcript(self) -> list[dict[str, Any]]:
        """What people and the bot wrote, in order."""
        return self.simulator.transcript

    def add_routes(self, app: web.Application) -> None:
        """The simulator's page and routes."""
        self.simulator.add_routes(app)

    def record(self, call: CallT) -> None:
        """Keep the call; a send of the bot's is noted in the transcript."""
        super().record(call)
        sent = self.read_send(call)
        if sent is not None:
            self.simulator.bot_sent(sent)

    def listed_groups(self) -> list[Group]:
        """The database's groups as they are now (none without a database), the simulator's as it made them."""
        found = directory_groups(self.db, self.owner_jid or BOT_JID) if self.db is not None else []
        return self.simulator.households.listed(found)
