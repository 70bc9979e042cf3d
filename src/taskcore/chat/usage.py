"""What each chat command accepts, in the words the replies and the help use (SPEC section 5)."""

from __future__ import annotations

from collections.abc import Collection

from taskcore.chat.commands import CommandSyntaxError
from taskcore.dates import ACCEPTED_FORMS
from taskcore.recurrence import ACCEPTED_RULES

USAGE: dict[str, tuple[str, str]] = {
    "ayuda": ("/t ayuda", "/t ayuda"),
    "nueva": (
        "/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos]",
        "/t nueva comprar pan mañana @Ana",
    ),
    "ver": ("/t ver", "/t ver"),
    "x": ("/t x <id> [<id>...]", "/t x 12 15"),
    "tomar": ("/t tomar <id>", "/t tomar 12"),
    "soltar": ("/t soltar <id>", "/t soltar 12"),
    "fecha": ("/t fecha <id> <fecha>|sin", "/t fecha 12 2026-03-05"),
    "editar": ("/t editar <id> <texto>", "/t editar 12 comprar pan integral"),
    "modo": ("/t modo <id> todos|uno", "/t modo 12 todos"),
    "parar": ("/t parar <id>", "/t parar 12"),
    "recordatorios": (
        "/t recordatorios <off|diario|laborables|semanal> [HH:MM]",
        "/t recordatorios diario 08:30",
    ),
    "zona": ("/t zona [<zona IANA>|sin]", "/t zona America/Bogota"),
    "web": ("/t web", "/t web"),
    "calendario": ("/t calendario [borrar]", "/t calendario"),
    "admin grupos": ("/admin grupos [pendientes|permitidos|bloqueados]", "/admin grupos pendientes"),
    "admin permitir": ("/admin permitir <dígitos>@g.us|aquí", "/admin permitir aquí"),
    "admin bloquear": ("/admin bloquear <dígitos>@g.us|aquí", "/admin bloquear 120363000000000000@g.us"),
    "admin sync": ("/admin sync", "/admin sync"),
}
"""Usage and one example of every command, keyed by its name."""

MAX_COMMAND_LENGTH = 4096
"""Longer command messages are refused before they are parsed (SPEC section 16)."""
DATE_FORMS = f"Fechas: {ACCEPTED_FORMS}"
RULE_FORMS = f"Reglas: {ACCEPTED_RULES}"


def usage_error(
    name: str | None, reason: str, *, field: str | None = None, dates: bool = False, rules: bool = False
) -> CommandSyntaxError:
    """The syntax error of command ``name``: the reason, then the accepted form (and the date or rule forms when
    asked)."""
    accepted = USAGE[name][0] if name in USAGE else _subcommand_list(name)
    if dates:
        accepted = f"{accepted}\n{DATE_FORMS}"
    if rules:
        accepted = f"{accepted}\n{RULE_FORMS}"
    return CommandSyntaxError(reason, command=name, accepted=accepted, field=field)


def _subcommand_list(name: str | None) -> str:
    if name is not None and name.startswith("admin"):
        return "/admin [grupos|permitir|bloquear|sync]"
    return "/t " + "|".join(key for key in USAGE if not key.startswith("admin"))


def _help_lines(names: Collection[tuple[str, str]]) -> str:
    lines = (f"• {usage} — ej.: {example}" if usage != example else f"• {usage}" for usage, example in names)
    return "\n".join(lines)


HELP_TEXT = (
    "Órdenes (/t o /tarea):\n"
    + _help_lines([usage for name, usage in USAGE.items() if not name.startswith("admin")])
    + f'\n{DATE_FORMS}. El texto entre comillas va tal cual: /t nueva "comprar 2/3 kg" mañana'
    + "\n!todos: cada responsable completa su parte. Respondiendo a un mensaje de una tarea, sin id: /t x, "
      "/t tomar, /t soltar, /t fecha, /t editar; o solo «hecho» (✅) o «yo» (✋). También vale reaccionar ✅ o ✋."
    + f"\n{RULE_FORMS}\nAl completar una tarea que se repite se crea la siguiente; con !turnos le toca a la "
    "siguiente persona mencionada: /t nueva sacar la basura cada lunes y jueves @Ana @Luis !turnos"
)
"""Spanish help for ``/t``: every command with one example."""

ADMIN_HELP_TEXT = "Órdenes de administración:\n" + _help_lines(
    [usage for name, usage in USAGE.items() if name.startswith("admin")]
)
"""Spanish help for ``/admin``: every admin command with one example."""
