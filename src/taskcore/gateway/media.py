"""The answer of ``getBase64FromMediaMessage`` (CONTRACT §3 "Images"), read with bounds: pure.

``{mediaType, fileName, caption, size, mimetype, base64}``: only ``base64`` is read (a ``data:`` URI prefix is
dropped), and only when it can hold at most ``max_bytes`` bytes; it is decoded strictly. Nothing in the answer names a
file or a type the bot trusts: the bytes are checked by their content afterwards (``chores.proof.image_kind``).
"""

from __future__ import annotations

import base64
import binascii
import json

__all__ = ["MediaRefused", "answer_limit", "base64_limit", "decode_media_answer"]

_SLACK = 256 * 1024  # the answer's other fields (a long caption, a file name) beside the base64 text


class MediaRefused(ValueError):
    """A media answer the bot does not keep: ``reason`` is ``too_big`` or ``unreadable``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def base64_limit(max_bytes: int) -> int:
    """The length of the base64 text of ``max_bytes`` bytes."""
    return 4 * -(-max_bytes // 3)


def answer_limit(max_bytes: int) -> int:
    """The most bytes of an answer worth reading: the base64 of ``max_bytes`` and room for the other fields."""
    return base64_limit(max_bytes) + _SLACK


def decode_media_answer(body: bytes, *, max_bytes: int) -> bytes:
    """The media's bytes from the answer's body; MediaRefused when they would pass ``max_bytes`` or cannot be
    read."""
    if len(body) > answer_limit(max_bytes):
        raise MediaRefused("too_big")
    try:
        answer = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise MediaRefused("unreadable") from exc
    text = answer.get("base64") if isinstance(answer, dict) else None
    if not isinstance(text, str) or not text:
        raise MediaRefused("unreadable")
    if text.startswith("data:"):
        text = text.partition(",")[2]
    text = "".join(text.split())
    if not text:
        raise MediaRefused("unreadable")
    if len(text) > base64_limit(max_bytes):
        raise MediaRefused("too_big")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise MediaRefused("unreadable") from exc
    if len(data) > max_bytes:
        raise MediaRefused("too_big")
    return data
