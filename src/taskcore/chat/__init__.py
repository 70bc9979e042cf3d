"""The conversation as use cases: a parsed webhook event in, the replies, reactions and metric events out.

``handle_event`` handles one event: it decides (``decide``) and then writes every outbound message and reaction to
the queue in one transaction (``deliver``). ``handle_events``, the call the bot's shell makes, does that for a batch
of waiting events in one transaction (group commit), falling back to one transaction each when one of them fails.
"""

from __future__ import annotations

from taskcore.chat.events import decide, deliver, handle_event, handle_events
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult, MetricEvent, OutgoingText
from taskcore.reactions import ReactionRequest

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
    "handle_events",
]
