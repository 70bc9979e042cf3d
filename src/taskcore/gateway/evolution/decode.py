"""Evolution API's webhook bodies (../shared/gateway/CONTRACT.md section 3), decoded once into the bot's events.

Pure and tolerant: unknown keys are ignored, a field of the wrong type counts as absent, and anything the bot does
not act on (unknown events, non-text messages, broadcasts) becomes an ``Ignored`` value, never an error. The echo of
the bot's own sends, in either form (``send.message``, or a ``messages.upsert`` with ``fromMe``), is an ``Echo``;
``messages.update`` a ``DeliveryStatus``. Every addressing form is accepted: LID and phone-number (PN) keys,
``participantAlt``/``remoteJidAlt``, the older ``senderPn``/``senderLid``/``participantPn``/``participantLid``
names, participants as strings or objects, and the broken ``participantsData`` of 2.3.5-2.3.7. Device suffixes
(``:12``) are stripped. Text UTF-8 cannot encode (a lone surrogate) is replaced by U+FFFD before anything is read
(``repair``, SPEC section 28).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import pydantic

from taskcore.gateway.events import (
    ConnectionChanged,
    DeliveryStatus,
    Echo,
    GatewayEvent,
    GroupSeen,
    GroupsUpserted,
    Identity,
    Ignored,
    InboundMessage,
    InboundPhoto,
    InboundReaction,
    ParticipantsChange,
    ReactedMessage,
)
from taskcore.gateway.evolution import records
from taskcore.gateway.evolution.models import (
    WireEnvelope,
    WireGroup,
    WireKey,
    WireMessageData,
    WireParticipants,
    WireReaction,
    canonical_event,
    validated,
)
from taskcore.identity import (
    GROUP_DOMAIN,
    LID_DOMAIN,
    digits_of,
    identity_of,
    jid_domain,
    normalize_group_id,
    phone_of,
    strip_device,
)
from taskcore.text import repaired, repaired_text

__all__ = ["CODEC", "EvolutionCodec", "chat_of", "decode"]

MESSAGES_UPSERT = "messages.upsert"
_PHONE_DOMAINS = frozenset({"s.whatsapp.net", "c.us", ""})


def decode(payload: Mapping[str, Any], *, path_event: str | None = None) -> GatewayEvent:
    """The event a webhook body carries; ``path_event`` is the per-event URL's suffix, used when ``event`` is absent.
    Every text it returns encodes as UTF-8."""
    payload = repaired(payload)
    path_event = None if path_event is None else repaired_text(path_event)
    try:
        envelope = validated(WireEnvelope, payload)
    except pydantic.ValidationError:
        return Ignored("malformed envelope")
    name = canonical_event(envelope.event or path_event)
    reader = _READERS.get(name or "")
    if reader is None:
        return Ignored("unknown event", envelope.event)
    try:
        return reader(envelope)
    except (pydantic.ValidationError, ValueError):
        return Ignored("malformed data", name)


SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - the header's name, not a secret


class EvolutionCodec:
    """Evolution API's webhook decoder (``taskcore.gateway.port.Codec``)."""

    name = "evolution"

    def authentic(self, headers: Mapping[str, str], body: bytes, secret: str | None) -> bool:
        """Without a secret, every call; with one, ``X-Webhook-Secret`` must equal it (the header the bot sets when
        it registers the webhook), compared in constant time."""
        if secret is None:
            return True
        given = headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, secret.encode("utf-8"))

    def decode(self, payload: Mapping[str, Any], *, path_event: str | None = None) -> GatewayEvent:
        """``decode``."""
        return decode(payload, path_event=path_event)

    def delivery(self, headers: Mapping[str, str], payload: Mapping[str, Any]) -> str | None:
        """None: Evolution API names no delivery (a message is known again by its id)."""
        return None


CODEC = EvolutionCodec()


def chat_of(key: WireKey) -> tuple[str, str | None, Identity] | None:
    """(chat id for replies, group id or None, sender) of a message key; None for broadcasts and unknown chats."""
    remote = strip_device(key.remote_jid or "")
    if jid_domain(remote) == GROUP_DOMAIN:
        group_id = normalize_group_id(remote)
        sender = identity_of(key.participant, key.participant_alt, key.participant_pn, key.participant_lid,
                             key.sender_pn, key.sender_lid, raw=key.participant)
        return group_id, group_id, sender
    if not remote or jid_domain(remote) not in _PHONE_DOMAINS | {LID_DOMAIN}:
        return None
    sender = identity_of(remote, key.remote_jid_alt, key.sender_pn, key.sender_lid, key.previous_remote_jid,
                         raw=key.remote_jid)
    chat_id = f"{sender.phone}@s.whatsapp.net" if sender.phone else f"{sender.lid}@{LID_DOMAIN}"
    return chat_id, None, sender


def _unread(data: WireMessageData) -> str | None:
    """Why a message from someone else is not read (no id, neither a text, a photo nor a reaction), or None."""
    if not data.key.id:
        return "no message id"
    message = data.message
    readable = message is not None and (message.reaction is not None or message.image is not None)
    return None if readable or data.text() is not None else "not a text message"


def _message(envelope: WireEnvelope) -> GatewayEvent:
    data = validated(WireMessageData, envelope.data)
    key = data.key
    if key.from_me:  # the bot's own send coming back (SPEC section 31), or typed on its phone: never a command
        sent = records.sent_message(envelope.data)
        return Ignored("fromMe", MESSAGES_UPSERT) if sent is None else Echo(envelope.instance or "", sent, api=False)
    unread = _unread(data)
    if unread is not None:
        return Ignored(unread, MESSAGES_UPSERT)
    reaction = data.message.reaction if data.message else None
    image = data.message.image if data.message else None
    text, quoted_id, mentioned_jids = data.parts()
    chat = chat_of(key)
    if chat is None or not chat[2].known:
        return Ignored("not a person or group chat" if chat is None else "sender unknown", MESSAGES_UPSERT)
    chat_id, group_id, sender = chat
    bot_id = phone_of(envelope.sender)
    common: dict[str, Any] = {
        "instance": envelope.instance or "", "message_id": key.id or "", "chat_id": chat_id, "group_id": group_id,
        "sender": sender, "participant": key.participant if group_id else None, "push_name": data.push_name,
        "sent_at": _when(data.message_timestamp), "bot_id": bot_id}
    if reaction is not None:
        return _reaction(reaction, common)
    author, quoted_text = data.quoted()
    message = InboundMessage(
        **common, text=text or (image.caption or "" if image else ""), quoted_id=quoted_id,
        mentioned=tuple(dict.fromkeys(strip_device(j) for j in mentioned_jids if digits_of(j))),
        quoted_author=author, quoted_text=quoted_text,
    )
    return message if image is None else _photo(message, envelope, image.caption, image.file_length)


def _photo(message: InboundMessage, envelope: WireEnvelope, caption: str | None, size: int | None) -> GatewayEvent:
    """A photo: one that neither replies nor says anything names no task."""
    if not message.quoted_id and not (caption or "").strip():
        return Ignored("a photo naming no task", MESSAGES_UPSERT)
    return InboundPhoto(message, records.media_of(envelope.data), size)


def _reaction(reaction: WireReaction, common: dict[str, Any]) -> GatewayEvent:
    """A reaction on a message; the bot's own (sent from its phone without ``fromMe``) is ignored."""
    if reaction.key is None or not reaction.key.id:
        return Ignored("reaction without the reacted message", MESSAGES_UPSERT)
    if common["bot_id"] is not None and common["sender"].phone == common["bot_id"]:
        return Ignored("the bot's own reaction", MESSAGES_UPSERT)
    reacted = ReactedMessage(reaction.key.id, reaction.key.from_me, reaction.key.participant)
    return InboundReaction(**common, emoji=reaction.text, reacted=reacted)


def _when(timestamp: int | None) -> datetime | None:
    if timestamp is None or not 0 < timestamp < 2**33:
        return None
    return datetime.fromtimestamp(timestamp, UTC)


def _participants(envelope: WireEnvelope) -> GatewayEvent:
    data = validated(WireParticipants, envelope.data)
    if not data.id or not data.action:
        return Ignored("participants update without group or action", "group-participants.update")
    people = tuple(who for who in map(records.participant_identity, data.enriched()) if who.known)
    return ParticipantsChange(instance=envelope.instance or "", group_id=normalize_group_id(strip_device(data.id)),
                              action=data.action.strip().lower(), participants=people,
                              bot_id=phone_of(envelope.sender))


def _groups(envelope: WireEnvelope) -> GatewayEvent:
    items = envelope.data if isinstance(envelope.data, list) else [envelope.data]
    groups: list[GroupSeen] = []
    for item in items:
        group = validated(WireGroup, item)
        if group.id and jid_domain(group.id) == GROUP_DOMAIN:
            people = tuple((who, p.is_admin) for p in group.members()
                           if (who := records.participant_identity(p)).known)
            mode = group.addressing_mode if group.addressing_mode in ("lid", "pn") else None
            groups.append(GroupSeen(normalize_group_id(strip_device(group.id)), group.subject, people, mode))
    if not groups:
        return Ignored("no group in groups.upsert", "groups.upsert")
    return GroupsUpserted(instance=envelope.instance or "", groups=tuple(groups), bot_id=phone_of(envelope.sender))


def _connection(envelope: WireEnvelope) -> GatewayEvent:
    data = envelope.data if isinstance(envelope.data, Mapping) else {}
    state, reason = data.get("state"), data.get("statusReason")
    return ConnectionChanged(
        instance=envelope.instance or "",
        state=state if isinstance(state, str) else None,
        status_reason=reason if isinstance(reason, int) and not isinstance(reason, bool) else None,
    )


def _echo(envelope: WireEnvelope) -> GatewayEvent:
    """The echo of a send, as ``send.message`` or as a ``fromMe`` upsert."""
    sent = records.sent_message(envelope.data)
    return Ignored("unreadable echo", envelope.event) if sent is None else Echo(envelope.instance or "", sent)


def _statuses(envelope: WireEnvelope) -> GatewayEvent:
    items = envelope.data if isinstance(envelope.data, list) else [envelope.data]
    updates = tuple(update for update in map(records.status_update, items) if update is not None)
    return DeliveryStatus(envelope.instance or "", updates) if updates else Ignored("no status of ours",
                                                                                     "messages.update")


_READERS: dict[str, Callable[[WireEnvelope], GatewayEvent]] = {
    MESSAGES_UPSERT: _message,
    "group-participants.update": _participants,
    "groups.upsert": _groups,
    "connection.update": _connection,
    "send.message": _echo,
    "messages.update": _statuses,
}
