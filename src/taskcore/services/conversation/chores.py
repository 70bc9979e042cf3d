"""``/t insistir`` and ``/t pasar`` (SPEC section 25) carried out through the nagging and turns use cases, and the
``!insistir`` of ``/t nueva``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from taskcore.chat import chore_replies as texts
from taskcore.chat.chore_commands import PassTurn, SetNag
from taskcore.chat.commands import NewTask
from taskcore.chat.result import Answer, Mention, rejected
from taskcore.chores.nagging import DEFAULT_EVERY_HOURS
from taskcore.errors import InvalidChoreSetting
from taskcore.gateway.outbound import person_jid
from taskcore.i18n import _
from taskcore.services import nagging, turns
from taskcore.services.conversation.on_task import on_task
from taskcore.services.conversation.turn import Turn
from taskcore.services.people import group_mentions


def _guarded(turn: Turn, task_id: int, action: Callable[[], Answer]) -> Answer:
    """Run ``action`` on a task named here (``on_task``); a nag that cannot be set is a short reply too."""

    def refused_or_done() -> Answer:
        try:
            return action()
        except InvalidChoreSetting as exc:
            return rejected(texts.nag_refused(task_id, str(exc)), task_id)

    return on_task(turn, task_id, refused_or_done)


def set_nag(turn: Turn, cmd: SetNag) -> Answer:
    """/t insistir: nag every N hours once overdue, or stop."""
    def act() -> Answer:
        nagging.set_nag(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id,
                        every_hours=cmd.every_hours, zone=turn.policy.zone, now=turn.moment.now)
        if cmd.every_hours is None:
            return Answer(texts.nag_stopped(cmd.task_id), task_id=cmd.task_id)
        return Answer(texts.nag_set(cmd.task_id, cmd.every_hours), task_id=cmd.task_id)

    return _guarded(turn, cmd.task_id, act)


def pass_turn(turn: Turn, cmd: PassTurn) -> Answer:
    """/t pasar: the holder hands the occurrence to the next person in turn, whom the reply mentions."""
    def act() -> Answer:
        try:
            passed = turns.pass_turn(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id,
                                     zone=turn.policy.zone, now=turn.moment.now)
        except turns.NotRotation:
            return rejected(texts.not_rotation(cmd.task_id), cmd.task_id)
        except turns.NotHolder:
            return rejected(texts.not_holder(cmd.task_id), cmd.task_id)
        except turns.NobodyNext:
            return rejected(texts.nobody_next(cmd.task_id), cmd.task_id)
        mention = _mention(turn, passed.task.group_id, passed.to.partition("@")[0])
        return Answer(texts.turn_passed(cmd.task_id, passed.task.description, mention.tag), mentions=(mention,),
                      task_id=cmd.task_id)

    return _guarded(turn, cmd.task_id, act)


def _mention(turn: Turn, group_id: str | None, user_id: str) -> Mention:
    """The person mentioned in the form the group uses (SPEC section 31: their LID in a LID group)."""
    if group_id is None:
        return Mention(user_id, person_jid(user_id))
    conn = turn.uow.conn
    digits, jid = group_mentions(conn, group_id, [user_id])[user_id]
    return Mention(digits, jid)


def nag_refusal(turn: Turn, cmd: NewTask) -> Answer | None:
    """Why ``!insistir`` cannot go on this new task (before anything is written), or None."""
    if not cmd.nag:
        return None
    if turn.group_id is None:
        return rejected(_("!insistir: {reason}.", reason=_(nagging.NEEDS_GROUP)))
    if cmd.due is None and cmd.recurrence is None:
        return rejected(_("!insistir: {reason}.", reason=_(nagging.NEEDS_DUE)))
    return None


def with_nag(create: Callable[[Turn, NewTask], Answer]) -> Callable[[Turn, NewTask], Answer]:
    """``/t nueva`` with ``!insistir``: refused before anything is written when the task cannot nag, else the task
    just created nags every 24 hours."""
    def handler(turn: Turn, cmd: NewTask) -> Answer:
        refused = nag_refusal(turn, cmd)
        if refused is not None:
            return refused
        answer = create(turn, cmd)
        if not cmd.nag or not answer.ok or answer.task_id is None:
            return answer
        nagging.set_nag(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=answer.task_id,
                        every_hours=DEFAULT_EVERY_HOURS, zone=turn.policy.zone, now=turn.moment.now)
        return replace(answer, text=f"{answer.text}\n{texts.nag_set(answer.task_id, DEFAULT_EVERY_HOURS)}")

    return handler


