"""Public ids (SPEC section 32): how a person is named to someone else, never by their phone number or LID.

Pure rules: ``p_`` and 24 lowercase base32 characters of an HMAC-SHA256 of the internal user id (the seed's digits)
under a key the service keeps. Stable for as long as the internal id is (a person first seen by LID and later by
phone number gets the public id of the phone number's digits once the rows are re-keyed: docs/decisions.md).
Nothing maps a public id back but computing the public ids of the people who could be meant (``resolve``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable

__all__ = ["PUBLIC_ID_PATTERN", "PUBLIC_PREFIX", "is_public_id", "public_id", "resolve_public_id"]

PUBLIC_PREFIX = "p_"
PUBLIC_ID_PATTERN = r"p_[a-z2-7]{24}"
_SHAPE = re.compile(PUBLIC_ID_PATTERN)
_DIGEST_BYTES = 15  # 120 bits: 24 base32 characters, no padding


def public_id(user_id: str, key: bytes) -> str:
    """The public id of ``user_id`` under ``key``."""
    digest = hmac.new(key, user_id.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()[:_DIGEST_BYTES]
    return PUBLIC_PREFIX + base64.b32encode(digest).decode("ascii").lower()


def is_public_id(value: str) -> bool:
    """Whether ``value`` has the shape of a public id."""
    return _SHAPE.fullmatch(value) is not None


def resolve_public_id(value: str, candidates: Iterable[str], key: bytes) -> str | None:
    """The candidate user id whose public id is ``value``, else None."""
    if not is_public_id(value):
        return None
    for user_id in candidates:
        if hmac.compare_digest(public_id(user_id, key), value):
            return user_id
    return None
