"""Missed chores and the kitchen display from the chat (SPEC section 41): ``/t penalizacion``, ``/t aplicar``,
``/t excusar`` and ``/t pantalla``.

The person whose missed chore was applied or excused is told in its group, mentioned, in their own language: the
reply itself when the admin wrote in that group, else a notice there apart (the admin's reply says so). The display's
address goes to the admin who asked by direct message only, like the calendar's (a credential: whoever has it sees
the group's chores); the group hears only that it was sent.
"""

from __future__ import annotations

from collections.abc import Callable

from taskcore.chat import penalty_replies as texts
from taskcore.chat.penalty_args import ApplyMissed, DisplayLink, DisplayRevoke, ExcuseMissed, SetPenalty
from taskcore.chat.result import Answer, Mention, OutgoingText, direct_message, rejected
from taskcore.chores.missed_texts import already_decided
from taskcore.errors import InvalidChoreSetting, NotFound
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import _, speaking
from taskcore.queue_rules import LOGIN_LINK_LABEL
from taskcore.services import display, penalties
from taskcore.services.conversation.calendar import held, in_group_notice
from taskcore.services.conversation.turn import Turn
from taskcore.services.rewards import NotGroupAdmin

NOTICE_LABEL = "notice"


def set_penalty(turn: Turn, cmd: SetPenalty) -> Answer:
    """/t penalizacion [N]: the group's penalty shown, or set by one of its admins."""
    group_id = turn.group_id
    if group_id is None:
        return rejected(_(texts.PENALTY_IN_GROUP))
    if cmd.points is None:
        return Answer(texts.penalty_now(penalties.group_penalty(turn.uow, group_id=group_id)))
    try:
        chosen = penalties.set_penalty(turn.uow, group_id=group_id, user_id=turn.user_id, points=cmd.points,
                                       now=turn.moment.now)
    except NotGroupAdmin:
        return rejected(_(texts.ONLY_ADMINS_PENALTY))
    except InvalidChoreSetting as exc:  # pragma: no cover - the parser checked the range
        return rejected(str(exc))
    return Answer(texts.penalty_set(chosen))


def apply_missed(turn: Turn, cmd: ApplyMissed) -> Answer:
    """/t aplicar <n>: the missed chore's points are deducted from its person's balance in the group."""
    return _decide(turn, cmd.missed_id, apply=True, reason=None)


def excuse_missed(turn: Turn, cmd: ExcuseMissed) -> Answer:
    """/t excusar <n> [motivo]: the missed chore costs nothing."""
    return _decide(turn, cmd.missed_id, apply=False, reason=cmd.reason)


def _decide(turn: Turn, missed_id: int, *, apply: bool, reason: str | None) -> Answer:
    try:
        done = penalties.decide_missed(turn.uow, turn.policy.mode, user_id=turn.user_id, missed_id=missed_id,
                                       apply=apply, reason=reason, now=turn.moment.now)
    except NotFound:
        return rejected(texts.missed_not_found(missed_id))
    except NotGroupAdmin:
        return rejected(_(texts.ONLY_ADMINS_DECIDE))
    except penalties.AlreadyDecided as exc:
        return rejected(already_decided(exc.missed))
    told, jid = penalties.notice(turn.uow, done, default_language=turn.policy.language)
    if turn.group_id == done.group_id:
        return Answer(told, mentions=(Mention(jid.partition("@")[0], jid),))
    body = text_payload(chat_id=done.group_id, text=told, mentioned=[jid])
    return Answer(texts.decided_elsewhere(done), extra=(OutgoingText(done.group_id, body, NOTICE_LABEL),))


def display_link(turn: Turn, cmd: DisplayLink) -> Answer:
    """/t pantalla: a new address of the group's display, by direct message to the admin only."""
    return _by_admin(turn, lambda group_id: _link(turn, group_id))


def display_revoke(turn: Turn, cmd: DisplayRevoke) -> Answer:
    """/t pantalla borrar: the display's address answers 404 from now on."""
    return _by_admin(turn, lambda group_id: Answer(
        _(texts.DISPLAY_REVOKED) if display.revoke_display(turn.uow, turn.policy.mode, group_id=group_id,
                                                                user_id=turn.user_id)
        else _(texts.NO_DISPLAY)))


def _by_admin(turn: Turn, act: Callable[[str], Answer]) -> Answer:
    if turn.group_id is None:
        return rejected(_(texts.DISPLAY_IN_GROUP))
    try:
        return act(turn.group_id)
    except NotGroupAdmin:
        return rejected(_(texts.ONLY_ADMINS_DISPLAY))


def _link(turn: Turn, group_id: str) -> Answer:
    base = turn.policy.web_base_url
    if not base:
        return rejected(_(texts.DISPLAY_UNAVAILABLE))
    if held(turn):
        return Answer("")
    token = display.issue_display(turn.uow, turn.policy.mode, group_id=group_id, user_id=turn.user_id,
                                  now=turn.moment.now)
    name = display.group_name(turn.uow, group_id=group_id) or ""
    with speaking(turn.own_language):
        text = texts.display_link(display.display_url(base, token), name)
    return Answer(in_group_notice(turn), extra=(direct_message(turn.private_chat, text, label=LOGIN_LINK_LABEL),))
