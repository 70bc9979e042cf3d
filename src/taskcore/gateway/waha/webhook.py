"""A WAHA webhook delivery checked and keyed, pure (contract section 2, "Request headers" and "Verify").

With an HMAC key configured, WAHA signs each POST: ``X-Webhook-Hmac`` is the lower-case hex HMAC-SHA512 of the
exact raw body bytes, ``X-Webhook-Hmac-Algorithm`` is ``sha512``; the timestamp header is not signed. Each delivery
has an ``X-Webhook-Request-Id``, the same in every retry of it, and the envelope's ``id`` (``evt_…``) names the event
itself. Checks are constant-time (``hmac.compare_digest``, STYLE habit 7).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

__all__ = ["ALGORITHM", "ALGORITHM_HEADER", "HMAC_HEADER", "REQUEST_ID_HEADER", "TIMESTAMP_HEADER", "dedupe_key",
           "event_id", "header", "request_id", "signature", "signature_ok"]

HMAC_HEADER = "X-Webhook-Hmac"
ALGORITHM_HEADER = "X-Webhook-Hmac-Algorithm"
REQUEST_ID_HEADER = "X-Webhook-Request-Id"
TIMESTAMP_HEADER = "X-Webhook-Timestamp"
ALGORITHM = "sha512"
_MAX_ID = 200  # characters of an id kept as a de-duplication key: anything longer is not WAHA's


def header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value, its name matched without regard to case (a plain dict as well as aiohttp's headers)."""
    found = headers.get(name)
    if found is not None:
        return found
    wanted = name.lower()
    return next((value for key, value in headers.items() if key.lower() == wanted), None)


def signature(body: bytes, key: str) -> str:
    """The lower-case hex HMAC-SHA512 of ``body`` under ``key``: what WAHA sends as ``X-Webhook-Hmac``."""
    return hmac.new(key.encode("utf-8"), body, hashlib.sha512).hexdigest()


def signature_ok(body: bytes, headers: Mapping[str, str], key: str) -> bool:
    """Whether a delivery is signed with ``key``: ``X-Webhook-Hmac`` is the HMAC-SHA512 of the raw ``body``, and
    ``X-Webhook-Hmac-Algorithm``, when sent, says ``sha512``. A missing or malformed signature is False."""
    algorithm = header(headers, ALGORITHM_HEADER)
    if algorithm is not None and algorithm.strip().lower() != ALGORITHM:
        return False
    given = (header(headers, HMAC_HEADER) or "").strip().lower()
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), signature(body, key).encode("ascii"))


def _usable(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    stripped = value.strip()
    return stripped if stripped and len(stripped) <= _MAX_ID and stripped.isprintable() else None


def request_id(headers: Mapping[str, str]) -> str | None:
    """``X-Webhook-Request-Id``: the same in every retry of one delivery; None when absent or unusable."""
    return _usable(header(headers, REQUEST_ID_HEADER))


def event_id(payload: Mapping[str, Any]) -> str | None:
    """The envelope's ``id`` (``evt_`` and a ULID): one per event, stamped before WAHA fans it out to webhooks and
    retries; None when absent or unusable."""
    return _usable(payload.get("id"))


def dedupe_key(headers: Mapping[str, str], payload: Mapping[str, Any]) -> str | None:
    """What makes a delivery one event: the envelope's ``id`` (the same for every webhook and every retry), else the
    request id (the same for every retry of one POST); None when the delivery carries neither."""
    ident = event_id(payload)
    if ident is not None:
        return f"event:{ident}"
    request = request_id(headers)
    return None if request is None else f"request:{request}"
