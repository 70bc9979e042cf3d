"""An answer as the messages that carry it (``result.render``: the reply quoting the command or the reacted message,
the answer's other messages and reactions, and the 🤖 or ⚠️ mark on the command, SPEC sections 5 and 18), and the
notice of an empty spell."""

from __future__ import annotations

__all__ = ["render", "render_throttled"]


from taskcore.chat import replies
from taskcore.chat.decide import Throttled
from taskcore.chat.result import ChatResult, render, reply_to
from taskcore.gateway.events import InboundMessage
from taskcore.gateway.outbound import Quote


def render_throttled(msg: InboundMessage, throttled: Throttled, *, quote: Quote | None = None) -> ChatResult:
    """Nothing done: the one notice of an empty spell (``demasiadas órdenes, espera N s``), or silence."""
    notice = (reply_to(msg, replies.throttled(throttled.retry_after), quote=quote),) if throttled.notify else ()
    return ChatResult("throttled", notice)
