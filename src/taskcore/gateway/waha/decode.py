"""WAHA's webhook bodies (../shared/gateway/waha/CONTRACT.md sections 2-3), decoded once into the bot's events
(``taskcore.gateway.events``): the port's ``Codec`` for WAHA, ``CODEC``.

Pure and tolerant like Evolution's decoder: unknown keys are ignored, a field of the wrong type counts as absent,
and anything the bot does not act on (``poll.vote``, presence, unknown events, stickers, broadcasts) becomes an
``Ignored`` value, never an error. Text that UTF-8 cannot encode (a lone surrogate) is replaced by U+FFFD before
anything is read (``repair``, SPEC section 28). Every event's ``instance`` is the envelope's ``session`` and its
``bot_id`` the phone digits of ``me.id``; JIDs come out in WhatsApp's forms and message ids bare.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from taskcore.gateway.events import GatewayEvent, Ignored
from taskcore.gateway.waha import read
from taskcore.gateway.waha.envelope import Envelope, envelope_of
from taskcore.gateway.waha.groups import join_event, leave_event, participants_event, session_event, update_event
from taskcore.gateway.waha.messages import ack_event, message_event, reaction_event
from taskcore.gateway.waha.webhook import dedupe_key, signature_ok
from taskcore.text import repaired, repaired_text

__all__ = ["CODEC", "EVENTS", "NOT_READ", "WahaCodec", "decode"]

_READERS: dict[str, Callable[[Envelope], GatewayEvent]] = {
    "message": message_event,
    "message.any": message_event,
    "message.reaction": reaction_event,
    "message.ack": ack_event,
    "message.ack.group": ack_event,
    "group.v2.join": join_event,
    "group.v2.leave": leave_event,
    "group.v2.participants": participants_event,
    "group.v2.update": update_event,
    "session.status": session_event,
}
EVENTS = tuple(_READERS)
"""The events the bot reads (what its webhook subscribes to, contract section 2 "The bot needs")."""
NOT_READ = frozenset({"poll.vote", "poll.vote.failed", "message.edited", "message.revoked", "presence.update",
                      "engine.event", "call.received", "call.accepted", "call.rejected", "label.upsert",
                      "label.deleted", "label.chat.added", "label.chat.deleted", "event.response",
                      "event.response.failed", "chat.archive", "group.join", "group.leave"})
"""WAHA events the bot knows and leaves alone (acknowledged, counted as ignored, never an error)."""


def decode(payload: Mapping[str, Any], *, path_event: str | None = None) -> GatewayEvent:
    """The event a webhook body carries (``path_event``: the event's name when the body gives none); ``Ignored``
    for anything the bot does not act on. Never raises; every text it returns encodes as UTF-8."""
    if not read.is_object(payload):
        return Ignored("malformed envelope")
    body = repaired(payload)
    envelope = envelope_of(body, None if path_event is None else repaired_text(path_event))
    if envelope is None:
        return Ignored("malformed envelope", body.get("event") if isinstance(body.get("event"), str) else None)
    reader = _READERS.get(envelope.event)
    if reader is None:
        return Ignored("event not read" if envelope.event in NOT_READ else "unknown event", envelope.event)
    try:
        return reader(envelope)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):  # a shape no reader foresaw: not a crash
        return Ignored("malformed data", envelope.event)


class WahaCodec:
    """WAHA's webhook decoder (``taskcore.gateway.port.Codec``)."""

    name = "waha"

    def authentic(self, headers: Mapping[str, str], body: bytes, secret: str | None) -> bool:
        """Without a secret, every call; with one, the body's HMAC-SHA512 under it (``X-Webhook-Hmac``), checked in
        constant time (``webhook.signature_ok``)."""
        return secret is None or signature_ok(body, headers, secret)

    def decode(self, payload: Mapping[str, Any], *, path_event: str | None = None) -> GatewayEvent:
        """The event a webhook body carries: ``decode``."""
        return decode(payload, path_event=path_event)

    def delivery(self, headers: Mapping[str, str], payload: Mapping[str, Any]) -> str | None:
        """The envelope's event id, else ``X-Webhook-Request-Id`` (``webhook.dedupe_key``)."""
        return dedupe_key(headers, payload)


CODEC = WahaCodec()
