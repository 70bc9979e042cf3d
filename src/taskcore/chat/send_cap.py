"""Replies a minute per person (SPEC sections 32 and 38): a bucket of SENDS_BURST replies that refills at
SENDS_PER_PERSON_PER_MIN. Beyond it a person's commands are still done; a command that only shows something gets no
reply (nor mark), one that changed something is always confirmed, and the first command over the cap in a spell
carries one short notice (in that command's reply, when it has one).

So one member's burst (``/t web`` twenty times) cannot use up the number's send pace for everyone else, and everyday
use (browsing ``/t plantilla``, ten commands in a minute) never meets the cap. Pure: the decision comes from the
shell's per-person bucket (``Moment.sends``).
"""

from __future__ import annotations

from dataclasses import replace

from taskcore.chat.result import ChatResult, OutgoingText, reply_to
from taskcore.gateway.events import InboundMessage
from taskcore.gateway.outbound import Quote
from taskcore.i18n import N_, _
from taskcore.ratelimit import Decision

__all__ = ["SENDS_BURST", "SENDS_CAPPED", "capped"]

SENDS_BURST = 10
"""Replies one person's commands may get at once before the per-minute rate holds (SPEC section 38)."""
SENDS_CAPPED = N_("Vas muy rápido: hago lo que pides, pero durante {seconds} s no respondo a cada orden.")


def capped(answered: ChatResult, decision: Decision, msg: InboundMessage, *, changed: bool = False,
           quote: Quote | None = None) -> ChatResult:
    """``answered`` when the person's replies allow it, or when the command ``changed`` something (with the spell's
    notice added to its reply); otherwise only the notice of the spell (or nothing)."""
    if decision.allowed:
        return answered
    notice = _(SENDS_CAPPED, seconds=decision.retry_after)
    if changed:
        return replace(answered, texts=_noticed(answered.texts, notice, msg, quote)) if decision.notify else answered
    said = (reply_to(msg, notice, quote=quote),) if decision.notify else ()
    return ChatResult(f"{answered.outcome} (replies capped)", said, (), answered.metrics)


def _noticed(texts: tuple[OutgoingText, ...], notice: str, msg: InboundMessage,
             quote: Quote | None) -> tuple[OutgoingText, ...]:
    """The texts with the notice at the end of the reply in the command's chat (a reply of its own when there is
    none)."""
    for at, text in enumerate(texts):
        if text.chat_id == msg.chat_id:
            payload = {**text.payload, "text": f"{text.text}\n{notice}"}
            return (*texts[:at], replace(text, payload=payload), *texts[at + 1:])
    return (reply_to(msg, notice, quote=quote), *texts)
