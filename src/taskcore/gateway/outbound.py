"""Bodies of the gateway's outbound calls, exactly as ../shared/gateway/CONTRACT.md section 4 gives them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taskcore.identity import is_group_jid, is_lid, user_jid


def chat_number(chat_id: str) -> str:
    """The ``number`` of sendText: group JIDs and LIDs as they are, a digits-only user id as a phone JID."""
    return chat_id if "@" in chat_id else user_jid(chat_id)


def mention_jid(user_id_or_jid: str) -> str:
    """A JID to put in ``mentioned``: LIDs and phone JIDs kept, digits turned into a phone JID."""
    return user_id_or_jid if is_lid(user_id_or_jid) or "@" in user_id_or_jid else user_jid(user_id_or_jid)


def quoted_key(*, chat_id: str, message_id: str, participant: str | None, text: str | None) -> dict[str, Any]:
    """The ``quoted`` object: key with the original sender as participant, plus the message (else it is lost)."""
    key: dict[str, Any] = {"id": message_id, "remoteJid": chat_id, "fromMe": False}
    if participant:
        key["participant"] = participant
    return {"key": key, "message": {"conversation": text or ""}}


def send_text_body(
    *, chat_id: str, text: str, quoted: dict[str, Any] | None = None, mentioned: Sequence[str] = ()
) -> dict[str, Any]:
    """Body of POST /message/sendText/{instance}; mentions only apply to group chats."""
    body: dict[str, Any] = {"number": chat_number(chat_id), "text": text, "linkPreview": False}
    if quoted is not None:
        body["quoted"] = quoted
    if mentioned and is_group_jid(chat_id):
        body["mentioned"] = list(dict.fromkeys(mention_jid(m) for m in mentioned))
    return body


def send_reaction_body(*, chat_id: str, message_id: str, participant: str | None, emoji: str) -> dict[str, Any]:
    """Body of POST /message/sendReaction/{instance}; in groups the participant is passed exactly as received."""
    key: dict[str, Any] = {"remoteJid": chat_id, "fromMe": False, "id": message_id}
    if participant:
        key["participant"] = participant
    return {"key": key, "reaction": emoji}
