"""Importing a CSV file as a group's tasks (SPEC section 35): a preview that writes nothing, or the valid lines
created in one transaction and announced in the group as one message.

Who may import: any active member of a group they see (the gating of the group's lists and of POST /api/tasks),
as any member may create tasks there. The tasks are the importer's, as ``/t nueva``'s are its sender's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import Connection

from taskcore.access import GatingMode, sees_group
from taskcore.csvfiles.reading import LineError, Row, Sheet, read_sheet
from taskcore.errors import Forbidden
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import ngettext, speaking
from taskcore.queue_rules import JobKind
from taskcore.services.languages import group_language_of
from taskcore.services.people import group_mentions
from taskcore.services.tasks import create_task
from taskcore.services.web_tasks import Announcing
from taskcore.storage import members
from taskcore.storage import tasks as q
from taskcore.storage.queue import enqueue
from taskcore.storage.users import display_names
from taskcore.unit import Reading, UnitOfWork

__all__ = ["ANNOUNCEMENT_LABEL", "Imported", "import_tasks", "preview_import"]

ANNOUNCEMENT_LABEL = "notice"
LISTED = 5  # up to this many tasks the announcement names each; more, the first and the last


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did: each line created with its task's id, and the lines that made no task."""

    created: tuple[tuple[int, int], ...]
    errors: tuple[LineError, ...]


def _sheet(conn: Connection, mode: GatingMode, user_id: str, group_id: str, raw: bytes, *, month_first: bool
           ) -> Sheet:
    if not sees_group(mode, q.group_facts(conn, group_id, user_id)):
        raise Forbidden("the group is not available to this user")
    people = [(person.id, person.name) for person in members.active_members(conn, group_id)]
    return read_sheet(raw, people, month_first=month_first)


def preview_import(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str, raw: bytes,
                   month_first: bool = False) -> Sheet:
    """What importing ``raw`` would create, and its errors per line; nothing is written. Forbidden unless the user
    is an active member of a group they see; UnreadableFile, TooManyLines or ValidationError for a file refused
    whole. ``month_first``: the uploader writes dates month first (their order when the file does not tell)."""
    conn = uow.conn
    return _sheet(conn, mode, user_id, group_id, raw, month_first=month_first)


def import_tasks(uow: UnitOfWork, mode: GatingMode, *, user_id: str, group_id: str, raw: bytes, now: datetime,
                 today: date, announcing: Announcing, month_first: bool = False) -> Imported:
    """Create the valid lines of ``raw`` in one transaction (``today``: the importer's, for a recurring line without
    a date), and queue one message in the group that says how many; the same refusals as ``preview_import``."""

    conn = uow.conn
    sheet = _sheet(conn, mode, user_id, group_id, raw, month_first=month_first)
    created = tuple((row.line, _create(uow, row, user_id, group_id, now=now, today=today)) for row in sheet.rows)
    if created:
        _announce(conn, user_id, group_id, [task for _line, task in created], now=now,
                  announcing=announcing)
    return Imported(created, sheet.errors)


def _create(uow: UnitOfWork, row: Row, user_id: str, group_id: str, *, now: datetime, today: date) -> int:
    made = create_task(uow, creator=user_id, description=row.description, group_id=group_id, due=row.due,
                       assignees=row.assignees, now=now, recurrence=row.recurrence,
                       rotation=row.assignees if row.rotation else (), today=today, points=row.points,
                       balanced=row.balanced, items=row.items)
    return made.id


def _announce(conn: Connection, user_id: str, group_id: str, task_ids: Sequence[int], *, now: datetime,
              announcing: Announcing) -> None:
    """The one message "Ana ha importado 12 tareas desde un archivo (#3–#14)." in the group's language; an importer
    whose name the bot does not know is mentioned instead."""
    name = display_names(conn, [user_id]).get(user_id)
    digits, jid = group_mentions(conn, group_id, [user_id])[user_id]
    ids = ", ".join(f"#{task}" for task in task_ids) if len(task_ids) <= LISTED else f"#{task_ids[0]}–#{task_ids[-1]}"
    who = name or f"@{digits}"
    with speaking(group_language_of(conn, group_id, announcing.lang)):
        text = ngettext("{name} ha importado {n} tarea desde un archivo ({ids}). Mírala con /t ver.",
                        "{name} ha importado {n} tareas desde un archivo ({ids}). Míralas con /t ver.",
                        len(task_ids), name=who, ids=ids)
    payload = text_payload(chat_id=group_id, text=text, mentioned=[] if name else [jid])
    enqueue(conn, chat_id=group_id, kind=JobKind.TEXT, payload=payload, label=ANNOUNCEMENT_LABEL,
            max_attempts=announcing.max_attempts, now=now)

