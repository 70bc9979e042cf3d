"""What the gateway says about the bot's own sends, pure (../shared/gateway/CONTRACT.md sections 3 and 4): the
``send.message`` echo of every API send, the instance's own number (``ownerJid`` of fetchInstances) and the records
of ``findMessages``. Tolerant like ``gateway.inbound``: anything unreadable becomes None or is skipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SEND_MESSAGE = "send.message"
_SEPARATORS = str.maketrans("", "", "._- ")


def is_echo_event(name: object) -> bool:
    """Whether an event name (``send.message``, ``SEND_MESSAGE``, ``send-message``) is the echo."""
    return isinstance(name, str) and name.lower().translate(_SEPARATORS) == "sendmessage"


def text_digest(text: str) -> str:
    """A short fingerprint of a text (what an echo is matched on, without keeping the text)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class SentMessage:
    """A message the gateway sent for the bot: its id, chat, text fingerprint (None for a reaction) and quoted id."""

    message_id: str
    chat_id: str
    digest: str | None
    quoted_id: str | None
    timestamp: int | None = None  # messageTimestamp, unix seconds


def _seconds(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _text(message: Mapping[str, Any]) -> str | None:
    if isinstance(message.get("conversation"), str):
        return str(message["conversation"])
    extended = message.get("extendedTextMessage")
    if isinstance(extended, Mapping) and isinstance(extended.get("text"), str):
        return str(extended["text"])
    return None


def _quoted(record: Mapping[str, Any], message: Mapping[str, Any]) -> str | None:
    for holder in (record.get("contextInfo"), (message.get("extendedTextMessage") or {}).get("contextInfo")):
        if isinstance(holder, Mapping) and isinstance(holder.get("stanzaId"), str) and holder["stanzaId"]:
            return str(holder["stanzaId"])
    return None


def sent_message(record: object) -> SentMessage | None:
    """One sent message (an echo's ``data``, a sendText answer or a findMessages record), or None when unreadable."""
    if not isinstance(record, Mapping) or not isinstance(record.get("key"), Mapping):
        return None
    key = record["key"]
    ident, chat = key.get("id"), key.get("remoteJid")
    if not isinstance(ident, str) or not ident or not isinstance(chat, str) or key.get("fromMe") is False:
        return None
    raw = record.get("message")
    message: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    text = _text(message)
    return SentMessage(ident, chat, None if text is None else text_digest(text), _quoted(record, message),
                       _seconds(record.get("messageTimestamp")))


def parse_echo(payload: Mapping[str, Any], *, path_event: str | None = None) -> SentMessage | None:
    """The sent message a ``send.message`` webhook body reports; None for any other event or an unreadable one."""
    if not is_echo_event(payload.get("event") or path_event):
        return None
    return sent_message(payload.get("data"))


def owner_jid(answer: object, instance: str | None = None) -> str | None:
    """``ownerJid`` of the instance in a fetchInstances answer (an array of rows), or None (never paired)."""
    rows = answer if isinstance(answer, list) else [answer]
    for row in rows:
        if not isinstance(row, Mapping):
            continue
        nested = row.get("instance")
        inner: Mapping[str, Any] = nested if isinstance(nested, Mapping) else row
        if instance and inner.get("name", inner.get("instanceName")) not in (instance, None):
            continue
        jid = inner.get("ownerJid", inner.get("owner"))
        if isinstance(jid, str) and "@" in jid:
            return jid
    return None


def found_messages(answer: object) -> list[SentMessage]:
    """The readable records of a findMessages answer ``{"messages": {"records": [...]}}`` (also a bare list)."""
    messages = answer.get("messages") if isinstance(answer, Mapping) else answer
    records = messages.get("records") if isinstance(messages, Mapping) else messages
    if not isinstance(records, list):
        raise ValueError("findMessages answer without records")
    return [found for found in map(sent_message, records) if found is not None]


def fingerprint(message: SentMessage) -> tuple[str, str | None, str | None]:
    """What a sent message is matched on when its id is unknown: chat, text fingerprint, quoted id."""
    return message.chat_id, message.digest, message.quoted_id


def body_fingerprint(chat_jid: str, body: Mapping[str, Any]) -> tuple[str, str | None, str | None]:
    """The fingerprint a sendText ``body`` to ``chat_jid`` leaves in its echo and in the gateway's store."""
    text = body.get("text")
    quoted = body.get("quoted")
    key = quoted.get("key") if isinstance(quoted, Mapping) else None
    quoted_id = key.get("id") if isinstance(key, Mapping) else None
    return (chat_jid, text_digest(text) if isinstance(text, str) else None,
            quoted_id if isinstance(quoted_id, str) and quoted_id else None)
