"""How a gateway call fails, whichever gateway it is (SPEC section 9): one ``GatewayError``, retryable or not, and
``UnreadableAnswer`` for an answer of a shape its contract does not have, ``MediaRefused`` for a photo the bot does not
keep."""

from __future__ import annotations

from taskcore.errors import TaskcoreError
from taskcore.queue_rules import FailureKind, classify_gateway_error

__all__ = ["GatewayError", "MediaRefused", "UnreadableAnswer"]


class GatewayError(TaskcoreError):
    """A failed gateway call: HTTP status (None for timeouts and connection errors), the message, retryable or not.
    ``unreachable``: WhatsApp refused a direct message to a person who never wrote to the bot (error 463)."""

    def __init__(self, status: int | None, message_text: str, retryable: bool, *, unreachable: bool = False) -> None:
        super().__init__(f"gateway {'error' if status is None else status}: {message_text}")
        self.status = status
        self.message_text = message_text
        self.retryable = retryable
        self.unreachable = unreachable

    @classmethod
    def classified(cls, status: int | None, message_text: str) -> GatewayError:
        """An error whose retryability follows SPEC section 9."""
        kind = classify_gateway_error(status, message_text)
        return cls(status, message_text, kind is FailureKind.RETRY)

    @property
    def kind(self) -> FailureKind:
        """RETRY or PERMANENT."""
        return FailureKind.RETRY if self.retryable else FailureKind.PERMANENT


class UnreadableAnswer(GatewayError):
    """An answer the gateway gave in a shape its contract does not have: not retried (asking again gets the same)."""

    def __init__(self, message_text: str) -> None:
        super().__init__(None, message_text, False)


class MediaRefused(TaskcoreError):
    """A photo the bot does not keep: ``reason`` is ``too_big`` or ``unreadable``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
