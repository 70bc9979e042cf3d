"""What the bot's own sends are recognised by, whichever gateway reports them (SPEC sections 26 and 31): a short
fingerprint of a text (``text_digest``: an echo is matched on it without keeping the text) and the fingerprint of a
sent message or of a queued text (its chat, text and quoted id), for a send whose id is unknown."""

from __future__ import annotations

import hashlib

from taskcore.gateway.events import SentMessage
from taskcore.gateway.outbound import OutboundText

__all__ = ["body_fingerprint", "fingerprint", "text_digest"]


def text_digest(text: str) -> str:
    """A short fingerprint of a text (what an echo is matched on, without keeping the text)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def fingerprint(message: SentMessage) -> tuple[str, str | None, str | None]:
    """What a sent message is matched on when its id is unknown: chat, text fingerprint, quoted id."""
    return message.chat_id, message.digest, message.quoted_id


def body_fingerprint(text: OutboundText) -> tuple[str, str | None, str | None]:
    """The fingerprint a queued text leaves in its echo and in the gateway's store."""
    return text.chat_id, text_digest(text.text), text.quote.message_id if text.quote else None
