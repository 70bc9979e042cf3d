"""``/t puntos`` and ``/t resumen`` from the chat (SPEC section 25): a task's points, the summary of the group (or,
in a direct message, of the sender across their groups) and the group's weekly summary moment."""

from __future__ import annotations

from taskcore.chat.chore_commands import SetPoints, SetWeeklySummary, ShowSummary
from taskcore.chat.result import Answer, rejected
from taskcore.chores import texts
from taskcore.i18n import _
from taskcore.services import tasks, zones
from taskcore.services.conversation.tasks import change_task
from taskcore.services.conversation.turn import Turn
from taskcore.services.summaries import Whose, set_weekly, summary_for


def set_points(turn: Turn, cmd: SetPoints) -> Answer:
    """/t puntos <id> N."""
    return change_task(turn, cmd.task_id, lambda: tasks.edit_task(
        turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id, points=cmd.points),
                       lambda task: texts.points_set(task.id, task.points))


def show_summary(turn: Turn, cmd: ShowSummary) -> Answer:
    """/t resumen [semana|mes]: the group's, in the group's zone (SPEC section 39: what is overdue is decided there,
    never on the server's clock; a group without one, the asker's); in a direct message the sender's own, in their
    zone."""
    group = turn.group_id
    own = zones.user_zone(turn.uow, user_id=turn.user_id, fallback=turn.policy.zone).zone
    zone = (zones.group_zone(turn.uow, group_id=group) or own) if group else own
    today = turn.moment.now.astimezone(zone).date()
    return Answer(summary_for(turn.uow.conn, Whose(group, None if group else turn.user_id), cmd.period, today=today,
                              zone=zone))


def set_weekly_summary(turn: Turn, cmd: SetWeeklySummary) -> Answer:
    """/t resumen semanal <día> HH:MM|no, in a group: when the week's summary is posted there, in the group's zone
    (SPEC section 30; a group without one takes the zone of the person who sets its summary)."""
    if turn.group_id is None:
        return rejected(_(texts.WEEKLY_ONLY_IN_GROUPS))
    zone = zones.group_zone(turn.uow, group_id=turn.group_id) or zones.user_zone(
        turn.uow, user_id=turn.user_id, fallback=turn.policy.zone).zone
    next_at = set_weekly(turn.uow, group_id=turn.group_id, moment=cmd.moment, now=turn.moment.now, zone=zone)
    if cmd.moment is None or next_at is None:
        return Answer(_(texts.WEEKLY_STOPPED))
    return Answer(texts.weekly_set(cmd.moment, next_at, zone))
