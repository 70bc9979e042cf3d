"""The texts of the administrators' commands and notices (SPEC section 4), in the language in force."""

from __future__ import annotations

from taskcore.access import GroupStatus
from taskcore.i18n import N_, _

STATUS_NAMES = {GroupStatus.PENDING: N_("pendiente"), GroupStatus.ALLOWED: N_("permitido"),
                GroupStatus.BLOCKED: N_("bloqueado")}

HERE_OUTSIDE_GROUP = N_("«aquí» solo vale dentro de un grupo. Indica el grupo: /admin permitir <dígitos>@g.us")
SYNC_STARTED = N_("Sincronización de grupos y miembros en marcha.")
SENT_IN_PRIVATE = N_("Te lo he enviado por privado.")
SYNC_UNAVAILABLE = N_("Los procesos programados no están en marcha: no puedo sincronizar ahora.")


def _group_shown(group_id: str, name: str | None) -> str:
    return f"«{name}» ({group_id})" if name else group_id


def discovered(group_id: str, name: str | None) -> str:
    """Direct message to each admin when a group is discovered."""
    return _("Nuevo grupo detectado: {group}.\nPara permitirlo: /admin permitir {id}\n"
             "Para bloquearlo: /admin bloquear {id}", group=_group_shown(group_id, name), id=group_id)


def group_status_set(group_id: str, name: str | None, status: GroupStatus) -> str:
    """/admin permitir|bloquear."""
    return _("Grupo {group} {status}.", group=_group_shown(group_id, name), status=_(STATUS_NAMES[status]))


def groups_heading(total: int, status: GroupStatus | None) -> str:
    """First line of /admin grupos."""
    if status is GroupStatus.PENDING:
        return _("Grupos pendientes ({total}):", total=total)
    if status is GroupStatus.ALLOWED:
        return _("Grupos permitidos ({total}):", total=total)
    if status is GroupStatus.BLOCKED:
        return _("Grupos bloqueados ({total}):", total=total)
    return _("Grupos ({total}):", total=total)


def no_groups(status: GroupStatus | None) -> str:
    """/admin grupos with nothing to show."""
    if status is GroupStatus.PENDING:
        return _("No hay grupos pendientes.")
    if status is GroupStatus.ALLOWED:
        return _("No hay grupos permitidos.")
    if status is GroupStatus.BLOCKED:
        return _("No hay grupos bloqueados.")
    return _("No hay grupos registrados.")


def group_line(group_id: str, name: str | None, status: GroupStatus | None, active: bool) -> str:
    """One line of /admin grupos."""
    state = _(STATUS_NAMES[status]) if status else _("sin estado")
    gone = _(", inactivo") if not active else ""
    return f"• {name or _('sin nombre')} — {group_id} — {state}{gone}"
