"""One command being answered: who asked, where, and what the answer is."""

from __future__ import annotations

from dataclasses import dataclass

from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import Mention, MetricEvent, OutgoingText
from taskcore.gateway.inbound import InboundMessage
from taskcore.reactions import ReactionRequest
from taskcore.storage.db import Database


@dataclass(frozen=True, slots=True)
class Turn:
    """The command message, its resolved sender and the chat they can be written to privately."""

    db: Database
    policy: ChatPolicy
    moment: Moment
    msg: InboundMessage
    user_id: str
    private_chat: str

    @property
    def group_id(self) -> str | None:
        """The group the command was written in; None in a direct message."""
        return self.msg.group_id


@dataclass(frozen=True, slots=True)
class Answer:
    """The reply to a command (``ok`` False for a rejected one) and anything else it sends or counts; ``label`` marks
    the reply's queue row (``login``: its text is dropped once sent)."""

    text: str
    ok: bool = True
    label: str = "reply"
    mentions: tuple[Mention, ...] = ()
    extra: tuple[OutgoingText, ...] = ()
    reactions: tuple[ReactionRequest, ...] = ()
    metrics: tuple[MetricEvent, ...] = ()


def rejected(text: str) -> Answer:
    """A command that was not carried out, with the reason."""
    return Answer(text, ok=False)
