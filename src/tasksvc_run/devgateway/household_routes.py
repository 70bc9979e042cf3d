"""The simulator's routes for households (SPEC section 39, ``devgateway.households``): ``group`` creates a group with
the bot in it, ``members`` adds someone to a group or makes them its admin, ``person`` knows someone only by a LID.
Each answers the webhook's status as ``send`` does (502 when the bot did not take it)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from aiohttp import web

from tasksvc_run.devgateway.acts import Group
from tasksvc_run.devgateway.households import is_person_key
from tasksvc_run.devgateway.simulator import Simulator

__all__ = ["HouseholdRoutes"]

_LID_DIGITS = re.compile(r"[0-9]{8,20}")
MAX_NAME = 100


def _refused(message: str) -> web.Response:
    return web.json_response({"error": message}, status=422)


def _answer(status: int | None, **fields: Any) -> web.Response:
    ok = status is not None and 200 <= status < 300
    return web.json_response({"webhook_status": status, **fields}, status=200 if ok else 502)


class HouseholdRoutes:
    """The routes over one simulator."""

    def __init__(self, simulator: Simulator) -> None:
        self.simulator = simulator

    def add_routes(self, app: web.Application) -> None:
        """``group``, ``members`` and ``person``."""
        app.router.add_post("/dev/chat/api/group", self._group)
        app.router.add_post("/dev/chat/api/members", self._members)
        app.router.add_post("/dev/chat/api/person", self._person)

    async def _group(self, request: web.Request) -> web.Response:
        """{name, members: [keys], admins: [keys], addressing: "pn"|"lid"}: the bot is added to a new group."""
        body = await request.json()
        name = str(body.get("name") or "").strip()[:MAX_NAME]
        keys = [str(key) for key in body.get("members") or []]
        addressing = str(body.get("addressing") or "pn")
        if not name or not keys or not all(map(is_person_key, keys)) or addressing not in ("pn", "lid"):
            return _refused("a name, members (digits or <lid>@lid) and addressing pn or lid are required")
        admins = {str(key) for key in body.get("admins") or []}
        group = self.simulator.households.make_group(name, keys, admins, addressing)
        return _answer(await self.simulator.fake.join(group), id=group.id)

    def _known_group(self, chat: str) -> Group | None:
        return next((group for group in self.simulator.fake.listed_groups() if group.id == chat), None)

    async def _members(self, request: web.Request) -> web.Response:
        """{chat, user, action: "add"|"promote"}: ``user`` joins the group ``chat`` or becomes its admin."""
        body = await request.json()
        chat, user, action = str(body.get("chat", "")), str(body.get("user", "")), str(body.get("action", ""))
        group = await self._group_named(chat)
        if group is None or not is_person_key(user) or action not in ("add", "promote"):
            return _refused("a group the bot is in, a user (digits or <lid>@lid) and action add or promote")
        changed, member = self.simulator.households.changed(group, user, action)
        return _answer(await self.simulator.fake.change(changed, action, member))

    async def _group_named(self, chat: str) -> Group | None:
        return await asyncio.to_thread(self._known_group, chat)

    async def _person(self, request: web.Request) -> web.Response:
        """{lid, name}: someone WhatsApp shows only by a LID, to write as (``<lid>@lid``)."""
        body = await request.json()
        lid, name = str(body.get("lid", "")).strip(), str(body.get("name") or "").strip()[:MAX_NAME]
        if not _LID_DIGITS.fullmatch(lid) or not name:
            return _refused("a lid (8 to 20 digits) and a name are required")
        person = self.simulator.households.add_person(f"{lid}@lid", name)
        return web.json_response({"user": person.key, "name": person.name,
                                  "lang": self.simulator.language_of(person.key)})
