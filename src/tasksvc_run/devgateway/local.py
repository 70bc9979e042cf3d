"""The development mode's local gateway for Evolution API: the fake gateway over the real database, plus the chat
simulator (``devgateway.simulator``).

It answers the gateway contract like the real one, stores what the bot sends instead of sending it, lists the
database's groups and members (so group sync keeps the seeded data), and serves /dev/chat: what a person does there
goes to the bot through the real /webhook path as Evolution API's ``messages.upsert``; the bot's replies and
reactions show up in the transcript.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

import aiohttp

from taskcore.services import Database
from tasksvc_run.devgateway.acts import BOT_JID
from tasksvc_run.devgateway.fake import FakeGateway, GatewayCall
from tasksvc_run.devgateway.simulator import Simulated, database_people, directory_groups
from tasksvc_run.devgateway.upserts import group_row

__all__ = ["BOT_JID", "SWITCHES", "LocalGateway", "database_groups", "database_people"]

SWITCHES = ("refuse_cold", "echo_as_upsert", "statuses")
"""What the simulator may flip of what follows a send (``effects.SendEffects``)."""


def database_groups(db: Database) -> list[dict[str, Any]]:
    """Active groups of the database in fetchAllGroups shape: their active members and, as in every real group, the
    bot itself as participants."""
    return [group_row(group) for group in directory_groups(db)]


@dataclass
class LocalGateway(Simulated[GatewayCall], FakeGateway):
    """The fake gateway, with the database's groups and the chat simulator. A person's message goes to
    ``webhook_url`` with ``webhook_secret`` when given, else to the webhook the bot registered."""

    switches: ClassVar[tuple[str, ...]] = SWITCHES

    webhook_url: str = ""
    webhook_secret: str | None = None

    @property
    def switched(self) -> object:
        """The effects of a send (``SendEffects``)."""
        return self.effects

    def _reply(self, call: GatewayCall) -> tuple[int, Any]:
        if call.route in ("fetchAllGroups", "participants") and self.db is not None:
            self.groups = [group_row(group) for group in self.listed_groups()]
        return super()._reply(call)

    async def post(self, event: str, data: Any) -> int | None:
        """Post one event to ``webhook_url`` when given (its answer), else to the registered webhook."""
        if not self.webhook_url:
            return await super().post(event, data)
        envelope = {"event": event, "instance": self.instance, "data": data, "sender": self.owner_jid,
                    "apikey": None, "date_time": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())}
        headers = {"X-Webhook-Secret": self.webhook_secret} if self.webhook_secret else {}
        try:
            async with aiohttp.ClientSession() as session, session.post(
                self.webhook_url, json=envelope, headers=headers, timeout=aiohttp.ClientTimeout(total=10)
            ) as answer:
                return answer.status
        except (aiohttp.ClientError, TimeoutError):
            return None
