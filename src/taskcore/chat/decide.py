"""What a message asks, decided without reading or writing anything: ``head_of`` and ``decide`` live with the
grammar they read by (``chat.grammar``); this module names them for the road's callers."""

from __future__ import annotations

from taskcore.chat.grammar import ADMIN_FAMILY, Chat, Decision, Throttled, TooLong, decide, head_of

__all__ = ["ADMIN_FAMILY", "Chat", "Decision", "Throttled", "TooLong", "decide", "head_of"]
