"""Inbound webhook events of the gateway (../shared/gateway/CONTRACT.md section 3), parsed into plain values.

Pure and tolerant: unknown keys are ignored, a field of the wrong type counts as absent, and anything the bot does
not act on (unknown events, non-text messages, ``fromMe``, broadcasts) becomes an ``Ignored`` value, never an error.
Every addressing form is accepted: LID and phone-number (PN) keys, ``participantAlt``/``remoteJidAlt``, the older
``senderPn``/``senderLid``/``participantPn``/``participantLid`` names, participants as strings or objects, and the
broken ``participantsData`` of 2.3.5-2.3.7. Device suffixes (``:12``) are stripped. Text UTF-8 cannot encode (a lone
surrogate) is replaced by U+FFFD before anything is read (``repair``, SPEC section 28).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeAlias

import pydantic

from taskcore.gateway.addressing import (
    Identity,
    chat_of,
    digits_of,
    identity_of,
    lid_of,
    participant_identity,
    phone_of,
    strip_device,
)
from taskcore.gateway.inbound_models import (
    WireEnvelope,
    WireGroup,
    WireMessageData,
    WireParticipants,
    WireReaction,
    canonical_event,
    validated,
)
from taskcore.gateway.inbound_photo import InboundPhoto, media_of
from taskcore.gateway.repair import repaired, repaired_text
from taskcore.identity import GROUP_DOMAIN, jid_domain, normalize_group_id

__all__ = [
    "ConnectionChanged", "GroupSeen", "GroupsUpserted", "Identity", "Ignored", "InboundEvent", "InboundMessage",
    "InboundPhoto", "InboundReaction", "ParticipantsChange", "ReactedMessage", "chat_key", "identity_of", "lid_of",
    "parse_event", "participant_identity", "phone_of", "strip_device",
]

MESSAGES_UPSERT = "messages.upsert"
PARTICIPANTS_UPDATE = "group-participants.update"
GROUPS_UPSERT = "groups.upsert"
CONNECTION_UPDATE = "connection.update"


@dataclass(frozen=True, slots=True)
class InboundMessage:
    """A text message (messages.upsert) from someone else, in a group or a direct chat."""

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
    addressing: str | None = None  # a group's addressingMode ("lid" or "pn"), as the key says (SPEC section 31)

    @property
    def mentioned_digits(self) -> tuple[str, ...]:
        """The user part of each mentioned JID."""
        return tuple(jid.partition("@")[0] for jid in self.mentioned)


@dataclass(frozen=True, slots=True)
class ReactedMessage:
    """The message a reaction names: its id, whether the bot sent it, and its author as the key gives it."""

    message_id: str
    from_me: bool
    participant: str | None


@dataclass(frozen=True, slots=True)
class InboundReaction:
    """A reaction (messages.upsert, ``reactionMessage``) by someone else; ``emoji`` is ``""`` when removed.

    The fields it shares with InboundMessage mean the same: the reactor, the chat, the reaction's own id and time."""

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
class ParticipantsChange:
    """group-participants.update: add, remove, promote, demote or modify."""

    instance: str
    group_id: str
    action: str
    participants: tuple[Identity, ...]
    bot_id: str | None


@dataclass(frozen=True, slots=True)
class GroupSeen:
    """One group of a groups.upsert, with its participants and whether each is an admin."""

    group_id: str
    name: str | None
    participants: tuple[tuple[Identity, bool], ...]
    addressing: str | None = None  # its addressingMode: "lid" or "pn" (SPEC section 31)


@dataclass(frozen=True, slots=True)
class GroupsUpserted:
    """groups.upsert: groups created with the bot in them."""

    instance: str
    groups: tuple[GroupSeen, ...]
    bot_id: str | None


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    """connection.update: the gateway's WhatsApp session state."""

    instance: str
    state: str | None
    status_reason: int | None


@dataclass(frozen=True, slots=True)
class Ignored:
    """An event the bot acknowledges and does nothing with, and why."""

    reason: str
    event: str | None = None


InboundEvent: TypeAlias = (
    InboundMessage | InboundReaction | InboundPhoto | ParticipantsChange | GroupsUpserted | ConnectionChanged | Ignored
)
"""Everything ``parse_event`` returns."""


def parse_event(payload: Mapping[str, Any], *, path_event: str | None = None) -> InboundEvent:
    """The event a webhook body carries; ``path_event`` is the per-event URL's suffix, used when ``event`` is absent.
    Every text it returns encodes as UTF-8."""
    payload = repaired(payload)
    path_event = None if path_event is None else repaired_text(path_event)
    try:
        envelope = validated(WireEnvelope, payload)
    except pydantic.ValidationError:
        return Ignored("malformed envelope")
    name = canonical_event(envelope.event or path_event)
    parser = _PARSERS.get(name or "")
    if parser is None:
        return Ignored("unknown event", envelope.event)
    try:
        return parser(envelope)
    except (pydantic.ValidationError, ValueError):
        return Ignored("malformed data", name)


def _parse_message(envelope: WireEnvelope) -> InboundEvent:
    data = validated(WireMessageData, envelope.data)
    key = data.key
    reaction = data.message.reaction if data.message else None
    image = data.message.image if data.message else None
    text, quoted_id, mentioned_jids = data.parts()
    unread = _unread(key.from_me, key.id, readable=text is not None or reaction is not None or image is not None)
    if unread:
        return Ignored(unread, MESSAGES_UPSERT)
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
    message = InboundMessage(
        **common, text=text or (image.caption or "" if image else ""), quoted_id=quoted_id,
        addressing=key.addressing_mode if group_id and key.addressing_mode in ("lid", "pn") else None,
        mentioned=tuple(dict.fromkeys(strip_device(j) for j in mentioned_jids if digits_of(j))),
    )
    if image is None:
        return message
    if not quoted_id and not (image.caption or "").strip():  # a photo that neither replies nor says anything
        return Ignored("a photo naming no task", MESSAGES_UPSERT)
    return InboundPhoto(message, media_of(envelope.data), image.file_length)


def _unread(from_me: bool, message_id: str | None, *, readable: bool) -> str | None:
    """Why a messages.upsert is not read (sent by the bot, no id, neither a text nor a reaction), or None."""
    if from_me:
        return "fromMe"
    if not message_id:
        return "no message id"
    return None if readable else "not a text message"


def _reaction(reaction: WireReaction, common: dict[str, Any]) -> InboundEvent:
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


def _parse_participants(envelope: WireEnvelope) -> InboundEvent:
    data = validated(WireParticipants, envelope.data)
    if not data.id or not data.action:
        return Ignored("participants update without group or action", PARTICIPANTS_UPDATE)
    people = tuple(who for who in map(participant_identity, data.enriched()) if who.known)
    return ParticipantsChange(instance=envelope.instance or "", group_id=normalize_group_id(strip_device(data.id)),
                              action=data.action.strip().lower(), participants=people,
                              bot_id=phone_of(envelope.sender))


def _parse_groups(envelope: WireEnvelope) -> InboundEvent:
    items = envelope.data if isinstance(envelope.data, list) else [envelope.data]
    groups: list[GroupSeen] = []
    for item in items:
        group = validated(WireGroup, item)
        if group.id and jid_domain(group.id) == GROUP_DOMAIN:
            people = tuple((who, p.is_admin) for p in group.members() if (who := participant_identity(p)).known)
            mode = group.addressing_mode if group.addressing_mode in ("lid", "pn") else None
            groups.append(GroupSeen(normalize_group_id(strip_device(group.id)), group.subject, people, mode))
    if not groups:
        return Ignored("no group in groups.upsert", GROUPS_UPSERT)
    return GroupsUpserted(instance=envelope.instance or "", groups=tuple(groups), bot_id=phone_of(envelope.sender))


def _parse_connection(envelope: WireEnvelope) -> InboundEvent:
    data = envelope.data if isinstance(envelope.data, Mapping) else {}
    state, reason = data.get("state"), data.get("statusReason")
    return ConnectionChanged(
        instance=envelope.instance or "",
        state=state if isinstance(state, str) else None,
        status_reason=reason if isinstance(reason, int) and not isinstance(reason, bool) else None,
    )


_PARSERS = {
    MESSAGES_UPSERT: _parse_message,
    PARTICIPANTS_UPDATE: _parse_participants,
    GROUPS_UPSERT: _parse_groups,
    CONNECTION_UPDATE: _parse_connection,
}


def chat_key(event: InboundEvent) -> str:
    """The key whose events must be handled in order: the chat of a message, the group of a group event."""
    if isinstance(event, InboundMessage | InboundReaction | InboundPhoto):
        return event.chat_id
    if isinstance(event, ParticipantsChange):
        return event.group_id
    if isinstance(event, GroupsUpserted):
        return event.groups[0].group_id
    return "connection" if isinstance(event, ConnectionChanged) else "ignored"
