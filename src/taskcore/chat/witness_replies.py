"""The chat's texts of SPEC section 38's held points: a self-made task's points wait for someone else's approval."""

from __future__ import annotations

from taskcore.chat.replies import short
from taskcore.chores.witness import HeldPoints
from taskcore.i18n import _, ngettext
from taskcore.shown import shown_name

__all__ = ["held_line", "points_approved", "points_wait"]


def points_wait(task_id: int, points: int) -> str:
    """The line a completion adds when its points wait: who may approve them, and how."""
    return ngettext("⭐ Su {n} punto cuenta cuando otra persona del grupo lo apruebe: /t aprobar {id}",
                    "⭐ Sus {n} puntos cuentan cuando otra persona del grupo los apruebe: /t aprobar {id}",
                    points, id=task_id)


def points_approved(task_id: int, description: str, points: int, by: str) -> str:
    """The held points approved: they count now."""
    return ngettext("⭐ Puntos de #{id} «{task}» aprobados: {n} punto para {by}.",
                    "⭐ Puntos de #{id} «{task}» aprobados: {n} puntos para {by}.", points, id=task_id,
                    task=short(description), by=by)


def held_line(held: HeldPoints, *, with_group: bool) -> str:
    """One line of ``/t pendientes``: the task, who did it and its points, with the command that approves them."""
    text = ngettext("#{id} «{task}», de {who} ({n} punto)", "#{id} «{task}», de {who} ({n} puntos)", held.points,
                    id=held.task_id, task=short(held.description), who=shown_name(held.completer_name))
    where = f" · {held.group_name}" if with_group else ""
    command = _("/t aprobar {id}", id=held.task_id)
    return f"• {text}{where} → {command}"
