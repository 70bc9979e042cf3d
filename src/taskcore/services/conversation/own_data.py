"""``/t borrarme``: the sender erased, in a direct message and once confirmed (SPEC section 32)."""

from __future__ import annotations

from taskcore.chat import own_data_replies as texts
from taskcore.chat.commands import ForgetMe
from taskcore.chat.result import Answer, rejected
from taskcore.i18n import _
from taskcore.services.conversation.turn import Turn
from taskcore.services.own_data import forget_person


def forget_me(turn: Turn, cmd: ForgetMe) -> Answer:
    """Refused in a group (what it erases is nobody else's business); asks first; then erases, in the same unit of
    work as the message (the reply goes to the chat the person wrote from)."""
    if turn.group_id is not None:
        return rejected(_(texts.ONLY_IN_PRIVATE))
    if not cmd.confirmed:
        return Answer(_(texts.ASK_TO_CONFIRM))
    erased = forget_person(turn.uow, user_id=turn.user_id, now=turn.moment.now)
    return Answer(_(texts.FORGOTTEN) if erased else _(texts.NOTHING_KEPT))
