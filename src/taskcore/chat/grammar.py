"""Chat command grammar (SPEC section 5, seed D1-D3): message text in, one typed command out.

``parse_command`` is pure: it returns ``None`` for ordinary chat and raises only ``CommandSyntaxError``.
Choices the SPEC leaves open:

- ``ver``, ``ayuda``, ``web``, ``/admin sync`` and ``/admin ayuda`` ignore extra words; commands that take
  arguments reject extra ones (``/t tomar 3 4`` is an error, not a claim of 3).
- ``/admin ayuda`` and ``/admin help`` are aliases of bare ``/admin``.
- In ``nueva`` any of ``"``, ``“``, ``”`` opens and any of them closes a quoted chunk; a quote inside a word
  splits it there. ``@<digits>`` is a mention only as a whole token (``@346001,`` stays text).
- Task ids have at most 18 digits (they must fit a 64-bit integer).
- In a reply to a message linked to a task (``quoted_task``), ``x``, ``tomar``, ``soltar`` and ``modo`` without an
  id, and ``fecha`` with only a date, act on that task; ``editar`` there takes all its words as the new text (a
  leading id equal to the quoted task's is dropped), since ``/t editar 3 huevos`` must not edit task 3.
- ``!todos`` (in English ``!all`` or ``!each``) in ``nueva`` (any case, outside quotes, anywhere) asks for each
  assignee's part; ``!TODOS`` too.
- Admin command names start with ``admin`` (``AdminAllow.name == "admin permitir"``), and so does
  ``CommandSyntaxError.command`` for admin errors: ``error.admin`` lets the bot stay silent for non-admins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from datetime import date

from taskcore.access import GroupStatus
from taskcore.chat.calendar_args import parse_calendar
from taskcore.chat.chore_args import parse_nag, parse_pass
from taskcore.chat.chore_commands import SetPoints
from taskcore.chat.commands import (
    AdminAllow,
    AdminBlock,
    AdminHelp,
    AdminListGroups,
    AdminSync,
    Claim,
    Command,
    Complete,
    Edit,
    Help,
    ListTasks,
    SetDue,
    SetMode,
    SetReminders,
    StopSeries,
    Unassign,
    WebLink,
)
from taskcore.chat.heads import command_family, family_key, head, split_first
from taskcore.chat.language_args import parse_language_command
from taskcore.chat.new_task_args import Context, description, due_date, parse_new, shown
from taskcore.chat.quiet_args import CHORE_PARSERS
from taskcore.chat.recurrence_clause import parse_zone
from taskcore.chat.summary_args import parse_points_command, parse_summary
from taskcore.chat.usage import usage_error as _error
from taskcore.completion import InvalidCompletion, parse_mode_word
from taskcore.i18n import _
from taskcore.identity import normalize_group_id
from taskcore.reminders import normalize_reminder_time, parse_freq
from taskcore.words import join_phrases, key, lookup, meaning, words_of

__all__ = ["command_family", "parse_command"]

_Parser = Callable[[str, Context], Command]

_TASK_ID = re.compile(r"#?([0-9]{1,18})")
_HERE = words_of("place.here")
_STATUSES = {word: GroupStatus(said) for word, said in lookup("status").items()}
_word = key


def _task_id(token: str, name: str) -> int:
    match = _TASK_ID.fullmatch(token)
    if match is None or int(match.group(1)) == 0:
        raise _error(name, _("id de tarea no válido: {token}", token=shown(token)), field="task_id")
    return int(match.group(1))


def _exact_args(words: list[str], name: str, count: int) -> list[str]:
    if len(words) != count:
        raise _error(name, _("faltan datos") if len(words) < count else _("sobran datos"))
    return words


def _one_id(args: str, name: str, ctx: Context) -> int:
    if ctx.quoted_task is not None and not args.split():
        return ctx.quoted_task
    (token,) = _exact_args(args.split(), name, 1)
    return _task_id(token, name)


def _parse_complete(args: str, ctx: Context) -> Complete:
    ids = [_task_id(token, "x") for token in re.split(r"[\s,]+", args) if token]
    if not ids and ctx.quoted_task is not None:
        ids = [ctx.quoted_task]
    if not ids:
        raise _error("x", _("falta el id de la tarea"), field="task_id")
    return Complete(tuple(dict.fromkeys(ids)))


def _parse_set_due(args: str, ctx: Context) -> SetDue:
    words = join_phrases(args.split(), "date")
    if ctx.quoted_task is not None and len(words) == 1:
        task_id, due_token = ctx.quoted_task, words[0]
    else:
        id_token, due_token = _exact_args(words, "fecha", 2)
        task_id = _task_id(id_token, "fecha")
    if meaning("due", due_token) == "none":
        return SetDue(task_id, None)
    return SetDue(task_id, due_date(due_token, "fecha", ctx.today, task_id=task_id))


def _parse_edit(args: str, ctx: Context) -> Edit:
    id_token, text = split_first(args)
    if ctx.quoted_task is not None:
        same = _TASK_ID.fullmatch(id_token)
        kept = text if same is not None and int(same.group(1)) == ctx.quoted_task else args
        return Edit(ctx.quoted_task, description(kept, "editar"))
    if not id_token:
        raise _error("editar", _("faltan datos"))
    return Edit(_task_id(id_token, "editar"), description(text, "editar"))


def _parse_mode(args: str, ctx: Context) -> SetMode:
    words = args.split()
    if ctx.quoted_task is not None and len(words) == 1:
        task_id, word = ctx.quoted_task, words[0]
    else:
        id_token, word = _exact_args(words, "modo", 2)
        task_id = _task_id(id_token, "modo")
    try:
        return SetMode(task_id, parse_mode_word(word))
    except InvalidCompletion as exc:
        raise _error("modo", _("modo no válido: {word}", word=shown(word)), field="completion") from exc


def _parse_reminders(args: str, ctx: Context) -> SetReminders:
    words = join_phrases(args.split(), "freq")
    if len(words) not in (1, 2):
        raise _error("recordatorios", _("faltan datos") if not words else _("sobran datos"))
    try:
        freq = parse_freq(meaning("freq", words[0]) or words[0])
    except ValueError as exc:
        raise _error("recordatorios", _("frecuencia no válida: {word}", word=shown(words[0])), field="freq") from exc
    try:
        time = normalize_reminder_time(words[1]) if len(words) == 2 else None
    except ValueError as exc:
        raise _error("recordatorios", _("hora no válida: {word}", word=shown(words[1])), field="time") from exc
    return SetReminders(freq, time)


def _parse_points(args: str, ctx: Context) -> SetPoints:
    id_token, rest = split_first(args)
    if not id_token:
        raise _error("puntos", _("faltan datos"))
    return parse_points_command(rest, _task_id(id_token, "puntos"))


def _parse_list_groups(args: str, ctx: Context) -> AdminListGroups:
    words = args.split()
    if len(words) > 1 or (words and _word(words[0]) not in _STATUSES):
        raise _error("admin grupos", _("estado no válido: {word}", word=shown(args.strip())))
    return AdminListGroups(_STATUSES[_word(words[0])] if words else None)


def _group_target(args: str, name: str) -> str | None:
    (token,) = _exact_args(args.split(), name, 1)
    if _word(token) in _HERE:
        return None
    try:
        return normalize_group_id(token)
    except ValueError as exc:
        raise _error(name, _("grupo no válido: {word}", word=shown(token)), field="group_id") from exc


def _table(kind: str, parsers: dict[str, _Parser]) -> dict[str, _Parser]:
    """Every language's words of ``kind`` (``taskcore.words``) -> the parser of the command each names."""
    return {word: parsers[name] for word, name in lookup(kind).items()}


_TASK_PARSERS = _table(
    "task",
    {
        "ayuda": lambda args, ctx: Help(),
        "nueva": parse_new,
        "ver": lambda args, ctx: ListTasks(),
        "x": _parse_complete,
        "tomar": lambda args, ctx: Claim(_one_id(args, "tomar", ctx)),
        "soltar": lambda args, ctx: Unassign(_one_id(args, "soltar", ctx)),
        "modo": _parse_mode,
        "fecha": _parse_set_due,
        "editar": _parse_edit,
        "recordatorios": _parse_reminders,
        "parar": lambda args, ctx: StopSeries(_one_id(args, "parar", ctx)),
        "zona": lambda args, ctx: parse_zone(args),
        "web": lambda args, ctx: WebLink(),
        "calendario": parse_calendar,
        "idioma": lambda args, ctx: parse_language_command(args),
        "insistir": parse_nag,
        "pasar": parse_pass,
        "puntos": _parse_points,
        "resumen": parse_summary,
        **CHORE_PARSERS,
    },
)
_ADMIN_PARSERS = _table(
    "admin",
    {
        "ayuda": lambda args, ctx: AdminHelp(),
        "grupos": _parse_list_groups,
        "permitir": lambda args, ctx: AdminAllow(_group_target(args, "admin permitir")),
        "bloquear": lambda args, ctx: AdminBlock(_group_target(args, "admin bloquear")),
        "sync": lambda args, ctx: AdminSync(),
    },
)


_FAMILIES: dict[str, tuple[dict[str, _Parser], Command, str | None]] = {
    "/t": (_TASK_PARSERS, Help(), None),
    "/tarea": (_TASK_PARSERS, Help(), None),
    "/admin": (_ADMIN_PARSERS, AdminHelp(), "admin"),
}


def _family_of(word: str) -> tuple[dict[str, _Parser], Command, str | None] | None:
    return _FAMILIES.get(family_key(word))


def parse_command(
    text: str, *, today: date, mentioned: Collection[str] = (), quoted_task: int | None = None,
    in_group: bool = False,
) -> Command | None:
    """The command at the start of ``text`` (after leading @mentions), or None for ordinary chat.

    ``quoted_task``: the task the message's quoted message is linked to, taken by the commands that name one task
    when their id is left out (SPEC section 18); ``in_group``: a group's command, whose typed ``@Name`` words are
    names to tell apart (SPEC section 23) rather than text."""
    first, rest = head(text)
    family = _family_of(first)
    if family is None:
        return None
    parsers, bare, family_name = family
    subcommand, args = split_first(rest)
    if not subcommand:
        return bare
    parser = parsers.get(_word(subcommand))
    if parser is None:
        raise _error(family_name, _("orden desconocida: {word}", word=shown(subcommand)))
    return parser(args, Context(today, frozenset(mentioned), quoted_task, in_group))

