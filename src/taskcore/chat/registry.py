"""Every chat command in one row (SPEC section 29): the meaning its words have in the lexicons (``taskcore.words``),
its parser, its use case, its usage line and example (which are its help entry), in the order the help lists them.

A row names its use case as ``"<module>:<function>"`` of ``taskcore.services.conversation``: the chat stays pure
(it imports no use case), and ``services.conversation.acting`` resolves every row when it is imported, so a row
whose use case is missing stops the bot's start and every test. Adding a command is one row here, its parser and
command value (in a ``chat/*_args.py`` module), its use case, its words in each lexicon and its texts in the
catalogs (docs/architecture.md, "Adding a command").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taskcore.chat import (
    calendar_args,
    chore_args,
    proof_args,
    quiet_args,
    reward_args,
    starter_args,
    summary_args,
    task_args,
)
from taskcore.chat.commands import (
    AdminHelp,
    AdminSync,
    AdminUnreachable,
    Claim,
    Command,
    Help,
    ListTasks,
    StopSeries,
    Unassign,
    WebLink,
)
from taskcore.chat.language_args import parse_language_command
from taskcore.chat.new_task_args import Context, parse_new
from taskcore.chat.recurrence_clause import parse_zone
from taskcore.chat.usage import date_forms, example_mark, rule_forms
from taskcore.i18n import N_, _
from taskcore.words import meaning

__all__ = ["ROWS", "Row", "admin_help_text", "help_text", "row_named", "row_of", "usage_of"]

Parser = Callable[[str, Context], Any]


@dataclass(frozen=True, slots=True)
class Row:
    """One command: ``word`` is the meaning of its words (``task.silencio``: ``silencio``, ``silêncio``,
    ``quiet``), ``name`` what its replies and its command value call it, ``run`` its use case."""

    word: str
    name: str
    parse: Parser
    run: str
    usage: str | None
    example: str | None = None
    checked_first: bool = False  # raises its domain errors before its first write: runs without a savepoint

    @property
    def family(self) -> str:
        """``task`` for a ``/t`` command, ``admin`` for an ``/admin`` one."""
        return self.word.partition(".")[0]


ROWS: tuple[Row, ...] = (
    Row("task.ayuda", "ayuda", lambda args, ctx: Help(), "tasks:help_text", N_("/t ayuda"), checked_first=True),
    Row("task.nueva", "nueva", parse_new, "tasks:new_task_nagged",
        N_("/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos|!reparto] [!N] [!insistir]"),
        N_("/t nueva comprar pan mañana @Ana"), checked_first=True),
    Row("task.ver", "ver", lambda args, ctx: ListTasks(), "listing:list_tasks", N_("/t ver"), checked_first=True),
    Row("task.x", "x", task_args.parse_complete, "tasks:complete", N_("/t x <id> [<id>...]"), N_("/t x 12 15")),
    Row("task.tomar", "tomar", lambda args, ctx: Claim(task_args.one_id(args, "tomar", ctx)), "tasks:claim",
        N_("/t tomar <id>"), N_("/t tomar 12")),
    Row("task.soltar", "soltar", lambda args, ctx: Unassign(task_args.one_id(args, "soltar", ctx)), "tasks:unassign",
        N_("/t soltar <id>"), N_("/t soltar 12")),
    Row("task.fecha", "fecha", task_args.parse_set_due, "tasks:set_due", N_("/t fecha <id> <fecha>|sin"),
        N_("/t fecha 12 2026-03-05")),
    Row("task.editar", "editar", task_args.parse_edit, "tasks:edit", N_("/t editar <id> <texto>"),
        N_("/t editar 12 comprar pan integral")),
    Row("task.modo", "modo", task_args.parse_mode, "tasks:set_mode", N_("/t modo <id> todos|uno"),
        N_("/t modo 12 todos")),
    Row("task.parar", "parar", lambda args, ctx: StopSeries(task_args.one_id(args, "parar", ctx)),
        "tasks:stop_series", N_("/t parar <id>"), N_("/t parar 12")),
    Row("task.recordatorios", "recordatorios", task_args.parse_reminders, "tasks:set_reminders",
        N_("/t recordatorios <off|diario|laborables|semanal> [HH:MM]"), N_("/t recordatorios diario 08:30")),
    Row("task.zona", "zona", lambda args, ctx: parse_zone(args), "zones:zone", N_("/t zona [<ciudad>|sin]"),
        N_("/t zona Bogota")),
    Row("task.idioma", "idioma", lambda args, ctx: parse_language_command(args), "language:set_language",
        N_("/t idioma [es|pt|en]"), N_("/t idioma pt")),
    Row("task.web", "web", lambda args, ctx: WebLink(), "calendar:web_link", N_("/t web")),
    Row("task.calendario", "calendario", calendar_args.parse_calendar, "calendar:calendar_command",
        N_("/t calendario [borrar]"), N_("/t calendario")),
    Row("task.insistir", "insistir", chore_args.parse_nag, "chores:set_nag",
        N_("/t insistir <id> [cada <N> h]|no (o !insistir en /t nueva)"), N_("/t insistir 12 cada 12 h")),
    Row("task.pasar", "pasar", chore_args.parse_pass, "chores:pass_turn", N_("/t pasar <id>"), N_("/t pasar 12")),
    Row("task.puntos", "puntos", reward_args.parse_points_or_balance, "summaries:points",
        N_("/t puntos [<id> <1-10>]"), N_("/t puntos 12 3")),
    Row("task.resumen", "resumen", summary_args.parse_summary, "summaries:summary",
        N_("/t resumen [semana|mes] · /t resumen semanal <día> HH:MM|no"), N_("/t resumen semanal domingo 20:00")),
    Row("task.silencio", "silencio", quiet_args.parse_quiet_command, "quiet:set_quiet",
        N_("/t silencio HH:MM-HH:MM|no"), N_("/t silencio 22:00-07:30")),
    Row("task.ausente", "ausente", quiet_args.parse_away, "quiet:set_away", N_("/t ausente <fecha>"),
        N_("/t ausente mañana")),
    Row("task.vuelvo", "vuelvo", quiet_args.parse_back, "quiet:back", N_("/t vuelvo")),
    Row("task.foto", "foto", proof_args.parse_photo_rule, "photos:set_photo_rule",
        N_("/t foto <id> [no] (o !foto en /t nueva)"), N_("/t foto 12")),
    Row("task.aprobar", "aprobar", proof_args.parse_approve, "approvals:approve", N_("/t aprobar <id>|canje <n>"),
        N_("/t aprobar 12")),
    Row("task.rechazar", "rechazar", proof_args.parse_reject, "approvals:reject",
        N_("/t rechazar <id> <motivo>|canje <n> [<motivo>]"), N_("/t rechazar 12 no se ve el suelo")),
    Row("task.premio", "premio", reward_args.parse_reward, "rewards:reward_command",
        N_("/t premio nuevo <nombre> <puntos> · /t premio borrar <n>"), N_("/t premio nuevo ir al cine 50")),
    Row("task.premios", "premios", lambda args, ctx: reward_args.ListRewards(), "rewards:list_rewards",
        N_("/t premios"), checked_first=True),
    Row("task.canjear", "canjear", reward_args.parse_redeem, "rewards:redeem", N_("/t canjear <n>"),
        N_("/t canjear 3")),
    Row("task.pendientes", "pendientes", lambda args, ctx: reward_args.ListPending(), "pending:list_pending",
        N_("/t pendientes"), checked_first=True),
    Row("task.plantilla", "plantilla", starter_args.parse_starter, "starters:starter",
        N_("/t plantilla [<nombre> [sí]]"), N_("/t plantilla piso")),
    Row("task.borrarme", "borrarme", task_args.parse_forget, "own_data:forget_me", N_("/t borrarme [sí]"),
        N_("/t borrarme")),
    Row("admin.ayuda", "admin", lambda args, ctx: AdminHelp(), "admin:admin_help", None),
    Row("admin.grupos", "admin grupos", task_args.parse_list_groups, "admin:list_groups",
        N_("/admin grupos [pendientes|permitidos|bloqueados]"), N_("/admin grupos pendientes")),
    Row("admin.permitir", "admin permitir", task_args.parse_allow, "admin:allow",
        N_("/admin permitir <dígitos>@g.us|aquí"), N_("/admin permitir aquí")),
    Row("admin.bloquear", "admin bloquear", task_args.parse_block, "admin:block",
        N_("/admin bloquear <dígitos>@g.us|aquí"), N_("/admin bloquear 120363000000000000@g.us")),
    Row("admin.sync", "admin sync", lambda args, ctx: AdminSync(), "admin:sync", N_("/admin sync")),
    Row("admin.inalcanzables", "admin inalcanzables", lambda args, ctx: AdminUnreachable(), "admin:unreachable",
        N_("/admin inalcanzables")),
)
"""Every command, in the order of the help."""

BY_WORD = {row.word: row for row in ROWS}
"""Each row by the meaning of its words (``task.silencio``)."""
_BY_NAME = {row.name: row for row in ROWS}
BARE: dict[str, Command] = {"task": Help(), "admin": AdminHelp()}
"""What a family's prefix alone (``/t``, ``/admin``) asks."""


def row_of(family: str, word: str) -> Row | None:
    """The row of the command ``word`` names in ``family`` (any language's word, any case), None if none."""
    said = meaning(family, word)
    return None if said is None else BY_WORD.get(f"{family}.{said}")


def row_named(name: str) -> Row:
    """The row of the command called ``name`` (``silencio``, ``admin grupos``); KeyError if none."""
    return _BY_NAME[name]


def usage_of(name: str | None) -> tuple[str, str] | None:
    """The usage and example (both marked, untranslated) of command ``name``, None when it has no usage line."""
    row = _BY_NAME.get(name or "")
    if row is None or row.usage is None:
        return None
    return row.usage, row.example or row.usage


def _help_lines(family: str) -> str:
    lines = []
    for row in ROWS:
        if row.family == family and row.usage is not None:
            example = row.example or row.usage
            lines.append(f"• {_(row.usage)}{example_mark()}{_(example)}" if example != row.usage
                         else f"• {_(row.usage)}")
    return "\n".join(lines)


def help_text() -> str:
    """The help of ``/t``: every command with one example, in the language in force."""
    return "\n".join([
        _("Órdenes (/t o /tarea):"),
        _help_lines("task"),
        _('{dates}. El texto entre comillas va tal cual: /t nueva "comprar 2/3 kg" mañana', dates=date_forms()),
        _("!todos: cada responsable completa su parte. Respondiendo a un mensaje de una tarea, sin id: /t x, "
          "/t tomar, /t soltar, /t fecha, /t editar; o solo «hecho» (✅) o «yo» (✋). "
          "También vale reaccionar ✅ o ✋."),
        rule_forms(),
        _("Al completar una tarea que se repite se crea la siguiente; con !turnos le toca a la siguiente persona "
          "mencionada: /t nueva sacar la basura cada lunes y jueves @Ana @Luis !turnos"),
        _("!N (1 a 10): los puntos de la tarea (1 si no). Con !reparto en vez de !turnos, le toca a quien menos "
          "puntos ha completado en el grupo en 30 días: /t nueva limpiar el baño cada sábado @Ana @Luis !3 !reparto"),
        _("Premios: los administradores del grupo los ofrecen por puntos (/t premio nuevo); los puntos de tus tareas "
          "hechas se canjean con /t canjear <n> y un administrador lo aprueba. /t puntos: cuántos tienes; "
          "/t pendientes: lo que espera tu aprobación."),
    ])


def admin_help_text() -> str:
    """The help of ``/admin``: every admin command with one example, in the language in force."""
    return _("Órdenes de administración:") + "\n" + _help_lines("admin")
