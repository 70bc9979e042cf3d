"""Chat command grammar (SPEC section 5, seed D1-D3): message text in, one typed command out.

``parse_command`` is pure: it returns ``None`` for ordinary chat and raises only ``CommandSyntaxError``.
Choices the SPEC leaves open:

- ``ver``, ``ayuda``, ``web``, ``/admin sync`` and ``/admin ayuda`` ignore extra words; commands that take
  arguments reject extra ones (``/t tomar 3 4`` is an error, not a claim of 3).
- ``/admin ayuda`` and ``/admin help`` are aliases of bare ``/admin``.
- In ``nueva`` any of ``"``, ``“``, ``”`` opens and any of them closes a quoted chunk; a quote inside a word
  splits it there. ``@<digits>`` is a mention only as a whole token (``@346001,`` stays text).
- Task ids have at most 18 digits (they must fit a 64-bit integer).
- Admin command names start with ``admin`` (``AdminAllow.name == "admin permitir"``), and so does
  ``CommandSyntaxError.command`` for admin errors: ``error.admin`` lets the bot stay silent for non-admins.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import date

from taskcore.access import GroupStatus
from taskcore.chat.calendar import parse_calendar
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
    NewTask,
    SetDue,
    SetReminders,
    Unassign,
    WebLink,
)
from taskcore.chat.usage import usage_error as _error
from taskcore.dates import is_date_like, parse_due_date
from taskcore.errors import ValidationError
from taskcore.identity import normalize_group_id
from taskcore.reminders import normalize_reminder_time, parse_freq
from taskcore.text import sanitize_description


@dataclass(frozen=True, slots=True)
class _Context:
    today: date
    mentioned: frozenset[str]


_Parser = Callable[[str, _Context], Command]

_MENTION = re.compile(r"@([0-9]+)")
_TASK_ID = re.compile(r"#?([0-9]{1,18})")
_CHUNK = re.compile(r'["“”]([^"“”]*)["“”]?|[^\s"“”]+')
_HERE = frozenset({"aquí", "aqui", "here"})
_STATUSES = {
    "pendientes": GroupStatus.PENDING,
    "permitidos": GroupStatus.ALLOWED,
    "bloqueados": GroupStatus.BLOCKED,
}
_STATUSES |= {status.value: status for status in GroupStatus}


def _word(token: str) -> str:
    return unicodedata.normalize("NFC", token).casefold()


def _shown(token: str) -> str:
    return f"«{token[:40]}…»" if len(token) > 40 else f"«{token}»"


def _split_first(text: str) -> tuple[str, str]:
    parts = text.split(maxsplit=1)
    return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")


def _task_id(token: str, name: str) -> int:
    match = _TASK_ID.fullmatch(token)
    if match is None or int(match.group(1)) == 0:
        raise _error(name, f"id de tarea no válido: {_shown(token)}", field="task_id")
    return int(match.group(1))


def _due(token: str, name: str, today: date) -> date:
    try:
        return parse_due_date(token, today=today)
    except ValidationError as exc:
        raise _error(name, f"fecha no válida: {_shown(token)}", field="due_date", dates=True) from exc


def _description(text: str, name: str) -> str:
    try:
        return sanitize_description(text)
    except ValidationError as exc:
        raise _error(name, str(exc), field="description") from exc


def _exact_args(args: str, name: str, count: int) -> list[str]:
    words = args.split()
    if len(words) != count:
        raise _error(name, "faltan datos" if len(words) < count else "sobran datos")
    return words


def _one_id(args: str, name: str) -> int:
    (token,) = _exact_args(args, name, 1)
    return _task_id(token, name)


def _parse_new(args: str, ctx: _Context) -> NewTask:
    parts: list[str] = []
    dates: list[str] = []
    mentions: list[str] = []
    for match in _CHUNK.finditer(args):
        chunk, quoted = match.group(0), match.group(1)
        mention = _MENTION.fullmatch(chunk)
        if quoted is not None:
            parts.append(quoted)
        elif is_date_like(chunk):
            dates.append(chunk)
        elif mention is not None and mention.group(1) in ctx.mentioned:
            mentions.append(mention.group(1))
        else:
            parts.append(chunk)
    if len(dates) > 1:
        raise _error("nueva", "solo cabe una fecha por tarea", field="due_date", dates=True)
    due = _due(dates[0], "nueva", ctx.today) if dates else None
    return NewTask(_description(" ".join(parts), "nueva"), due, tuple(dict.fromkeys(mentions)))


def _parse_complete(args: str, ctx: _Context) -> Complete:
    ids = [_task_id(token, "x") for token in re.split(r"[\s,]+", args) if token]
    if not ids:
        raise _error("x", "falta el id de la tarea", field="task_id")
    return Complete(tuple(dict.fromkeys(ids)))


def _parse_set_due(args: str, ctx: _Context) -> SetDue:
    id_token, due_token = _exact_args(args, "fecha", 2)
    task_id = _task_id(id_token, "fecha")
    if _word(due_token) in {"sin", "none"}:
        return SetDue(task_id, None)
    return SetDue(task_id, _due(due_token, "fecha", ctx.today))


def _parse_edit(args: str, ctx: _Context) -> Edit:
    id_token, text = _split_first(args)
    if not id_token:
        raise _error("editar", "faltan datos")
    return Edit(_task_id(id_token, "editar"), _description(text, "editar"))


def _parse_reminders(args: str, ctx: _Context) -> SetReminders:
    words = args.split()
    if len(words) not in (1, 2):
        raise _error("recordatorios", "faltan datos" if not words else "sobran datos")
    try:
        freq = parse_freq(words[0])
    except ValueError as exc:
        raise _error("recordatorios", f"frecuencia no válida: {_shown(words[0])}", field="freq") from exc
    try:
        time = normalize_reminder_time(words[1]) if len(words) == 2 else None
    except ValueError as exc:
        raise _error("recordatorios", f"hora no válida: {_shown(words[1])}", field="time") from exc
    return SetReminders(freq, time)


def _parse_list_groups(args: str, ctx: _Context) -> AdminListGroups:
    words = args.split()
    if len(words) > 1 or (words and _word(words[0]) not in _STATUSES):
        raise _error("admin grupos", f"estado no válido: {_shown(args.strip())}")
    return AdminListGroups(_STATUSES[_word(words[0])] if words else None)


def _group_target(args: str, name: str) -> str | None:
    (token,) = _exact_args(args, name, 1)
    if _word(token) in _HERE:
        return None
    try:
        return normalize_group_id(token)
    except ValueError as exc:
        raise _error(name, f"grupo no válido: {_shown(token)}", field="group_id") from exc


def _table(entries: dict[tuple[str, ...], _Parser]) -> dict[str, _Parser]:
    return {alias: parser for aliases, parser in entries.items() for alias in aliases}


_TASK_PARSERS = _table(
    {
        ("ayuda", "help"): lambda args, ctx: Help(),
        ("nueva", "n", "new", "+"): _parse_new,
        ("ver", "ls", "list", "mis"): lambda args, ctx: ListTasks(),
        ("x", "hecho", "done"): _parse_complete,
        ("tomar", "claim"): lambda args, ctx: Claim(_one_id(args, "tomar")),
        ("soltar", "unassign", "dejar"): lambda args, ctx: Unassign(_one_id(args, "soltar")),
        ("fecha", "due"): _parse_set_due,
        ("editar", "edit"): _parse_edit,
        ("recordatorios", "config", "reminders"): _parse_reminders,
        ("web",): lambda args, ctx: WebLink(),
        ("calendario", "calendar", "cal"): parse_calendar,
    }
)
_ADMIN_PARSERS = _table(
    {
        ("ayuda", "help"): lambda args, ctx: AdminHelp(),
        ("grupos", "groups"): _parse_list_groups,
        ("permitir", "allow"): lambda args, ctx: AdminAllow(_group_target(args, "admin permitir")),
        ("bloquear", "block"): lambda args, ctx: AdminBlock(_group_target(args, "admin bloquear")),
        ("sync",): lambda args, ctx: AdminSync(),
    }
)


_FAMILIES: dict[str, tuple[dict[str, _Parser], Command, str | None]] = {
    "/t": (_TASK_PARSERS, Help(), None),
    "/tarea": (_TASK_PARSERS, Help(), None),
    "/admin": (_ADMIN_PARSERS, AdminHelp(), "admin"),
}


def _command_start(text: str) -> int:
    """Where the first word after the leading whitespace and whole ``@<digits>`` tokens starts (``len`` if none).

    A scanner rather than repeated splitting, which copied the rest of the text once per leading mention."""
    at, end = 0, len(text)
    while True:
        while at < end and text[at].isspace():
            at += 1
        if at == end or text[at] != "@":
            return at
        digits = at + 1
        while digits < end and "0" <= text[digits] <= "9":
            digits += 1
        if digits == at + 1 or (digits < end and not text[digits].isspace()):
            return at  # "@" alone, "@12x": a word, not a mention
        at = digits


def _head(text: str) -> tuple[str, str]:
    """The first word after the leading mentions, and the rest of the text."""
    return _split_first(text[_command_start(text):])


def _family_of(head: str) -> tuple[dict[str, _Parser], Command, str | None] | None:
    return _FAMILIES.get(head.lower() if head.isascii() else "")


def command_family(text: str) -> str | None:
    """``"admin"`` for an ``/admin`` command, ``"task"`` for a ``/t`` one, None for ordinary chat: read from the
    first word only, so the sender's rate-limit token can be taken before the command is parsed (SPEC section 16)."""
    family = _family_of(_head(text)[0])
    if family is None:
        return None
    return family[2] or "task"


def parse_command(text: str, *, today: date, mentioned: Collection[str] = ()) -> Command | None:
    """The command at the start of ``text`` (after leading @mentions), or None for ordinary chat."""
    head, rest = _head(text)
    family = _family_of(head)
    if family is None:
        return None
    parsers, bare, family_name = family
    subcommand, args = _split_first(rest)
    if not subcommand:
        return bare
    parser = parsers.get(_word(subcommand))
    if parser is None:
        raise _error(family_name, f"orden desconocida: {_shown(subcommand)}")
    return parser(args, _Context(today, frozenset(mentioned)))

