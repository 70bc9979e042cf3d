"""WAHA's message events into the bot's (contract section 3): ``message`` and ``message.any`` (a text, a photo, or
the echo of the bot's own send), ``message.reaction``, ``message.ack`` and ``message.ack.group``.

``message.any`` repeats every message of ``message`` from others: both are decoded the same, so the one message
keeps one bare id and the inbox's de-duplication by id sees it once. A ``fromMe`` message is never a command: sent by
this session (``source: "api"``, or the sender's device is the session's) it is the echo of a send; typed on the bot's
phone it is ignored (docs/decisions.md, "WAHA beside Evolution API").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taskcore.gateway.events import (
    DeliveryStatus,
    Echo,
    GatewayEvent,
    Identity,
    Ignored,
    InboundMessage,
    InboundPhoto,
    InboundReaction,
    ReactedMessage,
    SentMessage,
    StatusUpdate,
)
from taskcore.gateway.waha import read, records
from taskcore.gateway.waha.envelope import Envelope
from taskcore.gateway.waha.jids import (
    GROUP_DOMAIN,
    LID_DOMAIN,
    PHONE_DOMAIN,
    bare_id,
    device_of,
    domain_of,
    identity,
    whatsapp_jid,
)
from taskcore.identity import normalize_group_id

__all__ = ["ACK_STATUS", "ack_event", "message_event", "reaction_event"]

ACK_STATUS = {-1: "ERROR", 0: "PENDING", 1: "SERVER_ACK", 2: "DELIVERY_ACK", 3: "READ", 4: "PLAYED"}
_ACK_NAMES = {"ERROR": -1, "PENDING": 0, "SERVER": 1, "DEVICE": 2, "READ": 3, "PLAYED": 4}
_TEXT_TYPES = ("conversation", "extendedTextMessage")
Chat = tuple[str, str | None, Identity]  # (chat id for replies, group id or None, sender)


def _chat(envelope: Envelope, payload: Mapping[str, Any]) -> Chat | None:
    """Where a message was written and by whom; None for broadcasts, channels and anything unreadable."""
    info = read.mapping(payload, "_data", "Info")
    chat = whatsapp_jid(payload.get("from")) or whatsapp_jid(info.get("Chat"))
    if chat is None:
        return None
    alt = info.get("SenderAlt")
    if domain_of(chat) == GROUP_DOMAIN:
        try:
            group = normalize_group_id(chat)
        except ValueError:
            return None
        return group, group, identity(payload.get("participant"), alt, info.get("Sender"), me=envelope.me)
    if domain_of(chat) not in (PHONE_DOMAIN, LID_DOMAIN):
        return None
    sender = identity(chat, alt, info.get("Sender"), me=envelope.me)
    return (f"{sender.phone}@{PHONE_DOMAIN}" if sender.phone else f"{sender.lid}@{LID_DOMAIN}"), None, sender


def _from_this_session(envelope: Envelope, payload: Mapping[str, Any]) -> bool:
    """Whether the bot's own message was sent by this session (an API send), not typed on its phone: ``source``
    says so, or the sender's device is the session's (contract section 3, ``message.any``)."""
    source = read.string(payload, "source")
    if source == "api":
        return True
    sent_by = device_of(read.string(payload, "_data", "Info", "Sender"))
    if envelope.me.device and sent_by:
        return sent_by == envelope.me.device
    return source is None


def _own(envelope: Envelope, payload: Mapping[str, Any], sent: SentMessage | None) -> GatewayEvent:
    """The bot's own message or reaction: the echo of an API send, else typed on its phone (ignored)."""
    if not _from_this_session(envelope, payload):
        return Ignored("typed on the bot's phone", envelope.event)
    return Echo(envelope.session, sent) if sent is not None else Ignored("unreadable echo", envelope.event)


def _kind(payload: Mapping[str, Any], message: Mapping[str, Any]) -> str | None:
    """``image``, ``text`` or None (a sticker, a voice note, a location... the bot does not read)."""
    media_type = read.string(payload, "media", "mimetype") or ""
    if "imageMessage" in message or (read.flag(payload, "hasMedia") and media_type.startswith("image/")):
        return "image"
    if any(name in message for name in _TEXT_TYPES):
        return "text"
    if not message and not read.flag(payload, "hasMedia") and read.string(payload, "body") is not None:
        return "text"  # a build that sends no ``_data``: its body is the text
    return None


def message_event(envelope: Envelope) -> GatewayEvent:
    """``message`` / ``message.any``: a text or a photo by someone else, or the echo of the bot's own send."""
    payload = envelope.payload
    if read.flag(payload, "fromMe"):
        return _own(envelope, payload, records.sent_message(payload))
    ident = bare_id(read.text(payload, "id")) or read.text(payload, "_data", "Info", "ID")
    if ident is None:
        return Ignored("no message id", envelope.event)
    message = records.content(payload)
    kind = _kind(payload, message)
    if kind is None:
        return Ignored("not a text message", envelope.event)
    chat = _chat(envelope, payload)
    if chat is None or not chat[2].known:
        return Ignored("not a person or group chat" if chat is None else "sender unknown", envelope.event)
    read_message = _message(envelope, payload, message, ident, chat)
    return read_message if kind == "text" else _photo(read_message, envelope, message)


def _message(envelope: Envelope, payload: Mapping[str, Any], message: Mapping[str, Any], ident: str,
             chat: Chat) -> InboundMessage:
    chat_id, group_id, sender = chat
    context = records.context_info(message)
    quoted_id, author, quoted_text = records.quoted(payload, context)
    participant = (whatsapp_jid(payload.get("participant")) or sender.jid) if group_id else None
    return InboundMessage(
        instance=envelope.session, message_id=ident, chat_id=chat_id, group_id=group_id, sender=sender,
        participant=participant, push_name=read.text(payload, "_data", "Info", "PushName"),
        text=records.text_of(payload, message) or "", mentioned=records.mentions(context),
        sent_at=read.when(read.integer(payload, "timestamp")), bot_id=envelope.bot_id, quoted_id=quoted_id,
        quoted_author=author, quoted_text=quoted_text)


def _photo(message: InboundMessage, envelope: Envelope, content: Mapping[str, Any]) -> GatewayEvent:
    """A photo: its ``media`` is the URL WAHA serves it at ('' when WAHA did not download it); one that neither
    replies nor says anything names no task."""
    if not message.quoted_id and not message.text.strip():
        return Ignored("a photo naming no task", envelope.event)
    payload = envelope.payload
    media = read.mapping(payload, "media")
    url = "" if media.get("error") else read.text(media, "url") or read.text(payload, "mediaUrl") or ""
    return InboundPhoto(message, url.strip(), read.integer(content, "imageMessage", "fileLength"))


def reaction_event(envelope: Envelope) -> GatewayEvent:
    """``message.reaction``: someone's reaction on a message; the bot's own is the echo of its reaction send (or,
    typed on its phone, ignored)."""
    payload = envelope.payload
    ident = bare_id(read.text(payload, "id"))
    if read.flag(payload, "fromMe"):
        sent = records.sent_message(payload)
        return _own(envelope, payload, sent)
    chat = _chat(envelope, payload)
    if ident is None or chat is None or not chat[2].known:
        return Ignored("unreadable reaction", envelope.event)
    chat_id, group_id, sender = chat
    if envelope.me.named(sender.jid) or (sender.phone and sender.phone == envelope.bot_id):
        return Ignored("the bot's own reaction", envelope.event)
    participant = sender.jid if group_id else None
    reacted = _reacted(read.text(payload, "reaction", "messageId"), participant, envelope)
    if reacted is None:
        return Ignored("reaction without the reacted message", envelope.event)
    emoji = (read.string(payload, "reaction", "text") or "").strip()
    return InboundReaction(
        instance=envelope.session, message_id=ident, chat_id=chat_id, group_id=group_id, sender=sender,
        participant=participant, push_name=None, emoji=emoji, reacted=reacted,
        sent_at=read.when(read.integer(payload, "timestamp")), bot_id=envelope.bot_id)


def _reacted(serialized: str | None, reactor: str | None, envelope: Envelope) -> ReactedMessage | None:
    """The reacted message of ``reaction.messageId``, written from the reactor's side: ``true_`` is the reactor's
    own message; ``false_`` someone else's, whose author (the participant part, or in a direct chat the chat part)
    may be the bot."""
    ident = bare_id(serialized)
    if ident is None or serialized is None:
        return None
    parts = serialized.split("_")
    if len(parts) < 3:
        return ReactedMessage(ident, False, None)
    if parts[0] == "true":
        return ReactedMessage(ident, False, reactor)
    author = whatsapp_jid(parts[3]) if len(parts) == 4 else None
    mine = envelope.me.named(author) if author else envelope.me.named(parts[1])
    return ReactedMessage(ident, mine, author)


def _status(payload: Mapping[str, Any]) -> str | None:
    ack = read.integer(payload, "ack")
    if ack is None:
        ack = _ACK_NAMES.get((read.string(payload, "ackName") or "").strip().upper())
    return ACK_STATUS.get(ack) if ack is not None else None


def ack_event(envelope: Envelope) -> GatewayEvent:
    """``message.ack`` / ``message.ack.group``: what became of a message the bot sent; in a group, one member's
    receipt. Receipts the bot itself sent (``fromMe`` false) are none of its business."""
    payload = envelope.payload
    if not read.flag(payload, "fromMe"):
        return Ignored("not the bot's message", envelope.event)
    ident = bare_id(read.text(payload, "id"))
    chat = whatsapp_jid(payload.get("from")) or whatsapp_jid(read.at(payload, "_data", "Chat"))
    status = _status(payload)
    if ident is None or chat is None or status is None:
        return Ignored("unreadable receipt", envelope.event)
    member = whatsapp_jid(payload.get("participant")) if domain_of(chat) == GROUP_DOMAIN else None
    return DeliveryStatus(envelope.session, (StatusUpdate(ident, chat, status, None, member),))
