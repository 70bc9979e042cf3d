"""An answer as the messages that carry it: the reply quoting the command (or the reacted message), the answer's
other messages and reactions, and the 🤖 or ⚠️ mark on the command (SPEC sections 5 and 18)."""

from __future__ import annotations

from typing import Any

from taskcore.chat import replies
from taskcore.chat.decide import Throttled
from taskcore.chat.result import Answer, ChatResult, reply_to
from taskcore.gateway.inbound import InboundMessage
from taskcore.reactions import ROBOT, WARN, ReactionRequest


def render(msg: InboundMessage, name: str, answer: Answer, *, quote: dict[str, Any] | None = None,
           marks: bool = True) -> ChatResult:
    """The reply (quoting ``msg``, or ``quote``; none for an answer without text: its mark says it all) and
    everything else the answer sends; ``marks``: the command gets 🤖 when it worked and ⚠️ when it did not (a
    reaction gets none of its own)."""
    mark = ReactionRequest(msg.chat_id, msg.message_id, msg.participant, ROBOT if answer.ok else WARN,
                           dedupe_key=f"command:{msg.instance}:{msg.message_id}")
    reply = reply_to(msg, answer.text, answer.mentions, quote=quote, label=answer.label, task_id=answer.task_id)
    return ChatResult(
        f"{name} {'done' if answer.ok else 'rejected'}",
        texts=(reply, *answer.extra) if answer.text else answer.extra,
        reactions=(*answer.reactions, *((mark,) if marks else ())),
        metrics=answer.metrics,
    )


def render_throttled(msg: InboundMessage, throttled: Throttled, *, quote: dict[str, Any] | None = None) -> ChatResult:
    """Nothing done: the one notice of an empty spell (``demasiadas órdenes, espera N s``), or silence."""
    notice = (reply_to(msg, replies.throttled(throttled.retry_after), quote=quote),) if throttled.notify else ()
    return ChatResult("throttled", notice)
