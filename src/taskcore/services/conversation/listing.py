"""/t ver: a group's open tasks (unassigned first, then by due date), or in private the sender's, by group; /t info:
one task in full."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from taskcore.chat import replies
from taskcore.chat.checklist_replies import items_inline
from taskcore.chat.commands import ListTasks, TaskInfo
from taskcore.chat.info_replies import task_info
from taskcore.chat.result import Answer, rejected
from taskcore.errors import Forbidden
from taskcore.i18n import _
from taskcore.model import Task
from taskcore.services import quiet, task_lists
from taskcore.services.conversation.on_task import on_task
from taskcore.services.conversation.turn import Turn
from taskcore.services.task_lists import MyTasksQuery


def list_tasks(turn: Turn, cmd: ListTasks) -> Answer:
    """At most ``list_limit`` task lines, then "y N más" pointing to /t web."""
    if turn.group_id is not None:
        return _group_list(turn, turn.group_id)
    limit = turn.policy.list_limit
    page = task_lists.list_my_tasks(turn.uow, turn.policy.mode, user_id=turn.user_id, query=MyTasksQuery(limit=limit),
                                    today=turn.today, now=turn.moment.now)
    if not page.items:
        return Answer(_(replies.NO_MY_TASKS))
    lines = [replies.list_heading(page.total, group=False), *_by_group(page.items, turn.today)]
    return Answer(_with_more(lines, page.total - len(page.items)))


def _group_list(turn: Turn, group_id: str) -> Answer:
    try:
        page = task_lists.list_group_tasks(turn.uow, turn.policy.mode, user_id=turn.user_id, group_id=group_id,
                                           unassigned_first=True, limit=turn.policy.list_limit)
    except Forbidden:
        return rejected(_(replies.NO_GROUP_TASKS))
    if not page.items:
        return Answer(_(replies.NO_GROUP_TASKS))
    today = turn.today
    away = quiet.away_today(turn.uow, user_ids={p.id for t in page.items for p in t.assignees}, today=today)
    lines = [replies.list_heading(page.total, group=True),
             *(replies.task_line(t, group=True, today=today, away=away) + items_inline(t.items) for t in page.items)]
    return Answer(_with_more(lines, page.total - len(page.items)))


def _by_group(items: Sequence[Task], today: date) -> list[str]:
    """Personal tasks first, then each group by name; tasks keep their due-date order inside each heading."""
    sections: dict[tuple[bool, str, str], list[Task]] = {}
    for task in items:
        heading = (task.group_id is not None, task.group_name or task.group_id or "", task.group_id or "")
        sections.setdefault(heading, []).append(task)
    lines: list[str] = []
    for (in_group, name, _gid), group_tasks in sorted(sections.items(), key=lambda item: item[0]):
        lines.append(f"*{name if in_group else _(replies.PERSONAL_HEADING)}*")
        lines.extend(replies.task_line(t, group=False, today=today) + items_inline(t.items) for t in group_tasks)
    return lines


def _with_more(lines: list[str], hidden: int) -> str:
    return "\n".join([*lines, replies.more(hidden)] if hidden > 0 else lines)


def show_task(turn: Turn, cmd: TaskInfo) -> Answer:
    """/t info <id>: the task in full, when the sender may see it (in a group, one of that group's)."""
    def shown() -> Answer:
        task, names = task_lists.task_details(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id)
        return Answer(task_info(task, today=turn.today, names=names), task_id=task.id)

    return on_task(turn, cmd.task_id, shown)
