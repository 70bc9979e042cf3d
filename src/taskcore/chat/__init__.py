"""The conversation as use cases: a parsed webhook event in, the replies, reactions and metric events out.

``handle_event`` is the one call the bot's shell makes per event: it decides (``decide``) and then writes every
outbound message and reaction to the queue in one transaction (``deliver``).
"""

from __future__ import annotations

from taskcore.chat.events import decide, deliver, handle_event
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult, MetricEvent, OutgoingText, ReactionRequest

__all__ = [
    "ChatPolicy",
    "ChatResult",
    "MetricEvent",
    "Moment",
    "OutgoingText",
    "ReactionRequest",
    "decide",
    "deliver",
    "handle_event",
]
