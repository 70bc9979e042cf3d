"""The CSV export of SPEC section 35: a group's tasks or mine as a file a spreadsheet opens (``csvfiles.writing``),
gated like the JSON lists, texts in the language in force (the reader's); the operator's ``tasksvc export`` in the
group's language."""

from __future__ import annotations

from datetime import date

from taskcore.access import GatingMode
from taskcore.csvfiles.writing import export_csv
from taskcore.errors import NotFound
from taskcore.i18n import speaking
from taskcore.services import task_lists
from taskcore.services.languages import group_language_of
from taskcore.storage import groups, task_export
from taskcore.unit import Reading

__all__ = ["file_name", "group_csv", "my_csv", "operator_group_csv"]


def group_csv(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str) -> bytes:
    """GET /api/groups/{id}/tasks.csv: every task of the group, open and completed; Forbidden as the list."""
    return export_csv(task_lists.all_group_tasks(uow, mode, user_id=user_id, group_id=group_id))


def my_csv(uow: Reading, mode: GatingMode, *, user_id: str) -> bytes:
    """GET /api/me/tasks.csv: every task of mine, open and completed."""
    return export_csv(task_lists.all_my_tasks(uow, mode, user_id=user_id))


def operator_group_csv(uow: Reading, *, group_id: str, default_lang: str) -> bytes:
    """``tasksvc export --group``: the group's file in its language (DEFAULT_LANGUAGE when it chose none); NotFound
    for a group the bot never saw."""
    conn = uow.conn
    if groups.load_group(conn, group_id) is None:
        raise NotFound(f"no group {group_id}")
    lang = group_language_of(conn, group_id, default_lang)
    found = task_export.group_tasks(conn, group_id)
    with speaking(lang):
        return export_csv(found)


def file_name(today: date, *, group: bool) -> str:
    """The file's name as the browser saves it (ASCII: every browser keeps it)."""
    return f"{'group-tasks' if group else 'my-tasks'}-{today.isoformat()}.csv"
