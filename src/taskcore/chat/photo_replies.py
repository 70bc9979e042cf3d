"""The bot's texts of photo proof (SPEC section 34), in the language in force (``taskcore.i18n``)."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.i18n import N_, _, ngettext

__all__ = ["REFUSALS", "approved", "awaits_approval", "kept", "needs_photo", "not_approver", "refused",
           "rejected_photo", "rule_set", "rule_stopped"]


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _who(approvers: Sequence[str]) -> str:
    """The people who may approve (their mentions), or who may when none is known."""
    if not approvers:
        return _("un administrador del grupo")
    return _("{first} o {last}", first=", ".join(approvers[:-1]), last=approvers[-1]) if len(approvers) > 1 \
        else approvers[0]


def how_to_prove(task_id: int) -> str:
    """How a photo completes the task."""
    return _("Se da por hecha con una foto: respondiendo con ella al mensaje de la tarea, o con «hecho {id}» en el "
             "texto de la foto.", id=task_id)


def rule_set(task_id: int) -> str:
    """``/t foto <id>`` done (and the line ``!foto`` adds to a new task)."""
    return _("📷 #{id} necesita una foto.", id=task_id) + " " + how_to_prove(task_id)


def rule_stopped(task_id: int) -> str:
    """``/t foto <id> no`` done."""
    return _("#{id} ya no necesita foto: se completa como cualquier tarea.", id=task_id)


def needs_photo(task_id: int) -> str:
    """A done word, ``/t x`` or ✅ on a task that needs a photo, without one."""
    return _("Falta la foto de #{id}.", id=task_id) + " " + how_to_prove(task_id)


def awaits_approval(task_id: int, approvers: Sequence[str]) -> str:
    """A completion of a task whose photo waits for approval."""
    return _("La foto de #{id} espera la aprobación de {who}: ✅ en la foto o /t aprobar {id}.", id=task_id,
             who=_who(approvers))


def kept(task_id: int, description: str, approvers: Sequence[str]) -> str:
    """The photo was fetched and kept: it waits for the approval of the people named."""
    return _("📷 Foto de #{id} «{description}» recibida. {who}: ✅ en la foto o /t aprobar {id} la da por hecha; "
             "/t rechazar {id} <motivo> la devuelve.", id=task_id, description=_short(description),
             who=_who(approvers))


def approved(task_id: int, description: str, by: str) -> str:
    """The photo approved: the task is done."""
    return _("✅ Foto aprobada: #{id} «{description}» hecha por {by}.", id=task_id, description=_short(description),
             by=by)


def rejected_photo(task_id: int, reason: str, sender: str | None) -> str:
    """The photo sent back: deleted, the task open again; the sender is told why."""
    text = _("↩️ Foto de #{id} rechazada: {reason}", id=task_id, reason=reason.rstrip("."))
    if sender:
        return text + ". " + _("{who}, la tarea sigue abierta: envía otra foto cuando puedas.", who=sender)
    return text + ". " + _("La tarea sigue abierta.")


def not_approver(task_id: int) -> str:
    """Someone who may not approve, reject or change a task's photo rule."""
    return _("Solo quien creó #{id} o un administrador del grupo puede aprobar, rechazar o cambiar su foto.",
             id=task_id)


def too_big(limit_mb: int) -> str:
    """A photo over PHOTO_MAX_MB."""
    return ngettext("No guardo esta foto: pasa de {n} MB, el máximo.",
                    "No guardo esta foto: pasa de {n} MB, el máximo.", limit_mb)


REFUSALS: dict[str, str] = {
    "not_group": N_("Las fotos de prueba son solo para tareas de grupo."),
    "each": N_("!foto no se combina con !todos: la foto es una por tarea."),
    "not_required": N_("#{id} no necesita foto: complétala con /t x {id}."),
    "not_assignee": N_("Solo quien tiene asignada #{id} puede enviar su foto."),
    "waiting": N_("Ya hay una foto de #{id} esperando aprobación."),
    "completed": N_("#{id} ya está hecha."),
    "other_group": N_("#{id} no es de este grupo."),
    "not_found": N_("No encuentro la tarea #{id}."),
    "not_image": N_("No guardo esta foto: solo acepto JPEG, PNG o WebP."),
    "unreadable": N_("No pude descargar la foto de #{id}; envíala otra vez."),
    "nothing_waiting": N_("#{id} no tiene ninguna foto esperando aprobación."),
    "fetching": N_("La foto de #{id} aún se está descargando; prueba en un momento."),
    "own_photo": N_("No puedes aprobar tu propia foto de #{id}: lo hace quien creó la tarea o un administrador."),
    "own_points": N_("No puedes aprobar tus propios puntos de #{id}: lo hace otra persona del grupo."),
    "not_member": N_("Solo otra persona del grupo de #{id} puede aprobar sus puntos."),
}
"""Why a photo, an approval or a photo rule is refused, by the refusal's code (``services.proof.ProofRefused``); the
points of a self-made task are approved as a photo is (SPEC section 38, ``services.held_points``)."""


def refused(code: str, task_id: int, *, limit_mb: int = 0) -> str:
    """The reply to a refusal by its code."""
    if code == "too_big":
        return too_big(limit_mb)
    if code == "not_approver":
        return not_approver(task_id)
    return _(REFUSALS[code], id=task_id)
