"""The conversation's pure rules: the command grammar, the decision of what a message asks, and the texts.

Nothing here reads or writes the database: the use cases that act on an event live in
``taskcore.services.conversation`` (the road: admit, decide, act, answer), which calls these rules.
"""

from __future__ import annotations

from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult, MetricEvent, OutgoingText
from taskcore.reactions import ReactionRequest

__all__ = ["ChatPolicy", "ChatResult", "MetricEvent", "Moment", "OutgoingText", "ReactionRequest"]
