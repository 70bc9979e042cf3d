"""The CSV export of SPEC section 35: a group's tasks or mine as a file a spreadsheet opens (``csvfiles.writing``),
gated like the JSON lists, texts in the language in force (the reader's); the operator's ``tasksvc export`` in the
group's language. Instants are written in each task's group's zone with its offset (SPEC section 39): a group
without one, and a personal task, in the reader's zone (the operator's file: TZ)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode
from taskcore.csvfiles.writing import export_csv
from taskcore.errors import NotFound
from taskcore.i18n import speaking
from taskcore.model import Task
from taskcore.services import task_lists
from taskcore.services.languages import group_language_of
from taskcore.services.zones import zone_of
from taskcore.storage import groups, task_export
from taskcore.unit import Reading
from taskcore.zones import zone_named

__all__ = ["file_name", "group_csv", "my_csv", "operator_group_csv"]


def _zones(conn: Connection, tasks: Iterable[Task], fallback: ZoneInfo) -> Callable[[Task], ZoneInfo]:
    """Each task's zone: its group's, else ``fallback``."""
    named = {group: zone_named(groups.group_zone(conn, group), fallback)
             for group in {task.group_id for task in tasks if task.group_id is not None}}
    return lambda task: named.get(task.group_id, fallback) if task.group_id is not None else fallback


def group_csv(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str, fallback: ZoneInfo,
              semicolon: bool = False) -> bytes:
    """GET /api/groups/{id}/tasks.csv: every task of the group, open and completed; Forbidden as the list;
    ``fallback``: TZ, for a reader with no zone of their own."""
    found = task_lists.all_group_tasks(uow, mode, user_id=user_id, group_id=group_id)
    conn = uow.conn
    reader = zone_of(conn, user_id, fallback).zone
    return export_csv(found, zone_of=_zones(conn, found, reader), semicolon=semicolon)


def my_csv(uow: Reading, mode: GatingMode, *, user_id: str, fallback: ZoneInfo, semicolon: bool = False) -> bytes:
    """GET /api/me/tasks.csv: every task of mine, open and completed."""
    found = task_lists.all_my_tasks(uow, mode, user_id=user_id)
    conn = uow.conn
    reader = zone_of(conn, user_id, fallback).zone
    return export_csv(found, zone_of=_zones(conn, found, reader), semicolon=semicolon)


def operator_group_csv(uow: Reading, *, group_id: str, default_lang: str, fallback: ZoneInfo) -> bytes:
    """``tasksvc export --group``: the group's file in its language (DEFAULT_LANGUAGE when it chose none) and zone
    (``fallback``, TZ, when it chose none); NotFound for a group the bot never saw."""
    conn = uow.conn
    if groups.load_group(conn, group_id) is None:
        raise NotFound(f"no group {group_id}")
    lang = group_language_of(conn, group_id, default_lang)
    found = task_export.group_tasks(conn, group_id)
    with speaking(lang):
        return export_csv(found, zone_of=_zones(conn, found, fallback))


def file_name(today: date, *, group: bool) -> str:
    """The file's name as the browser saves it (ASCII: every browser keeps it)."""
    return f"{'group-tasks' if group else 'my-tasks'}-{today.isoformat()}.csv"
