"""/t info: one task in full, in the reader's language (SPEC section 5): what it says, where and by whom it was made,
when it is due, who has it (and their parts), how it repeats and whose turn it is, its points, its nags, whether it
needs a photo, and when it was done."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from taskcore.chat.checklist_replies import items_block
from taskcore.chat.replies import nameless, short
from taskcore.date_hints import shown_due
from taskcore.i18n import _, ngettext
from taskcore.model import Task
from taskcore.recurrence import rule_text


def task_info(task: Task, *, today: date, names: Mapping[str, str | None]) -> str:
    """The lines of ``/t info <id>``; ``names`` the shown names of the people a turn order names."""
    lines = [f"#{task.id} {short(task.description, 200)}{items_block(task.items)}", _where(task, names)]
    lines.append(_("Vence: {due}", due=shown_due(task.due_date, today)) if task.due_date else _("Sin fecha"))
    tick = " ✓" if task.each else ""
    people = ", ".join(f"{nameless(p.name)}{tick if p.done else ''}" for p in task.assignees)
    lines.append(_("Para: {people}", people=people) if people else _("Nadie la tiene todavía"))
    if task.each:
        done, parts = task.progress
        lines.append(_("Cada uno hace su parte: {done} de {parts}", done=done, parts=parts))
    if task.recurrence is not None:
        lines.append(_("Se repite {rule}", rule=rule_text(task.recurrence)))
        if task.recurrence.rotation:
            order = " → ".join(nameless(names.get(user_id)) for user_id in task.recurrence.rotation)
            lines.append(_("Turnos: {order}", order=order))
    lines.append(ngettext("{n} punto", "{n} puntos", task.points))
    if task.nag_every_hours:
        lines.append(_("Insiste cada {hours} h a quien la tiene, una vez vencida", hours=task.nag_every_hours))
    if task.photo_required:
        lines.append(_("Se completa con una foto aprobada"))
    if task.completed and task.completed_at is not None:
        lines.append(_("Hecha el {day} por {name}", day=task.completed_at.date().isoformat(),
                       name=nameless(names.get(task.completed_by or ""))))
    return "\n".join(lines)


def _where(task: Task, names: Mapping[str, str | None]) -> str:
    creator = nameless(names.get(task.created_by))
    made = task.created_at.date().isoformat()
    if task.group_id is None:
        return _("Personal, creada el {day}", day=made)
    return _("En {group}, creada por {name} el {day}", group=task.group_name or task.group_id, name=creator, day=made)
