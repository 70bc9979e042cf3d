"""WAHA's message records, read into the bot's words (contract section 3, ``message``): the protobuf content of
``_data.Message``, its ``contextInfo`` (mentions, the quoted message), and a message the bot sent (an echo in
``message.any``, a stored message of ``GET /api/{session}/chats/{chatId}/messages``).

Pure and tolerant like the decoder: anything unreadable is None or empty, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taskcore.gateway.echo import text_digest
from taskcore.gateway.events import SentMessage
from taskcore.gateway.waha import read
from taskcore.gateway.waha.jids import bare_id, digits, whatsapp_jid

__all__ = ["content", "context_info", "mentions", "quoted", "sent_message", "text_of"]

# whatsmeow unwraps these into ``Message`` already; read through them anyway when a build leaves one in place.
_WRAPPERS = ("ephemeralMessage", "viewOnceMessage", "viewOnceMessageV2", "viewOnceMessageV2Extension",
             "documentWithCaptionMessage")


def content(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """``_data.Message`` of a message payload, unwrapped from ephemeral / view-once / document-with-caption."""
    message = read.mapping(payload, "_data", "Message")
    for _ in range(len(_WRAPPERS)):
        inner = next((read.mapping(message, name, "message") for name in _WRAPPERS if name in message), None)
        if not inner:
            break
        message = inner
    return message


def context_info(message: Mapping[str, Any]) -> Mapping[str, Any]:
    """The ``contextInfo`` of the message's content (``extendedTextMessage``, ``imageMessage``, ...); ``{}``."""
    for value in message.values():
        found = read.mapping(value, "contextInfo")
        if found:
            return found
    return read.mapping(message, "contextInfo")


def text_of(payload: Mapping[str, Any], message: Mapping[str, Any]) -> str | None:
    """The text of a message: WAHA's ``body``, else ``conversation``, ``extendedTextMessage.text`` or a caption."""
    body = read.string(payload, "body")
    if body is not None:
        return body
    return (read.string(message, "conversation") or read.string(message, "extendedTextMessage", "text")
            or read.string(message, "imageMessage", "caption"))


def mentions(context: Mapping[str, Any]) -> tuple[str, ...]:
    """``contextInfo.mentionedJID`` as WhatsApp JIDs, device suffixes dropped, each once, only person JIDs."""
    found = (whatsapp_jid(jid) for jid in read.items(context, "mentionedJID"))
    return tuple(dict.fromkeys(jid for jid in found if jid is not None and digits(jid)))


def quoted(payload: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[str | None, str | None, str | None]:
    """(bare id, author, text) of the message this one replies to: WAHA's ``replyTo``, else the raw
    ``contextInfo`` (``stanzaID``, ``participant``); Nones when it replies to nothing."""
    reply = read.mapping(payload, "replyTo")
    ident = bare_id(read.text(reply, "id")) or bare_id(read.text(context, "stanzaID"))
    if ident is None:
        return None, None, None
    author = whatsapp_jid(reply.get("participant")) or whatsapp_jid(context.get("participant"))
    return ident, author, read.text(reply, "body")


def sent_message(payload: object) -> SentMessage | None:
    """A message the bot sent, from a WAMessage (its echo, a stored message) or a reaction's echo: bare id, chat in
    WhatsApp's form, text fingerprint (None without a text), quoted id and time; None when unreadable or not the
    bot's (``fromMe`` false)."""
    if not isinstance(payload, Mapping) or read.at(payload, "fromMe") is False:
        return None
    info = read.mapping(payload, "_data", "Info")
    ident = bare_id(read.text(payload, "id")) or read.text(info, "ID")
    chat = whatsapp_jid(payload.get("from")) or whatsapp_jid(info.get("Chat"))
    if ident is None or chat is None:
        return None
    message = content(payload)
    text = None if "reaction" in payload else text_of(payload, message)
    quoted_id = quoted(payload, context_info(message))[0]
    return SentMessage(ident, chat, None if text is None else text_digest(text), quoted_id,
                       read.integer(payload, "timestamp"))
