"""One command being answered: who asked, where, and what the answer is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.gateway.inbound import InboundMessage
from taskcore.storage.unit import Unit


@dataclass(frozen=True, slots=True)
class Turn:
    """The command message, its resolved sender and the chat they can be written to privately.

    For a reaction, ``msg`` stands for the reaction (its sender, chat and id), ``quote`` is the reacted message the
    reply quotes instead, and ``marks`` is False: a reaction gets no 🤖/⚠️ of its own. ``language`` is the answer's
    (the group's, else the sender's), ``own_language`` the sender's, for what they get privately."""

    db: Unit
    policy: ChatPolicy
    moment: Moment
    msg: InboundMessage
    user_id: str
    private_chat: str
    quote: dict[str, Any] | None = None
    marks: bool = True
    language: str = "es"
    own_language: str = "es"

    group_id: str | None = None
    """The group the command was written in (``msg.group_id``); None in a direct message."""
