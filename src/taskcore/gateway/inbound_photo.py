"""A photo sent in a chat (CONTRACT §3 "Images", SPEC section 34): what the bot reads of an ``imageMessage``.

The bytes are never read from the webhook (its ``base64`` is unreliable): the message as received, its ``key`` and
its ``message`` (less that ``base64``), is kept to be passed back whole to ``getBase64FromMediaMessage``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from taskcore.gateway.inbound import InboundMessage

__all__ = ["InboundPhoto", "media_of"]


@dataclass(frozen=True, slots=True)
class InboundPhoto:
    """A photo by someone else: ``message`` is it as a message whose text is its caption (quoting what the photo
    replies to); ``media`` the message as received (JSON: ``{"key", "message"}``) to fetch its bytes with;
    ``declared_size`` the ``fileLength`` it states, if any."""

    message: InboundMessage
    media: str
    declared_size: int | None = None

    @property
    def chat_id(self) -> str:
        """The chat it was sent in."""
        return self.message.chat_id


def media_of(data: Any) -> str:
    """The ``{"key", "message"}`` of a messages.upsert ``data`` as JSON, without the webhook's own ``base64``."""
    key = data.get("key") if isinstance(data, Mapping) else None
    message = data.get("message") if isinstance(data, Mapping) else None
    kept = {name: value for name, value in message.items() if name != "base64"} if isinstance(message, Mapping) else {}
    return json.dumps({"key": key if isinstance(key, Mapping) else {}, "message": kept}, ensure_ascii=False)
