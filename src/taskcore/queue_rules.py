"""Pure rules of the outbound queue: backoff, which gateway errors are retried, reaction emoji classes (SPEC 9)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from taskcore.errors import ValidationError
from taskcore.words import meaning

JITTER_LIMIT = 0.2
ERROR_TEXT_LIMIT = 500
RETRYABLE_MARKERS = ("rate-overlimit", "connection closed")
LOGIN_LINK_LABEL = "login"
"""The label of a text job that carries a login link: its text is not kept once the job is done (SPEC section 16)."""
LOGIN_LINK_GONE = {"text": "[enlace de acceso retirado]"}
"""What a done login-link job keeps as its payload: the link is a live credential until it expires or is used."""
DIGEST_LABEL = "digest"
"""The label of a reminder digest: a bulk send, claimed after every interactive one (replies, notices, reactions)
that is due, and never ahead of an interactive job of its chat (``storage.queue``, issue 20)."""


class JobKind(StrEnum):
    """What a queued job sends."""

    TEXT = "text"
    REACTION = "reaction"


class JobStatus(StrEnum):
    """Where a queued job is in its life."""

    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


class FailureKind(StrEnum):
    """Whether a failed send may be tried again."""

    RETRY = "retry"
    PERMANENT = "permanent"


IN_DOUBT = "in doubt: "  # how last_error marks a job whose last attempt may have gone out (SPEC section 26)
IN_DOUBT_DIED = IN_DOUBT + "the process sending it died"
IN_DOUBT_LEASE = IN_DOUBT + "its lease ran out during the send"


@dataclass(frozen=True, slots=True)
class QueueJob:
    """A claimed job; ``attempts`` already counts the attempt this claim is for."""

    id: int
    chat_id: str
    kind: JobKind
    payload: dict[str, Any]
    label: str | None
    attempts: int
    max_attempts: int
    in_doubt: bool = False  # its last attempt may have been accepted (its sender died): settle before sending
    created_at: datetime | None = None
    chosen_id: str | None = None  # the message id chosen before an earlier attempt (WAHA): it may have gone out


def retry_delay(attempt: int, *, base_ms: int, max_ms: int, jitter: float) -> timedelta:
    """The wait before the ``attempt``-th retry: min(max_ms, base_ms * 2^(attempt-1)) * (1 + jitter)."""
    if attempt < 1:
        raise ValidationError(f"retries are numbered from 1, got {attempt}")
    if not -JITTER_LIMIT <= jitter <= JITTER_LIMIT:
        raise ValidationError(f"jitter must be within ±{JITTER_LIMIT}, got {jitter}")
    doublings = min(attempt - 1, max_ms.bit_length())  # beyond this the cap holds; keeps the integer small
    return timedelta(milliseconds=min(max_ms, base_ms * 2**doublings) * (1 + jitter))


def classify_gateway_error(status: int | None, message_text: str) -> FailureKind:
    """Retry timeouts and connection errors (no status), 5xx, rate-overlimit and Connection Closed; else permanent."""
    if status is None or status >= 500:
        return FailureKind.RETRY
    lowered = message_text.lower()
    if any(marker in lowered for marker in RETRYABLE_MARKERS):
        return FailureKind.RETRY
    return FailureKind.PERMANENT


def gateway_error_text(body: object) -> str:
    """The ``response.message`` of a gateway error body as one line (strings joined, objects as JSON)."""
    message: object = body
    if isinstance(body, Mapping) and isinstance(body.get("response"), Mapping):
        message = body["response"].get("message", body)
    parts = message if isinstance(message, list) else [message]
    return "; ".join(p if isinstance(p, str) else json.dumps(p, ensure_ascii=False) for p in parts)


def gives_up(kind: FailureKind, *, attempts: int, max_attempts: int) -> bool:
    """True when a failure is final: permanent, or the job has used all its attempts."""
    return kind is FailureKind.PERMANENT or attempts >= max_attempts


def truncate_error(text: str) -> str:
    """An error text cut to the 500 characters the queue keeps."""
    return text[:ERROR_TEXT_LIMIT]


def emoji_class(emoji: str) -> str:
    """The metric label of a reaction emoji: the bot's mark it is (the lexicons' ``mark``: robot, warn, check) or
    other."""
    return meaning("mark", emoji) or "other"
