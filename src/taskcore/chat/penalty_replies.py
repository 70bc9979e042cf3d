"""The chat's replies about missed chores and the kitchen display (SPEC section 41), in the language in force; what
the person is told of a decision is in ``chores.missed_texts`` (the web writes it too)."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.chores.missed import Missed, MissedState
from taskcore.chores.reward_texts import points, short
from taskcore.dates import format_due_date
from taskcore.i18n import N_, _, ngettext
from taskcore.shown import shown_name

PENALTY_IN_GROUP = N_("La penalización se pone en el grupo al que se aplica.")
ONLY_ADMINS_PENALTY = N_("Solo un administrador del grupo (de WhatsApp) puede poner la penalización.")
ONLY_ADMINS_DECIDE = N_("Solo un administrador del grupo (de WhatsApp) puede aplicar o excusar una tarea no hecha.")
DISPLAY_IN_GROUP = N_("La pantalla se pide en el grupo que va a mostrar.")
ONLY_ADMINS_DISPLAY = N_("Solo un administrador del grupo (de WhatsApp) puede crear o borrar la pantalla.")
DISPLAY_UNAVAILABLE = N_("La pantalla no está disponible: falta configurar WEB_BASE_URL.")
DISPLAY_REVOKED = N_("Pantalla desactivada: su enlace ya no funciona.")
NO_DISPLAY = N_("Este grupo no tenía ninguna pantalla activa.")


def penalty_set(n: int) -> str:
    """/t penalizacion N, done."""
    if n == 0:
        return _("Penalización desactivada: una tarea periódica que no se haga a tiempo ya no quitará puntos.")
    return ngettext(
        "Penalización: {n} punto por cada tarea periódica que no se haga a tiempo. No se descuenta sola: espera en "
        "/t pendientes a que un administrador la aplique o la excuse.",
        "Penalización: {n} puntos por cada tarea periódica que no se haga a tiempo. No se descuenta sola: espera en "
        "/t pendientes a que un administrador la aplique o la excuse.", n)


def penalty_now(n: int) -> str:
    """/t penalizacion alone."""
    if n == 0:
        return _("Este grupo no tiene penalización por tareas no hechas. Un administrador la pone con "
                 "/t penalizacion 2.")
    return ngettext("La penalización de este grupo es de {n} punto por tarea periódica no hecha (0 la quita).",
                    "La penalización de este grupo es de {n} puntos por tarea periódica no hecha (0 la quita).", n)


def missed_line(missed: Missed, *, with_group: bool) -> str:
    """One line of ``/t pendientes``: who did not do which occurrence, its points, and the two commands."""
    text = _("Falta {n}: {who} no hizo #{id} «{task}» ({date}, −{points})", n=missed.id, who=_who(missed),
             id=missed.task_id, task=short(missed.description), date=format_due_date(missed.due_date),
             points=points(missed.points))
    where = f" · {missed.group_name}" if with_group and missed.group_name else ""
    commands = _("/t aplicar {n} · /t excusar {n}", n=missed.id)
    return f"• {text}{where} → {commands}"


def missed_section(found: Sequence[Missed], *, with_group: bool) -> list[str]:
    """The lines ``/t pendientes`` adds for the missed chores (none when there are none)."""
    if not found:
        return []
    return [_("⏰ Tareas no hechas (aplicar la penalización o excusar):"),
            *(missed_line(missed, with_group=with_group) for missed in found)]


def _who(missed: Missed) -> str:
    return shown_name(missed.user_name)


def decided_elsewhere(missed: Missed) -> str:
    """The reply in a direct message: done, and the group told."""
    if missed.state is MissedState.APPLIED:
        return _("Penalización aplicada (falta {n}); se lo he dicho en el grupo.", n=missed.id)
    return _("Falta {n} excusada; se lo he dicho en el grupo.", n=missed.id)


def missed_not_found(n: int) -> str:
    """No waiting missed chore with that number in the sender's groups."""
    return _("No encuentro la falta {n} en tus grupos. /t pendientes muestra las que esperan.", n=n)


def display_link(url: str, group: str) -> str:
    """/t pantalla, by direct message to the admin who asked."""
    return _("Pantalla de «{group}» para la cocina: ábrela en una tablet o un móvil (no hace falta iniciar sesión):\n"
             "{url}\nMuestra las tareas de hoy y de la semana, los turnos y los puntos, sin números de teléfono. "
             "No la compartas en el grupo: quien tenga el enlace la ve. Si había otra, ya no funciona. Para "
             "desactivarla: /t pantalla borrar", group=group, url=url)
