"""The bot's texts of nagging and missed turns (SPEC section 25), in the language in force (``taskcore.i18n``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from taskcore.i18n import _, day_and_month


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def nag_set(task_id: int, every_hours: int) -> str:
    """``/t insistir`` done."""
    return _("🔔 Insistiré con #{id} cada {hours} h a quien tenga su parte pendiente, desde el día después de su "
             "fecha.", id=task_id, hours=every_hours)


def nag_stopped(task_id: int) -> str:
    """``/t insistir <id> no`` done."""
    return _("🔕 Ya no insisto con #{id}.", id=task_id)


def nag_refused(task_id: int, reason: str) -> str:
    """Why a task cannot nag."""
    return _("No puedo insistir con #{id}: {reason}.", id=task_id, reason=reason)


def nag_message(task_id: int, description: str, due: date) -> str:
    """The direct message of one nag."""
    return _("🔔 «{description}» (#{id}) venció el {date} y tu parte sigue pendiente. Cuando esté, responde «hecho» "
             "a este mensaje o escribe /t x {id}.", description=_short(description), id=task_id,
             date=day_and_month(due))


def nag_escalation(task_id: int, description: str, people: Sequence[str], nags: int) -> str:
    """The one notice in the group after the third unanswered nag."""
    return _("📣 «{description}» (#{id}) sigue pendiente tras {count} avisos por privado: {people}.",
             description=_short(description), id=task_id, count=nags, people=" ".join(people))


def turn_passed(task_id: int, description: str, to: str) -> str:
    """``/t pasar`` done: the reply mentions the new holder."""
    return _("↪️ «{description}» (#{id}): ahora le toca a {to}.", description=_short(description), id=task_id, to=to)


def turn_auto_passed(task_id: int, description: str, holder: str, to: str) -> str:
    """A turn still open two days after its date passed on by itself."""
    return _("↪️ «{description}» (#{id}) lleva dos días vencida: el turno pasa de {holder} a {to}.",
             description=_short(description), id=task_id, holder=holder, to=to)


def not_rotation(task_id: int) -> str:
    """``/t pasar`` on a task without turns."""
    return _("#{id} no va por turnos (!turnos): no hay turno que pasar.", id=task_id)


def not_holder(task_id: int) -> str:
    """``/t pasar`` by someone whose turn it is not."""
    return _("#{id} no es tu turno: solo quien lo tiene puede pasarlo.", id=task_id)


def nobody_next(task_id: int) -> str:
    """``/t pasar`` when everyone else in the rotation is away."""
    return _("No hay a quién pasar #{id}: el resto de los turnos está fuera.", id=task_id)
