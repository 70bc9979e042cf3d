"""Every chat command in one row (SPEC section 29): the meaning its words have in the lexicons (``taskcore.words``),
its parser, the use case that carries out each command value it parses to, its usage line and example (which are
its help entry) and the flags it takes, in the order the help lists them; and acting on a command through its row.

The rows hold objects: the command classes, the parser, the use cases. Everything else is derived from them: the
grammar's ``SYNTAX`` (a command's form by its words), the dispatch (``act``: a command value's use case by its
class), the help and the usage line a malformed command's reply adds (``accepted``).

A command's use case runs inside a SAVEPOINT of the event's unit of work, so a command that fails halfway leaves
nothing behind, except the few that raise their domain errors before their first write (the rows
``checked_first``). A text too long to be a command, or a malformed one, is answered with what was wrong and the
accepted form. Adding a command is one row here, its
command value and parser (a ``chat/*_args.py`` module), its use case, its words in each lexicon and its texts in the
catalogs (docs/architecture.md, "Adding a command").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from taskcore.chat import (
    calendar_args,
    checklist_args,
    chore_args,
    chore_commands,
    commands,
    help,
    penalty_args,
    proof_args,
    quiet_args,
    replies,
    reward_args,
    starter_args,
    summary_args,
    task_args,
)
from taskcore.chat.commands import Command, CommandSyntaxError
from taskcore.chat.grammar import Form, Parser, Syntax, TooLong
from taskcore.chat.language_args import parse_language_command
from taskcore.chat.new_task_args import parse_new
from taskcore.chat.recurrence_clause import parse_zone
from taskcore.chat.result import Answer, rejected
from taskcore.chat.usage import refusal, usage_line
from taskcore.errors import TaskcoreError
from taskcore.i18n import N_, SOURCE, _, current_language
from taskcore.services.conversation import (
    admin,
    approvals,
    calendar,
    checklists,
    chores,
    language,
    listing,
    own_data,
    penalties,
    pending,
    photos,
    quiet,
    rewards,
    starters,
    summaries,
    tasks,
    zones,
)
from taskcore.services.conversation.turn import Turn
from taskcore.words import TABLES

__all__ = ["ROWS", "SYNTAX", "Handles", "Row", "accepted", "act", "admin_help_text", "help_text", "on", "row_of"]

C = TypeVar("C", bound=Command)


@dataclass(frozen=True, slots=True)
class Handles(Generic[C]):
    """A command class and the use case that carries it out."""

    command: type[C]
    run: Callable[[Turn, C], Answer]


def on(command: type[C], run: Callable[[Turn, C], Answer]) -> Handles[C]:
    """``command``'s values are carried out by ``run``."""
    return Handles(command, run)


@dataclass(frozen=True, slots=True)
class Row:
    """One command: ``word`` is the meaning of its words (``task.silencio``: ``silencio``, ``silêncio``, ``quiet``),
    ``parse`` reads its arguments into one of the command values ``handles`` carries out."""

    word: str
    parse: Parser
    handles: tuple[Handles[Any], ...]
    usage: str | None
    example: str | None = None
    checked_first: bool = False  # raises its domain errors before its first write: runs without a savepoint
    flags: frozenset[str] = frozenset()  # the flags (``!todos``...) it takes

    @property
    def family(self) -> str:
        """``task`` for a ``/t`` command, ``admin`` for an ``/admin`` one."""
        return self.word.partition(".")[0]

    @property
    def name(self) -> str:
        """What its replies and outcome call it: its Spanish word (``admin grupos``; bare ``/admin`` is ``admin``)."""
        family, _sep, word = self.word.partition(".")
        if family == "task":
            return word
        return "admin" if word == "ayuda" else f"admin {word}"


def _help(turn: Turn, cmd: commands.Help) -> Answer:
    """/t, /t ayuda."""
    return Answer(help_text())


def _admin_help(turn: Turn, cmd: commands.AdminHelp) -> Answer:
    """/admin, /admin ayuda (administrators only)."""
    return Answer(admin_help_text())


def _bare(command: Command) -> Parser:
    """The parser of a command without arguments."""
    return lambda args, ctx: command


def _one_id(make: Callable[[int], Command], name: str) -> Parser:
    """The parser of a command that names one task (or none, in a reply to the task's message)."""
    return lambda args, ctx: make(task_args.one_id(args, name, ctx))


ROWS: tuple[Row, ...] = (
    Row("task.ayuda", _bare(commands.Help()), (on(commands.Help, _help),), N_("/t ayuda"), checked_first=True),
    Row("task.nueva", parse_new, (on(commands.NewTask, tasks.new_task_nagged),),
        N_("/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos|!reparto] [!N] [!insistir] "
           "[: <elemento>, <elemento>...]"),
        N_("/t nueva comprar pan mañana @Ana"), checked_first=True,
        flags=frozenset({"each", "nag", "photo", "rotation", "balanced"})),
    Row("task.ver", _bare(commands.ListTasks()), (on(commands.ListTasks, listing.list_tasks),), N_("/t ver"),
        checked_first=True),
    Row("task.x", checklist_args.parse_complete_or_tick,
        (on(commands.Complete, tasks.complete), on(checklist_args.TickItems, checklists.tick_items)),
        N_("/t x <id> [<id>...] · /t x <id>.<n> (un elemento de su lista)"), N_("/t x 12 15")),
    Row("task.añadir", checklist_args.parse_add, (on(checklist_args.AddItems, checklists.add_items),),
        N_("/t añadir <id> <elemento>[, <elemento>...]"), N_("/t añadir 12 horno, nevera")),
    Row("task.quitar", checklist_args.parse_remove, (on(checklist_args.RemoveItem, checklists.remove_item),),
        N_("/t quitar <id> <n>"), N_("/t quitar 12 2")),
    Row("task.info", _one_id(commands.TaskInfo, "info"), (on(commands.TaskInfo, listing.show_task),),
        N_("/t info <id>"), N_("/t info 12"), checked_first=True),
    Row("task.tomar", _one_id(commands.Claim, "tomar"), (on(commands.Claim, tasks.claim),), N_("/t tomar <id>"),
        N_("/t tomar 12")),
    Row("task.soltar", _one_id(commands.Unassign, "soltar"), (on(commands.Unassign, tasks.unassign),),
        N_("/t soltar <id>"), N_("/t soltar 12")),
    Row("task.fecha", task_args.parse_set_due, (on(commands.SetDue, tasks.set_due),), N_("/t fecha <id> <fecha>|sin"),
        N_("/t fecha 12 2026-03-05")),
    Row("task.editar", task_args.parse_edit, (on(commands.Edit, tasks.edit),), N_("/t editar <id> <texto>"),
        N_("/t editar 12 comprar pan integral")),
    Row("task.modo", task_args.parse_mode, (on(commands.SetMode, tasks.set_mode),), N_("/t modo <id> todos|uno"),
        N_("/t modo 12 todos")),
    Row("task.parar", _one_id(commands.StopSeries, "parar"), (on(commands.StopSeries, tasks.stop_series),),
        N_("/t parar <id>"), N_("/t parar 12")),
    Row("task.recordatorios", task_args.parse_reminders, (on(commands.SetReminders, tasks.set_reminders),),
        N_("/t recordatorios <off|diario|laborables|semanal> [HH:MM]"), N_("/t recordatorios diario 08:30")),
    Row("task.zona", lambda args, ctx: parse_zone(args),
        (on(commands.ShowZone, zones.show_zone), on(commands.SetZone, zones.set_zone)),
        N_("/t zona [<ciudad>|sin]"), N_("/t zona Bogota")),
    Row("task.idioma", lambda args, ctx: parse_language_command(args),
        (on(commands.SetLanguage, language.set_language),),
        N_("/t idioma [grupo] [{codes}]"), N_("/t idioma pt")),
    Row("task.web", _bare(commands.WebLink()), (on(commands.WebLink, calendar.web_link),), N_("/t web")),
    Row("task.calendario", calendar_args.parse_calendar,
        (on(commands.CalendarLink, calendar.calendar_link), on(commands.CalendarRevoke, calendar.calendar_revoke)),
        N_("/t calendario [borrar]"), N_("/t calendario")),
    Row("task.insistir", chore_args.parse_nag, (on(chore_commands.SetNag, chores.set_nag),),
        N_("/t insistir <id> [cada <N> h]|no (o !insistir en /t nueva)"), N_("/t insistir 12 cada 12 h")),
    Row("task.pasar", chore_args.parse_pass, (on(chore_commands.PassTurn, chores.pass_turn),), N_("/t pasar <id>"),
        N_("/t pasar 12")),
    Row("task.puntos", reward_args.parse_points_or_balance,
        (on(chore_commands.SetPoints, summaries.set_points), on(reward_args.ShowBalance, rewards.show_balance)),
        N_("/t puntos [<id> <1-10>]"), N_("/t puntos 12 3")),
    Row("task.resumen", summary_args.parse_summary,
        (on(chore_commands.ShowSummary, summaries.show_summary),
         on(chore_commands.SetWeeklySummary, summaries.set_weekly_summary)),
        N_("/t resumen [semana|mes] · /t resumen semanal <día> HH:MM|no"), N_("/t resumen semanal domingo 20:00")),
    Row("task.silencio", quiet_args.parse_quiet_command, (on(chore_commands.SetQuiet, quiet.set_quiet),),
        N_("/t silencio HH:MM-HH:MM|no"), N_("/t silencio 22:00-07:30")),
    Row("task.ausente", quiet_args.parse_away, (on(chore_commands.SetAway, quiet.set_away),), N_("/t ausente <fecha>"),
        N_("/t ausente mañana")),
    Row("task.vuelvo", quiet_args.parse_back, (on(chore_commands.Back, quiet.back),), N_("/t vuelvo")),
    Row("task.foto", proof_args.parse_photo_rule, (on(proof_args.PhotoRule, photos.set_photo_rule),),
        N_("/t foto <id> [no] (o !foto en /t nueva)"), N_("/t foto 12")),
    Row("task.aprobar", proof_args.parse_approve, (on(proof_args.Approve, approvals.approve),),
        N_("/t aprobar <id>|canje <n>"), N_("/t aprobar 12")),
    Row("task.rechazar", proof_args.parse_reject, (on(proof_args.Reject, approvals.reject),),
        N_("/t rechazar <id> <motivo>|canje <n> [<motivo>]"), N_("/t rechazar 12 no se ve el suelo")),
    Row("task.premio", reward_args.parse_reward,
        (on(reward_args.NewReward, rewards.new_reward), on(reward_args.DeleteReward, rewards.delete_reward),
         on(reward_args.ListRewards, rewards.list_rewards)),
        N_("/t premio nuevo <nombre> <puntos> · /t premio borrar <n>"), N_("/t premio nuevo ir al cine 50")),
    Row("task.premios", _bare(reward_args.ListRewards()), (on(reward_args.ListRewards, rewards.list_rewards),),
        N_("/t premios"), checked_first=True),
    Row("task.canjear", reward_args.parse_redeem, (on(reward_args.Redeem, rewards.redeem),), N_("/t canjear <n>"),
        N_("/t canjear 3")),
    Row("task.pendientes", _bare(reward_args.ListPending()), (on(reward_args.ListPending, pending.list_pending),),
        N_("/t pendientes"), checked_first=True),
    Row("task.penalizacion", penalty_args.parse_penalty, (on(penalty_args.SetPenalty, penalties.set_penalty),),
        N_("/t penalizacion [<0-100>]"), N_("/t penalizacion 2")),
    Row("task.aplicar", penalty_args.parse_apply, (on(penalty_args.ApplyMissed, penalties.apply_missed),),
        N_("/t aplicar <n>"), N_("/t aplicar 7")),
    Row("task.excusar", penalty_args.parse_excuse, (on(penalty_args.ExcuseMissed, penalties.excuse_missed),),
        N_("/t excusar <n> [<motivo>]"), N_("/t excusar 7 estaba enfermo")),
    Row("task.pantalla", penalty_args.parse_display,
        (on(penalty_args.DisplayLink, penalties.display_link),
         on(penalty_args.DisplayRevoke, penalties.display_revoke)),
        N_("/t pantalla [borrar]"), N_("/t pantalla")),
    Row("task.plantilla", starter_args.parse_starter, (on(starter_args.Starter, starters.starter),),
        N_("/t plantilla [<nombre> [sí]]"), N_("/t plantilla piso")),
    Row("task.borrarme", task_args.parse_forget, (on(commands.ForgetMe, own_data.forget_me),), N_("/t borrarme [sí]"),
        N_("/t borrarme")),
    Row("admin.ayuda", _bare(commands.AdminHelp()), (on(commands.AdminHelp, _admin_help),), None),
    Row("admin.grupos", task_args.parse_list_groups, (on(commands.AdminListGroups, admin.list_groups),),
        N_("/admin grupos [pendientes|permitidos|bloqueados]"), N_("/admin grupos pendientes")),
    Row("admin.permitir", task_args.parse_allow, (on(commands.AdminAllow, admin.allow),),
        N_("/admin permitir <dígitos>@g.us|aquí"), N_("/admin permitir aquí")),
    Row("admin.bloquear", task_args.parse_block, (on(commands.AdminBlock, admin.block),),
        N_("/admin bloquear <dígitos>@g.us|aquí"), N_("/admin bloquear 120363000000000000@g.us")),
    Row("admin.sync", _bare(commands.AdminSync()), (on(commands.AdminSync, admin.sync),), N_("/admin sync")),
    Row("admin.inalcanzables", _bare(commands.AdminUnreachable()), (on(commands.AdminUnreachable, admin.unreachable),),
        N_("/admin inalcanzables")),
)
"""Every command, in the order of the help."""

SYNTAX = Syntax({row.word: Form(row.name, row.parse, row.flags) for row in ROWS},
                {"task": commands.Help(), "admin": commands.AdminHelp()})
"""How each command reads, for the grammar (``chat.grammar.parse_command``)."""

_BY_CLASS: dict[type[Command], tuple[Row, Handles[Any]]] = {
    handles.command: (row, handles) for row in ROWS for handles in row.handles}
_BY_NAME = {row.name: row for row in ROWS}


def row_of(command: Command) -> tuple[Row, Handles[Any]]:
    """The row of a command value and the use case that carries it out (KeyError for a class no row handles)."""
    return _BY_CLASS[type(command)]


def accepted(name: str | None) -> str:
    """What command ``name`` accepts, in the language in force: its usage line; for a word that names no command
    (``name`` None, or ``admin``), the family's commands by their words (``/t ayuda|nueva|ver...``)."""
    row = _BY_NAME.get(name or "")
    if row is not None and row.usage is not None:
        return usage_line(row.usage)
    family = "admin" if name is not None and name.startswith("admin") else "task"
    table = TABLES.get(current_language(), TABLES[SOURCE])
    words = [table.get(row.word, TABLES[SOURCE][row.word])[0] for row in ROWS
             if row.family == family and row.usage is not None]
    return f"/admin [{'|'.join(words)}]" if family == "admin" else f"/t {'|'.join(words)}"


def help_text() -> str:
    """The help of ``/t`` in the language in force."""
    return help.help_text(ROWS)


def admin_help_text() -> str:
    """The help of ``/admin`` in the language in force."""
    return help.admin_help_text(ROWS)


def command_sheet(lang: str = "es") -> str:
    """The README's command sheet in ``lang`` (``tasksvc commands-sheet``)."""
    return help.command_sheet(ROWS, lang)


def act(turn: Turn, decision: Command | CommandSyntaxError | TooLong) -> tuple[str, Answer]:
    """The command's name (for the outcome) and its answer; a malformed or too long one is refused unrun."""
    if isinstance(decision, TooLong):
        return "too long", rejected(replies.too_long())
    if isinstance(decision, CommandSyntaxError):
        return "syntax", rejected(refusal(decision, accepted(decision.command)))
    row, handles = row_of(decision)
    try:
        if row.checked_first:
            return decision.name, handles.run(turn, decision)
        with turn.uow.savepoint():
            return decision.name, handles.run(turn, decision)
    except TaskcoreError:
        return decision.name, rejected(_(replies.FAILED))
