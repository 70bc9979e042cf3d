"""What the bot hears from a WhatsApp gateway, in its own words (SPEC section 36): one set of inbound events, plain
values that each gateway's decoder makes from its wire JSON (``gateway.evolution`` and ``gateway.waha``), so that
nothing past the decoder knows which gateway sent them.

A chat or person is a JID in WhatsApp's own forms: ``<digits>@s.whatsapp.net`` for a phone number, ``<digits>@lid``
for a hidden id, ``<id>@g.us`` for a group, without any device suffix. A message id is the bare id WhatsApp gave it
(``3EB0…``), whatever longer form a gateway wraps it in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, TypeAlias

from taskcore.identity import Identity

__all__ = [
    "ConnectionChanged",
    "DeliveryStatus",
    "Echo",
    "GatewayEvent",
    "GroupSeen",
    "GroupsUpserted",
    "Identity",
    "Ignored",
    "InboundEvent",
    "InboundMessage",
    "InboundPhoto",
    "InboundReaction",
    "ParticipantsChange",
    "ReactedMessage",
    "SentMessage",
    "StatusUpdate",
]


@dataclass(frozen=True, slots=True)
class InboundMessage:
    """A text message from someone else, in a group or a direct chat. ``participant`` is the sender's JID as the
    group addresses them (what a quote or a reaction names them by); ``quoted_id`` the bare id of the message it
    replies to, ``quoted_author`` that message's author as the reply names them and ``quoted_text`` its text when
    the reply carries it (what tells a reply to the bot's own send)."""

    kind: ClassVar[str] = "message"

    instance: str
    message_id: str
    chat_id: str
    group_id: str | None
    sender: Identity
    participant: str | None
    push_name: str | None
    text: str
    mentioned: tuple[str, ...]
    sent_at: datetime | None
    bot_id: str | None
    quoted_id: str | None = None
    quoted_author: str | None = None
    quoted_text: str | None = None

    @property
    def mentioned_digits(self) -> tuple[str, ...]:
        """The user part of each mentioned JID."""
        return tuple(jid.partition("@")[0] for jid in self.mentioned)


@dataclass(frozen=True, slots=True)
class ReactedMessage:
    """The message a reaction names: its bare id, whether the bot sent it, and its author as the key gives it."""

    message_id: str
    from_me: bool
    participant: str | None


@dataclass(frozen=True, slots=True)
class InboundReaction:
    """A reaction by someone else; ``emoji`` is ``""`` when removed. The fields it shares with InboundMessage mean
    the same: the reactor, the chat, the reaction's own id and time."""

    kind: ClassVar[str] = "reaction"

    instance: str
    message_id: str
    chat_id: str
    group_id: str | None
    sender: Identity
    participant: str | None
    push_name: str | None
    emoji: str
    reacted: ReactedMessage
    sent_at: datetime | None
    bot_id: str | None


@dataclass(frozen=True, slots=True)
class InboundPhoto:
    """A photo by someone else: ``message`` is it as a message whose text is its caption (quoting what the photo
    replies to); ``media`` what the gateway that sent it needs to give its bytes (opaque past the decoder);
    ``declared_size`` the size it states, if any."""

    kind: ClassVar[str] = "photo"

    message: InboundMessage
    media: str
    declared_size: int | None = None

    @property
    def chat_id(self) -> str:
        """The chat it was sent in."""
        return self.message.chat_id


@dataclass(frozen=True, slots=True)
class ParticipantsChange:
    """People joined or left a group, or were promoted or demoted: ``action`` is ``add``, ``remove``, ``promote``,
    ``demote`` or ``modify`` (a number changed)."""

    kind: ClassVar[str] = "participants"

    instance: str
    group_id: str
    action: str
    participants: tuple[Identity, ...]
    bot_id: str | None


@dataclass(frozen=True, slots=True)
class GroupSeen:
    """One group the bot is in, with its participants and whether each is an admin."""

    group_id: str
    name: str | None
    participants: tuple[tuple[Identity, bool], ...]
    addressing: str | None = None  # how the group addresses its members: "lid" or "pn" (SPEC sections 31, 38)


@dataclass(frozen=True, slots=True)
class GroupsUpserted:
    """Groups the bot was added to, or whose record changed."""

    kind: ClassVar[str] = "groups"

    instance: str
    groups: tuple[GroupSeen, ...]
    bot_id: str | None


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    """The gateway's WhatsApp session: ``state`` ``open``, ``connecting`` or ``close``."""

    kind: ClassVar[str] = "connection"

    instance: str
    state: str | None
    status_reason: int | None


@dataclass(frozen=True, slots=True)
class SentMessage:
    """A message the gateway sent for the bot: its bare id, chat, text fingerprint (None for a reaction), quoted id
    and time (unix seconds)."""

    message_id: str
    chat_id: str
    digest: str | None
    quoted_id: str | None
    timestamp: int | None = None


@dataclass(frozen=True, slots=True)
class Echo:
    """The gateway's echo of a message the bot sent (SPEC sections 26 and 31): never a command. ``api``: the gateway
    says the bot's API sent it; otherwise it may have been typed on the bot's phone (the bot checks its own sends)."""

    kind: ClassVar[str] = "echo"

    instance: str
    sent: SentMessage
    api: bool = True


STATUSES = ("ERROR", "PENDING", "SERVER_ACK", "DELIVERY_ACK", "READ", "PLAYED")
"""Every status a message of the bot can reach (``StatusUpdate.status``), as WhatsApp names them."""


@dataclass(frozen=True, slots=True)
class StatusUpdate:
    """One status a message of the bot reached: its bare id, its chat, the status (``SERVER_ACK``,
    ``DELIVERY_ACK``, ``READ``, ``PLAYED``, ``ERROR``) and, for an ``ERROR``, WhatsApp's code when given (``463``:
    the reach-out time-lock). In a group, ``participant`` is the member whose receipt it is, when the gateway
    reports receipts per member (WAHA's ``message.ack.group``); None for the message as a whole."""

    message_id: str
    chat_id: str
    status: str
    error_code: str | None = None
    participant: str | None = None

    @property
    def direct(self) -> bool:
        """Whether the message went to a person (not a group, not a broadcast)."""
        return self.chat_id.endswith(("@s.whatsapp.net", "@lid", "@c.us"))

    @property
    def failed(self) -> bool:
        """Whether WhatsApp refused the message."""
        return self.status == "ERROR"


@dataclass(frozen=True, slots=True)
class DeliveryStatus:
    """What became of messages the bot sent (SPEC section 31); in a group, per member when the gateway says."""

    kind: ClassVar[str] = "status"

    instance: str
    updates: tuple[StatusUpdate, ...]


@dataclass(frozen=True, slots=True)
class Ignored:
    """An event the bot acknowledges and does nothing with, and why."""

    kind: ClassVar[str] = "ignored"

    reason: str
    event: str | None = None


KINDS = ("message", "reaction", "photo", "participants", "groups", "connection", "echo", "status", "ignored")
"""Every event's ``kind``, for the metrics' labels."""

GatewayEvent: TypeAlias = (
    InboundMessage | InboundReaction | InboundPhoto | ParticipantsChange | GroupsUpserted | ConnectionChanged
    | Echo | DeliveryStatus | Ignored
)
"""Everything a gateway's decoder returns."""

InboundEvent: TypeAlias = (
    InboundMessage | InboundReaction | InboundPhoto | ParticipantsChange | GroupsUpserted | ConnectionChanged | Ignored
)
"""What the conversation's road handles (echoes and statuses go to the watchdog and the delivery use cases)."""
