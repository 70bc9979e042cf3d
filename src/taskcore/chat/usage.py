"""What each chat command accepts, in the words the replies and the help use (SPEC section 5)."""

from __future__ import annotations

from collections.abc import Collection

from taskcore.chat.commands import CommandSyntaxError
from taskcore.dates import ACCEPTED_FORMS
from taskcore.i18n import N_, _
from taskcore.recurrence import ACCEPTED_RULES

USAGE: dict[str, tuple[str, str]] = {
    "ayuda": (N_("/t ayuda"), N_("/t ayuda")),
    "nueva": (
        N_("/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos|!reparto] [!N] [!insistir]"),
        N_("/t nueva comprar pan mañana @Ana"),
    ),
    "ver": (N_("/t ver"), N_("/t ver")),
    "x": (N_("/t x <id> [<id>...]"), N_("/t x 12 15")),
    "tomar": (N_("/t tomar <id>"), N_("/t tomar 12")),
    "soltar": (N_("/t soltar <id>"), N_("/t soltar 12")),
    "fecha": (N_("/t fecha <id> <fecha>|sin"), N_("/t fecha 12 2026-03-05")),
    "editar": (N_("/t editar <id> <texto>"), N_("/t editar 12 comprar pan integral")),
    "modo": (N_("/t modo <id> todos|uno"), N_("/t modo 12 todos")),
    "parar": (N_("/t parar <id>"), N_("/t parar 12")),
    "recordatorios": (
        N_("/t recordatorios <off|diario|laborables|semanal> [HH:MM]"),
        N_("/t recordatorios diario 08:30"),
    ),
    "zona": (N_("/t zona [<ciudad>|sin]"), N_("/t zona Bogota")),
    "idioma": (N_("/t idioma [es|pt|en]"), N_("/t idioma pt")),
    "web": (N_("/t web"), N_("/t web")),
    "calendario": (N_("/t calendario [borrar]"), N_("/t calendario")),
    "insistir": (N_("/t insistir <id> [cada <N> h]|no (o !insistir en /t nueva)"), N_("/t insistir 12 cada 12 h")),
    "pasar": (N_("/t pasar <id>"), N_("/t pasar 12")),
    "puntos": (N_("/t puntos <id> <1-10>"), N_("/t puntos 12 3")),
    "resumen": (N_("/t resumen [semana|mes] · /t resumen semanal <día> HH:MM|no"),
                N_("/t resumen semanal domingo 20:00")),
    "silencio": (N_("/t silencio HH:MM-HH:MM|no"), N_("/t silencio 22:00-07:30")),
    "ausente": (N_("/t ausente <fecha>"), N_("/t ausente mañana")),
    "vuelvo": (N_("/t vuelvo"), N_("/t vuelvo")),
    "admin grupos": (N_("/admin grupos [pendientes|permitidos|bloqueados]"), N_("/admin grupos pendientes")),
    "admin permitir": (N_("/admin permitir <dígitos>@g.us|aquí"), N_("/admin permitir aquí")),
    "admin bloquear": (N_("/admin bloquear <dígitos>@g.us|aquí"), N_("/admin bloquear 120363000000000000@g.us")),
    "admin sync": (N_("/admin sync"), N_("/admin sync")),
}
"""Usage and one example of every command, keyed by its name."""

MAX_COMMAND_LENGTH = 4096
"""Longer command messages are refused before they are parsed (SPEC section 16)."""


def date_forms() -> str:
    """The accepted date forms, as the replies and the help show them."""
    return _("Fechas: {forms}", forms=_(ACCEPTED_FORMS))


def rule_forms() -> str:
    """The accepted recurrence rules, as the replies and the help show them."""
    return _("Reglas: {forms}", forms=_(ACCEPTED_RULES))


def usage_error(
    name: str | None, reason: str, *, field: str | None = None, dates: bool = False, rules: bool = False
) -> CommandSyntaxError:
    """The syntax error of command ``name``: the reason, then the accepted form (and the date or rule forms when
    asked)."""
    accepted = _(USAGE[name][0]) if name in USAGE else _subcommand_list(name)
    if dates:
        accepted = f"{accepted}\n{date_forms()}"
    if rules:
        accepted = f"{accepted}\n{rule_forms()}"
    return CommandSyntaxError(reason, command=name, accepted=accepted, field=field)


def _subcommand_list(name: str | None) -> str:
    if name is not None and name.startswith("admin"):
        return _("/admin [grupos|permitir|bloquear|sync]")
    return _("/t ayuda|nueva|ver|x|tomar|soltar|fecha|editar|modo|parar|recordatorios|zona|idioma|web|calendario"
             "|insistir|pasar|puntos|resumen|silencio|ausente|vuelvo")


def _help_lines(names: Collection[tuple[str, str]]) -> str:
    lines = (f"• {_(usage)}{example_mark()}{_(example)}" if usage != example else f"• {_(usage)}"
             for usage, example in names)
    return "\n".join(lines)


def example_mark() -> str:
    """What stands between a command's usage and its example in the help."""
    return _(" — ej.: ")


def help_text() -> str:
    """The help of ``/t``: every command with one example, in the language in force."""
    return "\n".join([
        _("Órdenes (/t o /tarea):"),
        _help_lines([usage for name, usage in USAGE.items() if not name.startswith("admin")]),
        _('{dates}. El texto entre comillas va tal cual: /t nueva "comprar 2/3 kg" mañana', dates=date_forms()),
        _("!todos: cada responsable completa su parte. Respondiendo a un mensaje de una tarea, sin id: /t x, "
          "/t tomar, /t soltar, /t fecha, /t editar; o solo «hecho» (✅) o «yo» (✋). "
          "También vale reaccionar ✅ o ✋."),
        rule_forms(),
        _("Al completar una tarea que se repite se crea la siguiente; con !turnos le toca a la siguiente persona "
          "mencionada: /t nueva sacar la basura cada lunes y jueves @Ana @Luis !turnos"),
        _("!N (1 a 10): los puntos de la tarea (1 si no). Con !reparto en vez de !turnos, le toca a quien menos "
          "puntos ha completado en el grupo en 30 días: /t nueva limpiar el baño cada sábado @Ana @Luis !3 !reparto"),
    ])


def admin_help_text() -> str:
    """The help of ``/admin``: every admin command with one example, in the language in force."""
    return _("Órdenes de administración:") + "\n" + _help_lines(
        [usage for name, usage in USAGE.items() if name.startswith("admin")])
