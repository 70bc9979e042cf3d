"""WAHA's failed answers classified, pure (../shared/gateway/waha/CONTRACT.md section 5): a small ``Failure`` the
shell's client turns into the project's ``GatewayError``.

A send WhatsApp refuses is a synchronous HTTP 500 naming its code (``server returned error 463``), not Evolution's
201 then ``ERROR``: 463 (the reach-out time-lock) is permanent, "unreachable in private"; another WhatsApp code is
permanent for that message (429, WhatsApp's rate limit, is retried). A session that is not working (422), not
running (404 naming the session: WAHA restarts it when its configuration changes), a gRPC transport error (14
UNAVAILABLE, 4 DEADLINE_EXCEEDED) and any other 5xx are retried; other 4xx and 501 are permanent. The text never
carries the request body WAHA echoes in a 500 (the message's text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from taskcore.gateway.waha import read

__all__ = ["REACHOUT_CODE", "UNREACHABLE", "Failure", "classify", "describe"]

REACHOUT_CODE = "463"
UNREACHABLE = "unreachable in private"
RATE_LIMIT_CODE = "429"
_WHATSAPP_CODE = re.compile(r"server returned error (\d{3})")
_GRPC_CODE = re.compile(r"^\s*(\d{1,2}) [A-Z_]+:")
# gRPC codes that say the request itself is wrong (INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED,
# FAILED_PRECONDITION, UNIMPLEMENTED, UNAUTHENTICATED); the rest (UNAVAILABLE, DEADLINE_EXCEEDED, UNKNOWN without a
# WhatsApp code: "websocket not connected") may pass.
_GRPC_PERMANENT = frozenset({3, 5, 7, 9, 12, 16})
_TEXT_LIMIT = 300


@dataclass(frozen=True, slots=True)
class Failure:
    """A failed call: HTTP status, one line saying why, whether trying again may help, and WhatsApp's refusal code
    when WhatsApp refused the message (``"463"``: the person never wrote to the bot in private)."""

    status: int | None
    text: str
    retryable: bool
    code: str | None = None

    @property
    def unreachable(self) -> bool:
        """Whether WhatsApp refused a message to someone who never wrote to the bot (error 463)."""
        return self.code == REACHOUT_CODE


def describe(body: object) -> str:
    """One line of an error body: its ``message``/``error`` and the engine's ``exception.message``; never the
    request WAHA echoes. Bounded."""
    if isinstance(body, str):
        parts = [body]
    else:
        exception = read.mapping(body, "exception")
        parts = [value for value in (read.text(body, "message"), read.text(body, "error"),
                                     read.text(exception, "message"), read.text(body, "error", "message"))
                 if value is not None]
    line = " ".join(" ".join(dict.fromkeys(parts)).split())
    return line[:_TEXT_LIMIT]


def _whatsapp_code(body: object) -> str | None:
    exception = read.mapping(body, "exception")
    for value in (read.string(exception, "details"), read.string(exception, "message"), read.string(body, "message")):
        found = _WHATSAPP_CODE.search(value or "")
        if found:
            return found.group(1)
    return None


def _grpc_code(body: object) -> int | None:
    exception = read.mapping(body, "exception")
    code = read.integer(exception, "code")
    if code is not None:
        return code
    found = _GRPC_CODE.match(read.string(exception, "message") or "")
    return int(found.group(1)) if found else None


def _refused(status: int, action: str, code: str) -> Failure:
    if code == REACHOUT_CODE:
        return Failure(status, f"{action}: {UNREACHABLE}: WhatsApp refused the message (error {code})", False, code)
    return Failure(status, f"{action}: WhatsApp refused the message (error {code})", code == RATE_LIMIT_CODE, code)


def _retryable(status: int, body: object, text: str) -> bool:
    lowered = text.lower()
    if status == 404:
        return "session" in lowered and "file" not in lowered
    if status == 422:
        return "session status" in lowered
    if status in (408, 425, 429):
        return True
    if status == 501 or status < 500:
        return False
    if "message id be in format" in lowered:
        return False
    return _grpc_code(body) not in _GRPC_PERMANENT


def classify(status: int, body: object, *, action: str) -> Failure:
    """The failure of a call ``action`` that answered ``status`` with ``body`` (decoded JSON, or text)."""
    code = _whatsapp_code(body) if isinstance(body, Mapping) else None
    if code is not None:
        return _refused(status, action, code)
    text = describe(body)
    shown = f"{action}: HTTP {status}" + (f": {text}" if text else "")
    if status == 401:
        return Failure(status, f"{action}: unauthorized: wrong or missing X-Api-Key", False)
    return Failure(status, shown, _retryable(status, body, text))
