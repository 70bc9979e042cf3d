"""Replies a minute per person (SPEC section 32): beyond SENDS_PER_PERSON_PER_MIN a person's commands are still
done, but they get no reply (nor mark) for each; the first one over the cap in a spell gets one short notice.

So one member's burst (``/t web`` twenty times) cannot use up the number's send pace for everyone else. Pure: the
decision comes from the shell's per-person bucket (``Moment.take_send``).
"""

from __future__ import annotations

from taskcore.chat.result import ChatResult, reply_to
from taskcore.gateway.events import InboundMessage
from taskcore.gateway.outbound import Quote
from taskcore.i18n import N_, _
from taskcore.ratelimit import Decision

__all__ = ["SENDS_CAPPED", "capped"]

SENDS_CAPPED = N_("Vas muy rápido: hago lo que pides, pero durante {seconds} s no respondo a cada orden.")


def capped(answered: ChatResult, decision: Decision, msg: InboundMessage, *,
           quote: Quote | None = None) -> ChatResult:
    """``answered`` when the person's replies allow it; otherwise only the notice of the spell (or nothing)."""
    if decision.allowed:
        return answered
    notice = (reply_to(msg, _(SENDS_CAPPED, seconds=decision.retry_after), quote=quote),) if decision.notify else ()
    return ChatResult(f"{answered.outcome} (replies capped)", notice, (), answered.metrics)
