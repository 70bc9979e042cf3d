"""The arguments of the core ``/t`` and ``/admin`` commands (SPEC section 5, seed D1-D3): each parser reads what
follows the command's word and returns its command value, or raises the command's usage error. The registry
(``services.conversation.registry``) names which parser reads which command.

Choices the SPEC leaves open:

- ``ver``, ``ayuda``, ``web``, ``/admin sync`` and ``/admin ayuda`` ignore extra words; commands that take
  arguments reject extra ones (``/t tomar 3 4`` is an error, not a claim of 3).
- Task ids have at most 18 digits (they must fit a 64-bit integer).
- In a reply to a message linked to a task (``quoted_task``), ``x``, ``tomar``, ``soltar`` and ``modo`` without an
  id, and ``fecha`` with only a date, act on that task; ``editar`` there takes all its words as the new text (a
  leading id equal to the quoted task's is dropped), since ``/t editar 3 huevos`` must not edit task 3.
"""

from __future__ import annotations

import re

from taskcore.access import GroupStatus
from taskcore.chat.chore_commands import SetPoints
from taskcore.chat.commands import (
    AdminAllow,
    AdminBlock,
    AdminListGroups,
    Complete,
    Edit,
    ForgetMe,
    SetDue,
    SetMode,
    SetReminders,
)
from taskcore.chat.new_task_args import Context, date_refusal, description, due_date, meant_date, shown
from taskcore.chat.summary_args import parse_points_command
from taskcore.chat.usage import usage_error as _error
from taskcore.completion import InvalidCompletion, parse_mode_word
from taskcore.i18n import _
from taskcore.identity import normalize_group_id
from taskcore.reminders import normalize_reminder_time, parse_freq
from taskcore.words import join_phrases, meaning, split_first

TASK_ID = re.compile(r"#?([0-9]{1,18})")
"""A task's id as written: digits, ``#`` optional."""


def read_id(token: str, name: str) -> int:
    """The task id ``token`` writes, or command ``name``'s usage error."""
    match = TASK_ID.fullmatch(token)
    if match is None or int(match.group(1)) == 0:
        raise _error(name, _("id de tarea no válido: {token}", token=shown(token)), field="task_id")
    return int(match.group(1))


def task_and_rest(words: list[str], name: str, ctx: Context) -> tuple[int, list[str]]:
    """The task a command names (its first word, or the quoted task when the first word is no id) and the words
    after it; command ``name``'s usage error when there is neither."""
    if words and TASK_ID.fullmatch(words[0]):
        return read_id(words[0], name), words[1:]
    if ctx.quoted_task is not None:
        return ctx.quoted_task, words
    if not words:
        raise _error(name, _("falta el id de la tarea"), field="task_id")
    return read_id(words[0], name), words[1:]


def _exact_args(words: list[str], name: str, count: int) -> list[str]:
    if len(words) != count:
        raise _error(name, _("faltan datos") if len(words) < count else _("sobran datos"))
    return words


def one_id(args: str, name: str, ctx: Context) -> int:
    if ctx.quoted_task is not None and not args.split():
        return ctx.quoted_task
    (token,) = _exact_args(args.split(), name, 1)
    return read_id(token, name)


def parse_complete(args: str, ctx: Context) -> Complete:
    ids = [read_id(token, "x") for token in re.split(r"[\s,]+", args) if token]
    if not ids and ctx.quoted_task is not None:
        ids = [ctx.quoted_task]
    if not ids:
        raise _error("x", _("falta el id de la tarea"), field="task_id")
    return Complete(tuple(dict.fromkeys(ids)))


def parse_set_due(args: str, ctx: Context) -> SetDue:
    words = join_phrases(args.split(), "date")
    if ctx.quoted_task is not None and len(words) == 1:
        task_id, due_token = ctx.quoted_task, words[0]
    else:
        _several_words(words, ctx)
        id_token, due_token = _exact_args(words, "fecha", 2)
        task_id = read_id(id_token, "fecha")
    if meaning("due", due_token) == "none":
        return SetDue(task_id, None)
    return SetDue(task_id, due_date(due_token, "fecha", ctx.today, task_id=task_id, ctx=ctx))


def _several_words(words: list[str], ctx: Context) -> None:
    """``/t due 52 Dec 14`` (or ``/t due Dec 14`` replying to the task's message): a date of several words is refused
    with the 💡 line of the date it most likely means (SPEC section 39); other words are left to the usual refusal."""
    named = len(words) > 2 and TASK_ID.fullmatch(words[0]) is not None
    if named or (ctx.quoted_task is not None and len(words) > 1 and TASK_ID.fullmatch(words[0]) is None):
        task_id = read_id(words[0], "fecha") if named else ctx.quoted_task
        said = " ".join(words[1:] if named else words)
        if meant_date(said, ctx.today) is not None:
            raise date_refusal(said, "fecha", ctx.today, task_id=task_id, ctx=ctx)


def parse_edit(args: str, ctx: Context) -> Edit:
    id_token, text = split_first(args)
    if ctx.quoted_task is not None:
        same = TASK_ID.fullmatch(id_token)
        kept = text if same is not None and int(same.group(1)) == ctx.quoted_task else args
        return Edit(ctx.quoted_task, description(kept, "editar"))
    if not id_token:
        raise _error("editar", _("faltan datos"))
    return Edit(read_id(id_token, "editar"), description(text, "editar"))


def parse_mode(args: str, ctx: Context) -> SetMode:
    words = args.split()
    if ctx.quoted_task is not None and len(words) == 1:
        task_id, word = ctx.quoted_task, words[0]
    else:
        id_token, word = _exact_args(words, "modo", 2)
        task_id = read_id(id_token, "modo")
    try:
        return SetMode(task_id, parse_mode_word(word))
    except InvalidCompletion as exc:
        raise _error("modo", _("modo no válido: {word}", word=shown(word)), field="completion") from exc


def parse_reminders(args: str, ctx: Context) -> SetReminders:
    words = join_phrases(args.split(), "freq")
    if len(words) > 2:  # the time as people write it (SPEC section 39): ``às 18h``, ``7 pm``, ``a las 8``
        words = [words[0], " ".join(words[1:])]
    if not words:
        raise _error("recordatorios", _("faltan datos"))
    try:
        freq = parse_freq(meaning("freq", words[0]) or words[0])
    except ValueError as exc:
        raise _error("recordatorios", _("frecuencia no válida: {word}", word=shown(words[0])), field="freq") from exc
    try:
        time = normalize_reminder_time(words[1]) if len(words) == 2 else None
    except ValueError as exc:
        reason = _("hora no válida: {word}; escríbela como 8:30, 20h, 8 pm o a las 20", word=shown(words[1]))
        raise _error("recordatorios", reason, field="time") from exc
    return SetReminders(freq, time)


def parse_points(args: str, ctx: Context) -> SetPoints:
    id_token, rest = split_first(args)
    if not id_token:
        raise _error("puntos", _("faltan datos"))
    return parse_points_command(rest, read_id(id_token, "puntos"))


def parse_list_groups(args: str, ctx: Context) -> AdminListGroups:
    words = args.split()
    status = meaning("status", words[0]) if words else None
    if len(words) > 1 or (words and status is None):
        raise _error("admin grupos", _("estado no válido: {word}", word=shown(args.strip())))
    return AdminListGroups(GroupStatus(status) if status is not None else None)


def group_target(args: str, name: str) -> str | None:
    (token,) = _exact_args(args.split(), name, 1)
    if meaning("place", token) == "here":
        return None
    try:
        return normalize_group_id(token)
    except ValueError as exc:
        raise _error(name, _("grupo no válido: {word}", word=shown(token)), field="group_id") from exc


def parse_allow(args: str, ctx: Context) -> AdminAllow:
    """``/admin permitir <grupo>|aquí``."""
    return AdminAllow(group_target(args, "admin permitir"))


def parse_block(args: str, ctx: Context) -> AdminBlock:
    """``/admin bloquear <grupo>|aquí``."""
    return AdminBlock(group_target(args, "admin bloquear"))


def parse_forget(args: str, ctx: Context) -> ForgetMe:
    """``/t borrarme`` (asks for the confirmation) or ``/t borrarme sí`` (any language's yes)."""
    words = args.split()
    if len(words) > 1 or (words and meaning("confirm", words[0]) != "yes"):
        raise _error("borrarme", _("para confirmar, escribe sí: {word}", word=shown(args.strip())))
    return ForgetMe(confirmed=bool(words))
