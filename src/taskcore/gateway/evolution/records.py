"""Evolution API's records, read into the bot's words (../shared/gateway/CONTRACT.md sections 3 and 4): a
participant's identity, a message the bot sent (the ``send.message`` echo, a ``fromMe`` upsert, a sendText answer, a
``findMessages`` record), a status update (``messages.update``) and a photo's message (to fetch its bytes with).

Pure and tolerant like the decoder: anything unreadable is None or skipped, never an error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from taskcore.gateway.echo import text_digest
from taskcore.gateway.events import STATUSES, Identity, SentMessage, StatusUpdate
from taskcore.gateway.evolution.models import WireParticipant
from taskcore.identity import digits_of, lid_of, phone_of, strip_device

__all__ = ["STATUS_NAMES", "media_of", "participant_identity", "sent_message", "status_update"]

STATUS_NAMES = STATUSES  # Baileys' numbers 0-5 name them in this order


def participant_identity(person: WireParticipant) -> Identity:
    """PN = phoneNumber, or id when a phone JID; LID = id when ``@lid``, else lid (CONTRACT.md "Parsing")."""
    lid = lid_of(person.id) or lid_of(person.lid) or (digits_of(person.lid) if person.lid else None)
    phone = phone_of(person.id) or phone_of(person.phone_number)
    # Leavers' participantsData (2.3.5) carries the LID digits as "phoneNumber": that is no phone number.
    return Identity(None if phone == lid else phone, lid, person.id)


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
    return SentMessage(ident, strip_device(chat), None if text is None else text_digest(text),
                       _quoted(record, message), _seconds(record.get("messageTimestamp")))


def _status(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return STATUS_NAMES[value] if 0 <= value < len(STATUS_NAMES) else None
    if isinstance(value, str):
        name = value.strip().upper()
        if name.isdigit():
            return _status(int(name))
        return name if name in STATUS_NAMES else None
    return None


def _error_code(data: Mapping[str, Any]) -> str | None:
    for holder in (data.get("messageStubParameters"), data.get("error"), data.get("errorCode")):
        if isinstance(holder, list) and holder and isinstance(holder[0], str | int):
            return str(holder[0])
        if isinstance(holder, str | int) and not isinstance(holder, bool):
            return str(holder)
    return None


def status_update(data: object) -> StatusUpdate | None:
    """One update of a message the bot sent (``{keyId, remoteJid, fromMe, status, ...}``; ``status`` a name or
    Baileys' number 0-5), or None (unreadable, or not the bot's)."""
    if not isinstance(data, Mapping):
        return None
    raw_key = data.get("key")
    key: Mapping[str, Any] = raw_key if isinstance(raw_key, Mapping) else {}
    ident = data.get("keyId") or key.get("id")
    chat = data.get("remoteJid") or key.get("remoteJid")
    from_me = data.get("fromMe", key.get("fromMe"))
    status = _status(data.get("status"))
    if not isinstance(ident, str) or not ident or not isinstance(chat, str) or not chat or status is None:
        return None
    if from_me is not True:
        return None
    return StatusUpdate(ident, strip_device(chat), status, _error_code(data) if status == "ERROR" else None)


def media_of(data: Any) -> str:
    """The ``{"key", "message"}`` of a messages.upsert ``data`` as JSON, without the webhook's own ``base64``: what
    ``getBase64FromMediaMessage`` is given back to fetch a photo's bytes (the webhook's base64 is unreliable)."""
    key = data.get("key") if isinstance(data, Mapping) else None
    message = data.get("message") if isinstance(data, Mapping) else None
    kept = {name: value for name, value in message.items() if name != "base64"} if isinstance(message, Mapping) else {}
    return json.dumps({"key": key if isinstance(key, Mapping) else {}, "message": kept}, ensure_ascii=False)
