"""Chat command grammar (SPEC section 5, seed D1-D3): message text in, one typed command out.

``parse_command`` is pure: it returns ``None`` for ordinary chat and raises only ``CommandSyntaxError``. The first
word after the leading mentions is a family's prefix (``/t``, ``/tarea``, ``/tarefa``, ``/admin``: the lexicons'
``family`` words), the next one names the command (the registry's row, ``chat.registry``), whose parser reads the
rest. Choices the SPEC leaves open:

- ``/admin ayuda`` and ``/admin help`` are aliases of bare ``/admin``.
- In ``nueva`` any of ``"``, ``“``, ``”`` opens and any of them closes a quoted chunk; a quote inside a word
  splits it there. ``@<digits>`` is a mention only as a whole token (``@346001,`` stays text).
- ``!todos`` (in English ``!all`` or ``!each``) in ``nueva`` (any case, outside quotes, anywhere) asks for each
  assignee's part; ``!TODOS`` too.
- Admin command names start with ``admin`` (``AdminAllow.name == "admin permitir"``), and so does
  ``CommandSyntaxError.command`` for admin errors: ``error.admin`` lets the bot stay silent for non-admins.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

from taskcore.chat.commands import Command
from taskcore.chat.new_task_args import Context, shown
from taskcore.chat.registry import BARE, row_of
from taskcore.chat.usage import usage_error as _error
from taskcore.i18n import _
from taskcore.words import meaning, split_first

__all__ = ["command_family", "command_start", "head", "parse_command"]


def command_start(text: str) -> int:
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


def head(text: str) -> tuple[str, str]:
    """The first word after the leading mentions, and the rest of the text."""
    return split_first(text[command_start(text):])


def command_family(text: str) -> str | None:
    """``"admin"`` for an ``/admin`` command, ``"task"`` for a ``/t`` one, None for ordinary chat: read from the
    first word only, so the sender's rate-limit token can be taken before the command is parsed (SPEC section 16)."""
    first = head(text)[0]
    return meaning("family", first) if first.startswith("/") else None


def parse_command(
    text: str, *, today: date, mentioned: Collection[str] = (), quoted_task: int | None = None,
    in_group: bool = False,
) -> Command | None:
    """The command at the start of ``text`` (after leading @mentions), or None for ordinary chat.

    ``quoted_task``: the task the message's quoted message is linked to, taken by the commands that name one task
    when their id is left out (SPEC section 18); ``in_group``: a group's command, whose typed ``@Name`` words are
    names to tell apart (SPEC section 23) rather than text."""
    first, rest = head(text)
    family = meaning("family", first) if first.startswith("/") else None
    if family is None:
        return None
    subcommand, args = split_first(rest)
    if not subcommand:
        return BARE[family]
    row = row_of(family, subcommand)
    if row is None:
        raise _error("admin" if family == "admin" else None, _("orden desconocida: {word}", word=shown(subcommand)))
    command: Command = row.parse(args, Context(today, frozenset(mentioned), quoted_task, in_group))
    return command
