"""What follows a send at the local gateway (../shared/gateway/CONTRACT.md section 3, SPEC section 31): the echo
(``send.message``, or a ``messages.upsert`` with ``fromMe`` when ``echo_as_upsert``), then the message's status
updates (``messages.update``: ``SERVER_ACK``, then ``DELIVERY_ACK``; in a group ``SERVER_ACK`` only, as Evolution
API 2.3.7 never posts its members' receipts), posted in that order.

``refuse_cold``: a direct message to a person who never wrote to the number in private (not in
``wrote_privately``) ends in ``ERROR`` (the reach-out time-lock, 463), as WhatsApp of 2026 does; the send still
answers 201.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tasksvc_run.devgateway.wire import INSTANCE_ID

DELIVERED = ("SERVER_ACK", "DELIVERY_ACK")
IN_A_GROUP = ("SERVER_ACK",)  # no member's receipt reaches the webhook in 2.3.7 (PR #2674 unmerged; SPEC section 36)
REFUSED = ("ERROR",)


def _user_of(jid: str) -> str | None:
    """The user digits of a direct chat's JID (phone or LID), or None for a group."""
    user, _at, domain = jid.partition("@")
    return user.partition(":")[0] if domain != "g.us" else None


def status_data(answer: Mapping[str, Any], status: str) -> dict[str, Any]:
    """A ``messages.update`` ``data`` for the sent message ``answer``."""
    key = answer.get("key") or {}
    return {"keyId": key.get("id"), "remoteJid": key.get("remoteJid"), "fromMe": True, "participant": None,
            "status": status, "instanceId": INSTANCE_ID, "messageId": f"cm{key.get('id', '')}".lower()}


@dataclass
class SendEffects:
    """The switches of what follows a send, and whom the number has heard from in private (user digits)."""

    statuses: bool = True
    refuse_cold: bool = False
    echo_as_upsert: bool = False
    wrote_privately: set[str] = field(default_factory=set)

    def refused(self, answer: Mapping[str, Any]) -> bool:
        """Whether WhatsApp refuses this sent message (a cold direct message while ``refuse_cold``)."""
        user = _user_of(str((answer.get("key") or {}).get("remoteJid") or ""))
        return self.refuse_cold and user is not None and user not in self.wrote_privately

    def events(self, answer: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The events a send with this 201 ``answer`` posts, in order."""
        echo = ("messages.upsert", answer) if self.echo_as_upsert else ("send.message", answer)
        if not self.statuses:
            return [echo]
        jid = str((answer.get("key") or {}).get("remoteJid") or "")
        statuses = REFUSED if self.refused(answer) else IN_A_GROUP if _user_of(jid) is None else DELIVERED
        return [echo, *(("messages.update", status_data(answer, status)) for status in statuses)]
