"""Inbound webhook events of the gateway (../shared/gateway/CONTRACT.md section 3), parsed into plain values.

Pure and tolerant: unknown keys are ignored, a field of the wrong type counts as absent, and anything the bot does
not act on (unknown events, non-text messages, ``fromMe``, broadcasts) becomes an ``Ignored`` value, never an error.
Every addressing form is accepted: LID and phone-number (PN) keys, ``participantAlt``/``remoteJidAlt``, the older
``senderPn``/``senderLid``/``participantPn``/``participantLid`` names, participants as strings or objects, and the
broken ``participantsData`` of 2.3.5-2.3.7. Device suffixes (``:12``) are stripped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeAlias

import pydantic

from taskcore.gateway.inbound_models import (
    WireEnvelope,
    WireGroup,
    WireKey,
    WireMessageData,
    WireParticipant,
    WireParticipants,
    canonical_event,
)
from taskcore.identity import GROUP_DOMAIN, LID_DOMAIN, jid_domain, normalize_group_id

MESSAGES_UPSERT = "messages.upsert"
PARTICIPANTS_UPDATE = "group-participants.update"
GROUPS_UPSERT = "groups.upsert"
CONNECTION_UPDATE = "connection.update"
_PHONE_DOMAINS = frozenset({"s.whatsapp.net", "c.us", ""})


@dataclass(frozen=True, slots=True)
class Identity:
    """A person as the gateway names them: phone digits and/or LID digits, and the JID exactly as received."""

    phone: str | None
    lid: str | None
    jid: str | None = None

    @property
    def known(self) -> bool:
        """True when there is a phone number or a LID to resolve."""
        return bool(self.phone or self.lid)


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

    @property
    def mentioned_digits(self) -> tuple[str, ...]:
        """The user part of each mentioned JID."""
        return tuple(jid.partition("@")[0] for jid in self.mentioned)


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


InboundEvent: TypeAlias = InboundMessage | ParticipantsChange | GroupsUpserted | ConnectionChanged | Ignored
"""Everything ``parse_event`` returns."""


def strip_device(jid: str) -> str:
    """``34600112233:12@s.whatsapp.net`` -> ``34600112233@s.whatsapp.net``; other JIDs unchanged."""
    user, at, domain = jid.strip().partition("@")
    return f"{user.partition(':')[0]}{at}{domain}"


def _digits(jid: str) -> str | None:
    user = strip_device(jid).partition("@")[0]
    return user if user.isascii() and user.isdigit() else None


def phone_of(jid: str | None) -> str | None:
    """The digits of a phone-number JID (or of bare digits); None for LIDs, groups and anything else."""
    if not jid or jid_domain(jid) not in _PHONE_DOMAINS:
        return None
    return _digits(jid)


def lid_of(jid: str | None) -> str | None:
    """The digits of a ``...@lid`` JID; None otherwise."""
    return _digits(jid) if jid and jid_domain(jid) == LID_DOMAIN else None


def identity_of(*jids: str | None, raw: str | None = None) -> Identity:
    """The first phone number and the first LID among ``jids``; ``raw`` is kept as received."""
    phone = next((p for p in map(phone_of, jids) if p), None)
    lid = next((lid for lid in map(lid_of, jids) if lid), None)
    return Identity(phone, lid, raw)


def participant_identity(person: WireParticipant) -> Identity:
    """PN = phoneNumber, or id when a phone JID; LID = id when ``@lid``, else lid (CONTRACT.md "Parsing")."""
    lid = lid_of(person.id) or lid_of(person.lid) or (_digits(person.lid) if person.lid else None)
    phone = phone_of(person.id) or phone_of(person.phone_number)
    # Leavers' participantsData (2.3.5) carries the LID digits as "phoneNumber": that is no phone number.
    return Identity(None if phone == lid else phone, lid, person.id)


def parse_event(payload: Mapping[str, Any], *, path_event: str | None = None) -> InboundEvent:
    """The event a webhook body carries; ``path_event`` is the per-event URL's suffix, used when ``event`` is absent."""
    try:
        envelope = WireEnvelope.model_validate(payload)
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
    data = WireMessageData.model_validate(envelope.data)
    key = data.key
    if key.from_me:
        return Ignored("fromMe", MESSAGES_UPSERT)
    text = data.text()
    if not key.id:
        return Ignored("no message id", MESSAGES_UPSERT)
    if text is None:
        return Ignored("not a text message", MESSAGES_UPSERT)
    chat = _chat_of(key)
    if chat is None:
        return Ignored("not a person or group chat", MESSAGES_UPSERT)
    chat_id, group_id, sender = chat
    if not sender.known:
        return Ignored("sender unknown", MESSAGES_UPSERT)
    return InboundMessage(
        instance=envelope.instance or "", message_id=key.id, chat_id=chat_id, group_id=group_id, sender=sender,
        participant=key.participant if group_id else None, push_name=data.push_name, text=text,
        mentioned=tuple(dict.fromkeys(strip_device(j) for j in data.mentioned_jids() if _digits(j))),
        sent_at=_when(data.message_timestamp), bot_id=phone_of(envelope.sender),
    )


def _chat_of(key: WireKey) -> tuple[str, str | None, Identity] | None:
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


def _when(timestamp: int | None) -> datetime | None:
    if timestamp is None or not 0 < timestamp < 2**33:
        return None
    return datetime.fromtimestamp(timestamp, UTC)


def _parse_participants(envelope: WireEnvelope) -> InboundEvent:
    data = WireParticipants.model_validate(envelope.data)
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
        group = WireGroup.model_validate(item)
        if group.id and jid_domain(group.id) == GROUP_DOMAIN:
            people = tuple((who, p.is_admin) for p in group.members() if (who := participant_identity(p)).known)
            groups.append(GroupSeen(normalize_group_id(strip_device(group.id)), group.subject, people))
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
    if isinstance(event, InboundMessage):
        return event.chat_id
    if isinstance(event, ParticipantsChange):
        return event.group_id
    if isinstance(event, GroupsUpserted):
        return event.groups[0].group_id
    return "connection" if isinstance(event, ConnectionChanged) else "ignored"
