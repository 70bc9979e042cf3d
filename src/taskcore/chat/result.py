"""What handling one event produced: queue rows to write, reactions to queue, and metric events to count."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from taskcore.gateway.events import InboundMessage
from taskcore.gateway.outbound import Quote, text_payload
from taskcore.identity import strip_device
from taskcore.reactions import ROBOT, WARN, ReactionRequest


class MetricEvent(StrEnum):
    """Something the shell counts in its process metrics."""

    IDENTITY_ALIAS_RESOLVED = "identity_alias_resolved"
    UNKNOWN_GROUP_DISCOVERED = "unknown_groups_discovered"
    MESSAGE_BLOCKED_GROUP = "messages_blocked_group"
    COMMAND_BLOCKED = "commands_blocked"
    ADMIN_ALLOW = "admin_allow"
    ADMIN_BLOCK = "admin_block"


@dataclass(frozen=True, slots=True)
class Mention:
    """Someone a reply mentions: the digits written as ``@<digits>`` and the JID put in ``mentioned``."""

    digits: str
    jid: str
    name: str | None = None

    @property
    def tag(self) -> str:
        """``@<digits>``."""
        return f"@{self.digits}"

    @property
    def shown(self) -> str:
        """How a reply names them: their tag, or the name a typed ``@Name`` resolved to (SPEC section 23)."""
        return self.name or self.tag


@dataclass(frozen=True, slots=True)
class OutgoingText:
    """One text job for the outbound queue: its chat, the sendText body and an optional de-duplication key."""

    chat_id: str
    payload: dict[str, Any]
    label: str = "reply"
    dedupe_key: str | None = None
    task_id: int | None = None

    @property
    def text(self) -> str:
        """The message text."""
        return str(self.payload["text"])


@dataclass(frozen=True, slots=True)
class ChatResult:
    """Everything one event produced; ``outcome`` says in a word what happened (for logs and tests)."""

    outcome: str
    texts: tuple[OutgoingText, ...] = ()
    reactions: tuple[ReactionRequest, ...] = ()
    metrics: tuple[MetricEvent, ...] = field(default=())

    def plus(self, *, texts: tuple[OutgoingText, ...] = (), metrics: tuple[MetricEvent, ...] = ()) -> ChatResult:
        """This result with more texts and metric events."""
        return ChatResult(self.outcome, self.texts + texts, self.reactions, self.metrics + metrics)


def reply_to(
    msg: InboundMessage, text: str, mentions: tuple[Mention, ...] = (), *, quote: Quote | None = None,
    label: str = "reply", task_id: int | None = None,
) -> OutgoingText:
    """A reply in the message's chat quoting it (or ``quote``: the message a reaction named); in a group it starts by
    mentioning the sender.

    ``mentions`` are the other people the text names with their ``@<digits>`` tags; they are mentioned too.
    ``label`` and ``task_id`` are the queue row's (OutgoingText).
    """
    sender = sender_mention(msg)
    body = text_payload(
        chat_id=msg.chat_id,
        text=f"{sender.tag} {text}" if sender else text,
        quote=quote or Quote(msg.message_id, msg.chat_id, participant=msg.participant, text=msg.text),
        mentioned=[m.jid for m in (*((sender,) if sender else ()), *mentions)],
    )
    return OutgoingText(msg.chat_id, body, label, task_id=task_id)


def sender_mention(msg: InboundMessage) -> Mention | None:
    """The sender of a group message as a mention, by the JID they wrote with (LID or phone); None in a DM."""
    if msg.group_id is None or not msg.participant:
        return None
    jid = strip_device(msg.participant)
    digits = jid.partition("@")[0]
    return Mention(digits, jid) if digits.isascii() and digits.isdigit() else None


def direct_message(chat_id: str, text: str, *, label: str = "dm", dedupe_key: str | None = None) -> OutgoingText:
    """A text to a person's chat (a phone-number or LID JID), not quoting anything."""
    return OutgoingText(chat_id, text_payload(chat_id=chat_id, text=text), label, dedupe_key)


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


def render(msg: InboundMessage, name: str, answer: Answer, *, quote: Quote | None = None,
           marks: bool = True) -> ChatResult:
    """The reply (quoting ``msg``, or ``quote``; none for an answer without text: its mark says it all) and
    everything else the answer sends; ``marks``: the command gets 🤖 when it worked and ⚠️ when it did not (a
    reaction gets none of its own)."""
    mark = ReactionRequest(msg.chat_id, msg.message_id, msg.participant, ROBOT if answer.ok else WARN,
                           dedupe_key=f"command:{msg.instance}:{msg.message_id}")
    reply = reply_to(msg, answer.text, answer.mentions, quote=quote, label=answer.label, task_id=answer.task_id)
    return ChatResult(
        f"{name} {'done' if answer.ok else 'rejected'}",
        texts=(reply, *answer.extra) if answer.text else answer.extra,
        reactions=(*answer.reactions, *((mark,) if marks else ())),
        metrics=answer.metrics,
    )
