"""Creating a task from the web (SPEC section 23): the rules of ``/t nueva``, gated like the group endpoints, and a
group task announced in its group by the bot, queued in the same transaction and linked to the task (section 18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.access import GatingMode, sees_group
from taskcore.checklists import check_count, item_texts
from taskcore.chores.nagging import Nag
from taskcore.chores.points import DEFAULT_POINTS, check_points
from taskcore.errors import Forbidden, InvalidChoreSetting, ValidationError
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import SOURCE, _, day_and_month, speaking
from taskcore.model import Task
from taskcore.public_ids import public_id
from taskcore.queue_rules import JobKind
from taskcore.services import nagging
from taskcore.services.languages import group_language_of
from taskcore.services.people import group_mentions
from taskcore.services.tasks import create_task
from taskcore.storage import members
from taskcore.storage import tasks as q
from taskcore.storage.queue import enqueue
from taskcore.storage.users import display_names
from taskcore.text import Description
from taskcore.unit import UnitOfWork

ANNOUNCEMENT_LABEL = "notice"
SHORT_DESCRIPTION = 80  # as the chat's replies (chat.replies.short; the web process does not load the chat)


@dataclass(frozen=True, slots=True)
class NewTask:
    """What the web form sends: a personal task (no group) or a task of one of the user's groups for some of its
    active members (none: unassigned); its points (1 to 10) and whether it nags, every ``nag`` hours (SPEC 25)."""

    description: str
    due: date | None = None
    group_id: str | None = None
    assignees: tuple[str, ...] = ()
    points: int = DEFAULT_POINTS
    nag: int | None = None
    items: tuple[str, ...] = ()  # its checklist (SPEC section 41)


@dataclass(frozen=True, slots=True)
class Announcing:
    """How the bot's message about a task made on the web is queued: its attempts, and the language of groups that
    chose none (DEFAULT_LANGUAGE: what the bot starts in a group is in the group's language, SPEC section 24)."""

    max_attempts: int
    lang: str = SOURCE


def create_from_web(
    uow: UnitOfWork, mode: GatingMode, *, user_id: str, new: NewTask, now: datetime, announcing: Announcing,
    zone: ZoneInfo = nagging.EARLIEST, key: bytes | None = None,
) -> Task:
    """Create the task as ``/t nueva`` would and return it; in a group, queue the bot's announcement there.

    ValidationError (field ``description``, ``assignees``, ``points``, ``nag`` or ``items``) for an empty or too long
    description, assignees on a personal task (it is its creator's) or someone who is not an active member of the
    group, points outside 1..10, more than 20 items or an empty one, or a nag (1..168 hours) on a personal or undated
    task (``!insistir``'s rules); Forbidden unless the group is effectively allowed and the user an active member of
    it. Nothing is written then.
    ``zone``: TZ, for the first nags of assignees with no zone of their own. With ``key`` (the web's case) the
    assignees are public ids (SPEC section 32), each resolved among the group's active members."""
    text = Description.of(new.description)
    if new.group_id is None and new.assignees:
        raise ValidationError(_("una tarea personal es solo de quien la crea: no lleva asignados"),
                              field="assignees")
    _check_chores(new)
    if new.items:  # before anything is written: InvalidItem (field items)
        check_count(0, len(new.items))
        new = replace(new, items=item_texts(new.items))
    new = replace(new, description=text, assignees=tuple(dict.fromkeys(new.assignees)))
    return _create(uow, mode, user_id=user_id, new=new, now=now, announcing=announcing, zone=zone, key=key)


def _check_chores(new: NewTask) -> None:
    """Points and nagging as ``!N`` and ``!insistir`` take them, refused with the field the API names."""
    check_points(new.points)
    if new.nag is None:
        return
    Nag(new.nag)  # field nag outside 1..168
    if new.group_id is None:
        raise InvalidChoreSetting(_(nagging.NEEDS_GROUP), field="nag")
    if new.due is None:
        raise InvalidChoreSetting(_(nagging.NEEDS_DUE), field="nag")


def _create(uow: UnitOfWork, mode: GatingMode, *, user_id: str, new: NewTask, now: datetime,
            announcing: Announcing, zone: ZoneInfo, key: bytes | None) -> Task:
    conn = uow.conn
    if new.group_id is not None:
        new = replace(new, assignees=_check_group(conn, mode, user_id, new.group_id, new.assignees, key=key))
    made = create_task(uow, creator=user_id, description=new.description, group_id=new.group_id,
                       due=new.due, assignees=new.assignees, now=now, points=new.points, items=new.items)
    if new.nag is not None:
        nagging.start_nagging(conn, made.id, new.nag, zone)
    task = q.load_tasks(conn, [made.id])[0]
    if task.group_id is not None:
        creator = display_names(conn, [user_id]).get(user_id)
        with speaking(group_language_of(conn, task.group_id, announcing.lang)):
            people = [person.id for person in task.assignees] + ([] if creator else [task.created_by])
            payload = announcement(task, creator, group_mentions(conn, task.group_id, people))
        enqueue(conn, chat_id=task.group_id, kind=JobKind.TEXT, payload=payload, label=ANNOUNCEMENT_LABEL,
                max_attempts=announcing.max_attempts, now=now, task_id=task.id)
    return task


def _check_group(conn: Connection, mode: GatingMode, user_id: str, group_id: str, assignees: Sequence[str], *,
                 key: bytes | None) -> tuple[str, ...]:
    """The assignees' user ids, once each is known to be an active member (the bot never is: SPEC section 32)."""
    if not sees_group(mode, q.group_facts(conn, group_id, user_id)):
        raise Forbidden("the group is not available to this user")
    if key is None:
        present = members.active_among(conn, group_id, assignees)
        found = {person: person for person in assignees if person in present}
    else:
        everyone = {public_id(person.id, key): person.id for person in members.active_members(conn, group_id)}
        found = {person: everyone[person] for person in assignees if person in everyone}
    strangers = [person for person in assignees if person not in found]
    if strangers:
        raise ValidationError(_("no es miembro activo del grupo: {ids}", ids=", ".join(strangers)),
                              field="assignees")
    return tuple(dict.fromkeys(found[person] for person in assignees))


def announcement(task: Task, creator_name: str | None,
                 forms: Mapping[str, tuple[str, str]] | None = None) -> dict[str, Any]:
    """The sendText body of "Ana ha creado la tarea #N desde la web: …" in the task's group, with its due date and
    its assignees mentioned as the reply to ``/t nueva`` gives them; a creator without a known name is mentioned.
    ``forms``: each person's (digits, JID) in the form the group uses (SPEC 31), else their phone number's."""
    form = {**{user: (user, user) for user in [task.created_by, *(p.id for p in task.assignees)]}, **(forms or {})}
    name = creator_name or f"@{form[task.created_by][0]}"
    head = _("{name} ha creado la tarea #{id} desde la web: {text}", name=name, id=task.id,
             text=_short(task.description))
    details = [_("Vence el {date}.", date=day_and_month(task.due_date))] if task.due_date else []
    tags = [f"@{form[person.id][0]}" for person in task.assignees]
    details.append(_("Para {people}.", people=", ".join(tags)) if tags else _("Sin asignar."))
    mentioned = [form[person.id][1] for person in task.assignees] + ([] if creator_name else
                                                                    [form[task.created_by][1]])
    return text_payload(chat_id=str(task.group_id), text=f"{head}\n{' '.join(details)}", mentioned=mentioned)


def _short(text: str) -> str:
    return text if len(text) <= SHORT_DESCRIPTION else text[: SHORT_DESCRIPTION - 1].rstrip() + "…"
