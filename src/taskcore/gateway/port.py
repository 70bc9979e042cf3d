"""What the bot asks of a WhatsApp gateway, in its own words (SPEC section 36): the messages it sends and the calls
it makes, whichever gateway is behind them.

The outbound queue keeps a message as an ``OutboundText`` or an ``OutboundReaction`` (their ``payload``), and the
gateway in use encodes it when it sends. ``Gateway`` is the one interface the bot's shell calls (an adapter's HTTP
client: ``tasksvc_run/gateways``); ``Codec`` is an adapter's pure part, its decoder of webhook events and its
readers of answers, tested with every sample of its contract. Inbound events are ``gateway.events``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from taskcore.gateway.events import GatewayEvent, SentMessage

__all__ = ["Codec", "Gateway", "GatewayGroup", "GatewayParticipant", "OutboundReaction", "OutboundText", "OwnIds",
           "Quote", "WebhookPlan", "outbound_of"]


@dataclass(frozen=True, slots=True)
class Quote:
    """The message a text replies to: its bare id and chat, whether the bot sent it, its author as the chat names
    them (in a group) and its text when the bot has it (the gateway shows the quote from it)."""

    message_id: str
    chat_id: str
    from_me: bool = False
    participant: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class OutboundText:
    """A text to send: its chat, the text, the message it quotes, the people it mentions (JIDs, in a group)."""

    chat_id: str
    text: str
    quote: Quote | None = None
    mentioned: tuple[str, ...] = ()

    @property
    def payload(self) -> dict[str, Any]:
        """How the outbound queue keeps it (JSON)."""
        body: dict[str, Any] = {"chat": self.chat_id, "text": self.text}
        if self.quote is not None:
            q = self.quote
            body["quote"] = {"id": q.message_id, "chat": q.chat_id, "from_me": q.from_me,
                             "participant": q.participant, "text": q.text}
        if self.mentioned:
            body["mentioned"] = list(self.mentioned)
        return body


@dataclass(frozen=True, slots=True)
class OutboundReaction:
    """An emoji to put on a message (``""`` takes the bot's away): its chat, bare id and author in a group."""

    chat_id: str
    message_id: str
    emoji: str
    participant: str | None = None
    from_me: bool = False

    @property
    def payload(self) -> dict[str, Any]:
        """How the outbound queue keeps it (JSON)."""
        return {"chat": self.chat_id, "message_id": self.message_id, "emoji": self.emoji,
                "participant": self.participant, "from_me": self.from_me}


def outbound_of(payload: Mapping[str, Any]) -> OutboundText | OutboundReaction:
    """The message a queue row keeps (its ``payload``); ValueError when it is not one."""
    chat = payload.get("chat")
    if not isinstance(chat, str) or not chat:
        raise ValueError("a queued message without its chat")
    if isinstance(payload.get("emoji"), str):
        return OutboundReaction(chat, str(payload["message_id"]), str(payload["emoji"]),
                                _text_or_none(payload.get("participant")), payload.get("from_me") is True)
    quote = payload.get("quote")
    return OutboundText(chat, str(payload.get("text") or ""), _quote(quote) if isinstance(quote, Mapping) else None,
                        tuple(str(jid) for jid in payload.get("mentioned") or ()))


def _quote(raw: Mapping[str, Any]) -> Quote:
    return Quote(str(raw.get("id") or ""), str(raw.get("chat") or ""), raw.get("from_me") is True,
                 _text_or_none(raw.get("participant")), _text_or_none(raw.get("text")))


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True, slots=True)
class GatewayParticipant:
    """A group participant: phone and LID digits when known (at least one of them), whether it is an admin, and
    the name the gateway gives."""

    phone: str | None
    lid: str | None
    admin: bool
    name: str | None = None

    @property
    def user_id(self) -> str:
        """The id the service keys the user by: the phone digits, else the LID digits."""
        return self.phone or self.lid or ""


@dataclass(frozen=True, slots=True)
class GatewayGroup:
    """A group the bot is in, as the gateway lists it."""

    id: str
    subject: str | None
    linked_parent: str | None
    is_community: bool
    is_community_announce: bool
    participants: tuple[GatewayParticipant, ...] = ()
    addressing: str | None = None  # "lid" or "pn": how the group addresses its members (SPEC section 38)


@dataclass(frozen=True, slots=True)
class OwnIds:
    """The bot's own account: its phone digits and LID digits, when the gateway knows them."""

    phone: str | None
    lid: str | None = None


@dataclass(frozen=True, slots=True)
class WebhookPlan:
    """How the gateway must call the bot: its URL, the events it needs, and the secret that proves a call is the
    gateway's (a header for Evolution API, an HMAC key for WAHA)."""

    url: str
    events: tuple[str, ...]
    secret: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


class Codec(Protocol):
    """A gateway's pure part: the events of its webhook bodies, in the bot's words."""

    name: str

    def decode(self, payload: Mapping[str, Any], *, path_event: str | None = None) -> GatewayEvent:
        """The event a webhook body carries (``path_event``: a per-event URL's suffix, when the body names none);
        ``Ignored`` for anything the bot does not act on, never an error."""
        ...


class Gateway(Protocol):
    """What the bot needs from a gateway (one HTTP client per gateway, in the shell). Every call has a timeout and
    raises ``gateway.errors.GatewayError`` when it fails."""

    name: str

    async def send_text(self, text: OutboundText, *, message_id: str | None = None) -> str | None:
        """Send a text; the bare id of the message sent (``message_id``: one chosen before, where the gateway takes
        it, so that a send whose answer was lost can be looked up by it)."""
        ...

    async def react(self, reaction: OutboundReaction) -> str | None:
        """Put (or with ``""`` take away) the bot's reaction on a message."""
        ...

    async def ensure_webhook(self, plan: WebhookPlan, *, force: bool = False) -> bool:
        """Make the gateway call the bot as ``plan`` says, changing its configuration only when it differs (or
        always with ``force``); True when it was changed."""
        ...

    async def list_groups(self) -> list[GatewayGroup]:
        """Every group the bot is in, with its participants."""
        ...

    async def group_participants(self, group_id: str) -> tuple[GatewayParticipant, ...]:
        """A group's participants."""
        ...

    async def connection_state(self) -> str | None:
        """The WhatsApp session: ``open``, ``connecting`` or ``close`` (None when the gateway says nothing)."""
        ...

    async def own_ids(self) -> OwnIds:
        """The bot's own account."""
        ...

    async def find_sent(self, chat_id: str, *, message_id: str | None = None) -> list[SentMessage]:
        """Messages the bot sent to ``chat_id`` lately, as the gateway's store keeps them (``message_id``: that
        one, when the gateway looks up by id)."""
        ...

    async def fetch_media(self, media: str, *, max_bytes: int) -> bytes:
        """The bytes of a photo a decoder described as ``media``; at most ``max_bytes``."""
        ...

    async def new_message_id(self) -> str | None:
        """An id for the next send, when the gateway takes ids chosen before the send (None otherwise)."""
        ...
