"""The development mode's local gateway for WAHA (``tasksvc dev --gateway waha``): the fake WAHA over the real
database, plus the chat simulator (``devgateway.simulator``).

Its session is GATEWAY_API_INSTANCE's; it lists the database's groups (PN-addressed) with the bot among them, and
calls the bot's webhook only once the bot set it in the session's configuration (``ensure_webhook`` at its start,
signed with WEBHOOK_SECRET when one is set; the session restarts and posts ``session.status`` as WAHA does). What a
person does in /dev/chat is posted as WAHA's ``message`` + ``message.any`` or ``message.reaction``; a photo is served
at ``/api/files/{session}/...``; the bot's sends show up in the transcript.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from aiohttp import web

from tasksvc_run.devgateway.simulator import Simulated
from tasksvc_run.devgateway.waha_fake import FakeWaha
from tasksvc_run.devgateway.waha_records import group_info
from tasksvc_run.devgateway.waha_replies import WahaCall

__all__ = ["LocalWaha"]

READS_GROUPS = frozenset({"groups", "participants", "lids", "sendText"})  # a send's group receipts name members


@dataclass
class LocalWaha(Simulated[WahaCall], FakeWaha):
    """The fake WAHA, with the database's groups and the chat simulator."""

    switches: ClassVar[tuple[str, ...]] = ("refuse_cold", "echo", "statuses")  # of ``waha_hooks.WahaEffects``

    @property
    def switched(self) -> object:
        """The effects of a send (``WahaEffects``)."""
        return self.effects

    def carry_out(self, call: WahaCall) -> web.Response:
        """Answer the call, the database's groups listed as they are now."""
        if call.route in READS_GROUPS and self.db is not None:
            self.groups = [group_info(group) for group in self.listed_groups()]
        return super().carry_out(call)
