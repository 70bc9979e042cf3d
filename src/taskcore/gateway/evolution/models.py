"""Tolerant pydantic models of the gateway's inbound webhook JSON (CONTRACT.md section 3).

Unknown keys are ignored; a scalar of the wrong type (a number where a JID should be, ``"[object Object]"``) counts
as absent rather than failing the event. ``decode`` turns these into the events the bot acts on.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _strings(value: object) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list | tuple) else ()


def _flag(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _timestamp(value: object) -> int | None:
    """Unix seconds as a number, a digit string or a protobuf Long object ``{low, high}``."""
    if isinstance(value, dict):
        low, high = value.get("low"), value.get("high", 0)
        if isinstance(low, int) and isinstance(high, int):
            return (high << 32) | (low & 0xFFFFFFFF)
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if math.isfinite(value) and abs(value) < 2**62 else None
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip()[:18])
    return None


def _as_list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


Text = Annotated[str | None, BeforeValidator(_text_or_none)]
Texts = Annotated[tuple[str, ...], BeforeValidator(_strings)]
Flag = Annotated[bool, BeforeValidator(_flag)]
Timestamp = Annotated[int | None, BeforeValidator(_timestamp)]
Items = Annotated[list[Any], BeforeValidator(_as_list)]


class Loose(BaseModel):
    """Extra keys ignored; fields read by their wire (camelCase) names."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)


def _object_or_none(value: object) -> object:
    return value if isinstance(value, dict) else None


_OBJECT = BeforeValidator(_object_or_none)


class WireEnvelope(Loose):
    """``{event, instance, data, sender, ...}``."""

    event: Text = None
    instance: Text = None
    data: Any = None
    sender: Text = None


class WireKey(Loose):
    """A message key with every addressing field any supported gateway version sends."""

    remote_jid: Text = Field(None, alias="remoteJid")
    remote_jid_alt: Text = Field(None, alias="remoteJidAlt")
    previous_remote_jid: Text = Field(None, alias="previousRemoteJid")
    from_me: Flag = Field(False, alias="fromMe")
    id: Text = None
    participant: Text = None
    participant_alt: Text = Field(None, alias="participantAlt")
    participant_pn: Text = Field(None, alias="participantPn")
    participant_lid: Text = Field(None, alias="participantLid")
    sender_pn: Text = Field(None, alias="senderPn")
    sender_lid: Text = Field(None, alias="senderLid")
    addressing_mode: Text = Field(None, alias="addressingMode")


def _conversation(value: object) -> str | None:
    """A quoted message's text (``quotedMessage.conversation``), when it carries one."""
    text = value.get("conversation") if isinstance(value, dict) else None
    return text if isinstance(text, str) else None


class WireContext(Loose):
    """contextInfo: mentions, and on replies the quoted message's id, author and text."""

    mentioned_jid: Texts = Field((), alias="mentionedJid")
    stanza_id: Text = Field(None, alias="stanzaId")
    participant: Text = None
    quoted_text: Annotated[str | None, BeforeValidator(_conversation)] = Field(None, alias="quotedMessage")


class WireExtendedText(Loose):
    """message.extendedTextMessage (older gateways do not normalise it to conversation)."""

    text: Text = None
    context_info: Annotated[WireContext | None, _OBJECT] = Field(None, alias="contextInfo")


def _emoji(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


class WireReaction(Loose):
    """message.reactionMessage: the reacted message's key and the emoji (``""`` when the reaction is removed)."""

    key: Annotated[WireKey | None, _OBJECT] = None
    text: Annotated[str, BeforeValidator(_emoji)] = ""


class WireImage(Loose):
    """message.imageMessage (SPEC section 34): its caption, its stated size, and on a reply its contextInfo."""

    caption: Annotated[str | None, BeforeValidator(lambda v: v if isinstance(v, str) else None)] = None
    file_length: Timestamp = Field(None, alias="fileLength")
    context_info: Annotated[WireContext | None, _OBJECT] = Field(None, alias="contextInfo")


class WireMessage(Loose):
    """The message body: only text forms, photos and reactions are read."""

    conversation: Text = None
    extended_text: Annotated[WireExtendedText | None, _OBJECT] = Field(
        None, alias="extendedTextMessage")
    reaction: Annotated[WireReaction | None, _OBJECT] = Field(None, alias="reactionMessage")
    image: Annotated[WireImage | None, _OBJECT] = Field(None, alias="imageMessage")


class WireMessageData(Loose):
    """messages.upsert ``data``."""

    key: WireKey
    push_name: Text = Field(None, alias="pushName")
    message: Annotated[WireMessage | None, _OBJECT] = None
    context_info: Annotated[WireContext | None, _OBJECT] = Field(None, alias="contextInfo")
    message_timestamp: Timestamp = Field(None, alias="messageTimestamp")

    def text(self) -> str | None:
        """conversation, else extendedTextMessage.text; None for any other message type."""
        if self.message is None:
            return None
        extended = self.message.extended_text
        return self.message.conversation or (extended.text if extended else None)

    def quoted_id(self) -> str | None:
        """The quoted message's id (``contextInfo.stanzaId``), top-level or in extendedTextMessage (or a photo's
        imageMessage); None if none."""
        inner = (self.message.extended_text or self.message.image) if self.message else None
        nested = inner.context_info if inner else None
        return (self.context_info.stanza_id if self.context_info else None) or (nested.stanza_id if nested else None)

    def mentioned_jids(self) -> tuple[str, ...]:
        """mentionedJid from the top-level contextInfo and from extendedTextMessage.contextInfo."""
        extended = self.message.extended_text if self.message else None
        nested = extended.context_info if extended else None
        return (*(self.context_info.mentioned_jid if self.context_info else ()),
                *(nested.mentioned_jid if nested else ()))

    def quoted(self) -> tuple[str | None, str | None]:
        """The quoted message's author (as the reply names them) and its text, from the top-level contextInfo."""
        context = self.context_info
        return (context.participant, context.quoted_text) if context else (None, None)

    def parts(self) -> tuple[str | None, str | None, tuple[str, ...]]:
        """``text``, ``quoted_id`` and ``mentioned_jids`` at once, as a message is read."""
        return self.text(), self.quoted_id(), self.mentioned_jids()


class WireParticipant(Loose):
    """A participant object ``{id, phoneNumber?, lid?, admin}``."""

    id: Text = None
    phone_number: Text = Field(None, alias="phoneNumber")
    lid: Text = None
    admin: Text = None

    @classmethod
    def of(cls, value: object) -> WireParticipant | None:
        """A participant from a JID string or an object; None for anything else."""
        if isinstance(value, str):
            return cls(id=value)
        return cls.model_validate(value) if isinstance(value, dict) else None

    @property
    def is_admin(self) -> bool:
        """admin or superadmin."""
        return self.admin in ("admin", "superadmin")


class WireParticipants(Loose):
    """group-participants.update ``data``."""

    id: Text = None
    action: Text = None
    participants: Items = Field(default_factory=list)
    participants_data: Items = Field(default_factory=list, alias="participantsData")

    def enriched(self) -> Iterator[WireParticipant]:
        """Each participant, a bare string completed with its ``participantsData`` phone number when usable."""
        extra = dict(_data_entry(item) for item in self.participants_data)
        for raw in self.participants:
            person = WireParticipant.of(raw)
            if person is None:
                continue
            if isinstance(raw, str) and person.id in extra:
                person = person.model_copy(update={"phone_number": extra[person.id]})
            yield person


def _data_entry(item: object) -> tuple[str | None, str | None]:
    """(jid, phone) of a participantsData entry; ``jid`` may itself be an object (2.3.7) or a string (2.3.5)."""
    if not isinstance(item, dict):
        return None, None
    jid = item.get("jid")
    if isinstance(jid, dict):
        inner = WireParticipant.model_validate(jid)
        return inner.id, inner.phone_number
    phone = item.get("phoneNumber")
    return (jid if isinstance(jid, str) else None), (phone if isinstance(phone, str) else None)


class WireGroup(Loose):
    """One group of groups.upsert (raw metadata with participants)."""

    id: Text = None
    subject: Text = None
    addressing_mode: Text = Field(None, alias="addressingMode")
    participants: Items = Field(default_factory=list)

    def members(self) -> Iterator[WireParticipant]:
        """Each readable participant."""
        for raw in self.participants:
            person = WireParticipant.of(raw)
            if person is not None:
                yield person


_EVENT_NAMES = {
    "messagesupsert": "messages.upsert",
    "groupparticipantsupdate": "group-participants.update",
    "groupsupsert": "groups.upsert",
    "connectionupdate": "connection.update",
    "messagesupdate": "messages.update",  # a message's status (SPEC section 31): kept by the delivery use case
    "sendmessage": "send.message",  # the echo of a send (SPEC section 26): the watchdog's, never parsed as chat
}


_SEPARATORS = str.maketrans("", "", "._- ")


ModelT = TypeVar("ModelT", bound=BaseModel)


def validated(model: type[ModelT], value: object) -> ModelT:
    """``model`` read from ``value`` by pydantic (ValidationError otherwise): its field readers above run from here."""
    return model.model_validate(value)


def canonical_event(name: str | None) -> str | None:
    """``messages.upsert`` from any spelling (``MESSAGES_UPSERT``, ``messages-upsert``); None when unknown."""
    if not name:
        return None
    return _EVENT_NAMES.get(name.lower().translate(_SEPARATORS))
