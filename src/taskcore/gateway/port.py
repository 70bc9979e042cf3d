"""The gateway port (SPEC section 36): what the bot needs from a WhatsApp gateway, whichever is behind it.

``Gateway`` is the one interface the bot's shell calls (an adapter's HTTP client: ``tasksvc_run.gateways``), with
the messages of ``gateway.outbound``; ``Codec`` is an adapter's pure part, its decoder of webhook calls into the
events of ``gateway.events``, tested with every sample of its contract. The adapter's name appears once, where the
service is assembled (``tasksvc_run.gateways.make_gateway``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from taskcore.gateway.diagnostics import Check
from taskcore.gateway.events import GatewayEvent, SentMessage
from taskcore.gateway.outbound import OutboundReaction, OutboundText

__all__ = ["Codec", "Gateway", "GatewayGroup", "GatewayParticipant", "OwnIds", "WebhookOutcome", "WebhookPlan",
           "addressing_of"]


@dataclass(frozen=True, slots=True)
class GatewayParticipant:
    """A group participant: phone and LID digits when known (at least one of them), whether it is an admin, the
    name the gateway gives, and the form the gateway names them in (``lid`` or ``pn``: their group's addressing)."""

    phone: str | None
    lid: str | None
    admin: bool
    name: str | None = None
    form: str | None = None

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


def addressing_of(participants: Iterable[GatewayParticipant]) -> str | None:
    """A group's addressing as the gateway names its participants: ``lid`` when it names any by a LID, ``pn`` when
    it names them by phone number, None when it says neither (SPEC section 38)."""
    forms = {person.form for person in participants} - {None}
    return "lid" if "lid" in forms else "pn" if forms else None


@dataclass(frozen=True, slots=True)
class OwnIds:
    """The bot's own account: its phone digits and LID digits, when the gateway knows them."""

    phone: str | None
    lid: str | None = None


@dataclass(frozen=True, slots=True)
class WebhookPlan:
    """How the gateway must call the bot: its URL (WEBHOOK_URL), with every event the bot handles, and the secret
    that proves a call is the gateway's (WEBHOOK_SECRET: a header for Evolution API, an HMAC key for WAHA)."""

    url: str
    secret: str | None = None


@dataclass(frozen=True, slots=True)
class WebhookOutcome:
    """What ``Gateway.ensure_webhook`` did: whether it changed the gateway's configuration, and what of it differed
    from the plan (``()``: nothing; None: it could not be read, or the change was forced)."""

    changed: bool
    differed: tuple[str, ...] | None = None


class Codec(Protocol):
    """A gateway's pure part: whether a webhook call is the gateway's, and the events of its bodies in the bot's
    words."""

    name: str

    def authentic(self, headers: Mapping[str, str], body: bytes, secret: str | None) -> bool:
        """Whether the call proves it comes from the gateway: with ``secret`` (WEBHOOK_SECRET) set, the header or
        signature the gateway sends with it, compared in constant time; without one, every call is."""
        ...

    def decode(self, payload: Mapping[str, Any], *, path_event: str | None = None) -> GatewayEvent:
        """The event a webhook body carries (``path_event``: a per-event URL's suffix, when the body names none);
        ``Ignored`` for anything the bot does not act on, never an error."""
        ...

    def delivery(self, headers: Mapping[str, str], payload: Mapping[str, Any]) -> str | None:
        """What is the same in every retry of one delivery and differs between deliveries (WAHA's event id, else
        its request id); None when the gateway gives nothing of the kind."""
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

    async def ensure_webhook(self, plan: WebhookPlan, *, force: bool = False) -> WebhookOutcome:
        """Make the gateway call the bot as ``plan`` says, changing its configuration only when it differs (or
        always with ``force``)."""
        ...

    async def list_groups(self, *, participants: bool = False) -> list[GatewayGroup]:
        """Every group the bot is in (with ``participants``: with them)."""
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

    async def checks(self, plan: WebhookPlan) -> list[Check]:
        """What ``tasksvc doctor`` says of the gateway: version, connection, settings and the webhook, judged
        against ``plan`` (its URL "" when the bot does not manage the webhook), each an ok, a warning or a problem
        with its fix."""
        ...
