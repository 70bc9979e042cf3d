"""One command being answered: who asked, where, and what the answer is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import Mention, MetricEvent, OutgoingText
from taskcore.gateway.inbound import InboundMessage
from taskcore.reactions import ReactionRequest
from taskcore.storage.db import Database


@dataclass(frozen=True, slots=True)
class Turn:
    """The command message, its resolved sender and the chat they can be written to privately.

    For a reaction, ``msg`` stands for the reaction (its sender, chat and id), ``quote`` is the reacted message the
    reply quotes instead, and ``marks`` is False: a reaction gets no 🤖/⚠️ of its own."""

    db: Database
    policy: ChatPolicy
    moment: Moment
    msg: InboundMessage
    user_id: str
    private_chat: str
    quote: dict[str, Any] | None = None
    marks: bool = True

    @property
    def group_id(self) -> str | None:
        """The group the command was written in; None in a direct message."""
        return self.msg.group_id


@dataclass(frozen=True, slots=True)
class Answer:
    """The reply to a command (``ok`` False for a rejected one) and anything else it sends or counts; ``label`` marks
    the reply's queue row (``login``: its text is dropped once sent); ``task_id`` is the one task the reply is about
    (its message is then linked to it, so replying to it or reacting to it acts on that task)."""

    text: str
    ok: bool = True
    label: str = "reply"
    task_id: int | None = None
    mentions: tuple[Mention, ...] = ()
    extra: tuple[OutgoingText, ...] = ()
    reactions: tuple[ReactionRequest, ...] = ()
    metrics: tuple[MetricEvent, ...] = ()


def rejected(text: str, task_id: int | None = None) -> Answer:
    """A command that was not carried out, with the reason."""
    return Answer(text, ok=False, task_id=task_id)
