"""Reward requests approved or refused from the chat (SPEC section 34, ``/t aprobar canje <n>``, ``/t rechazar canje
<n> [<motivo>]``).

Placeholders: this module belongs to the rewards branch, which replaces both functions with the real ones (same
names and signatures). Until then a request cannot be approved or refused, and the answer says the command failed.
"""

from __future__ import annotations

from taskcore.chat import replies
from taskcore.chat.result import Answer, rejected
from taskcore.i18n import _
from taskcore.services.conversation.turn import Turn

__all__ = ["approve_request", "reject_request"]


def approve_request(turn: Turn, request_id: int) -> Answer:
    """Approve reward request ``request_id`` (placeholder: replaced by the rewards branch)."""
    return rejected(_(replies.FAILED))


def reject_request(turn: Turn, request_id: int, reason: str) -> Answer:
    """Refuse reward request ``request_id`` with ``reason`` (placeholder: replaced by the rewards branch)."""
    return rejected(_(replies.FAILED))
