"""The media of the local and fake gateways (CONTRACT §3 "Images"): the photos they were given, served by
``POST /chat/getBase64FromMediaMessage/{instance}`` in the real gateway's answer shape, by the message's key id.

A test can also script the answer itself (``answers``): a base64 far larger than any photo, text that is no image.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from tasksvc_run.devgateway.wire import error_body

__all__ = ["SAMPLE_PNG", "MediaStore"]

# A 1x1 PNG, the simulator's built-in photo.
SAMPLE_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")


@dataclass
class MediaStore:
    """Photos by message id: their bytes and declared type; ``answers`` holds scripted answers by message id."""

    photos: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)

    def give(self, message_id: str, data: bytes, mimetype: str = "image/jpeg") -> None:
        """The gateway holds this photo of message ``message_id``."""
        self.photos[message_id] = (data, mimetype)

    def answer(self, body: Any) -> tuple[int, Any]:
        """The answer to a getBase64FromMediaMessage body: 201 with the media, 400 when the body is off the contract
        or names no message the gateway holds."""
        message = body.get("message") if isinstance(body, dict) else None
        key = message.get("key") if isinstance(message, dict) else None
        ident = key.get("id") if isinstance(key, dict) else None
        if not isinstance(ident, str) or not isinstance(message.get("message") if message else None, dict):
            return 400, error_body(400, ['instance requires property "message"'])
        if ident in self.answers:
            return 201, self.answers[ident]
        if ident not in self.photos:
            return 400, error_body(400, ["Error: Message not found"])
        data, mimetype = self.photos[ident]
        return 201, {"mediaType": "imageMessage", "fileName": f"{ident}.{mimetype.rpartition('/')[2]}",
                     "caption": (message or {}).get("message", {}).get("imageMessage", {}).get("caption"),
                     "size": {"fileLength": str(len(data)), "height": 1, "width": 1}, "mimetype": mimetype,
                     "base64": base64.b64encode(data).decode("ascii")}
