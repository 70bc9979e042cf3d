"""One command being answered: who asked, where, and what the answer is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.gateway.events import InboundMessage
from taskcore.gateway.outbound import Quote
from taskcore.services.conversation.store import ConversationUnit


@dataclass(frozen=True, slots=True)
class Turn:
    """The command message, its resolved sender and the chat they can be written to privately.

    ``today`` is the sender's, in their zone: what their ``hoy``, ``mañana`` and a rule's first date mean.
    For a reaction, ``msg`` stands for the reaction (its sender, chat and id), ``quote`` is the reacted message the
    reply quotes instead, and ``marks`` is False: a reaction gets no 🤖/⚠️ of its own. ``language`` is the answer's
    (the group's, else the sender's), ``own_language`` the sender's, for what they get privately."""

    uow: ConversationUnit
    policy: ChatPolicy
    moment: Moment
    msg: InboundMessage
    user_id: str
    private_chat: str
    today: date
    quote: Quote | None = None
    marks: bool = True
    language: str = "es"
    own_language: str = "es"

    @property
    def group_id(self) -> str | None:
        """The group the command was written in; None in a direct message."""
        return self.msg.group_id
