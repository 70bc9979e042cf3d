"""Chat command grammar (SPEC section 5, seed D1-D3): message text in, one typed command out; and what a message
asks, decided from it (``head_of``, ``decide``: the part of the road that is pure).

``parse_command`` is pure: it returns ``None`` for ordinary chat and raises only ``CommandSyntaxError``. The first
word after the leading mentions is a family's prefix (``/t``, ``/tarea``, ``/tarefa``, ``/admin``: the lexicons'
``family`` words), the next one names the command, whose parser reads the rest: ``Syntax`` holds each command's
form (its parser and the flags it takes), built from the conversation's registry, which passes it in. Choices the
SPEC leaves open:

- ``/admin ayuda`` and ``/admin help`` are aliases of bare ``/admin``.
- In ``nueva`` any of ``"``, ``“``, ``”`` opens and any of them closes a quoted chunk; a quote inside a word
  splits it there. ``@<digits>`` is a mention only as a whole token (``@346001,`` stays text).
- ``!todos`` (in English ``!all`` or ``!each``) in ``nueva`` (any case, outside quotes, anywhere) asks for each
  assignee's part; ``!TODOS`` too.
- Admin command names start with ``admin`` (``AdminAllow.name == "admin permitir"``), and so does
  ``CommandSyntaxError.command`` for admin errors: ``error.admin`` lets the bot stay silent for non-admins.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TypeAlias

from taskcore.chat.checklist_args import TickItems
from taskcore.chat.commands import Command, CommandSyntaxError, command_for
from taskcore.chat.new_task_args import Context, shown
from taskcore.chat.usage import MAX_COMMAND_LENGTH
from taskcore.chat.usage import usage_error as _error
from taskcore.conversation import ItemsDone, Reply, classify_reply
from taskcore.i18n import _
from taskcore.ratelimit import Decision as RateDecision
from taskcore.words import meaning

__all__ = ["ADMIN_FAMILY", "Chat", "Decision", "Form", "Parser", "Syntax", "Throttled", "TooLong", "command_family",
           "command_start", "decide", "head", "head_of", "parse_command"]

Parser: TypeAlias = Callable[[str, Context], Command]
"""A command's parser: its arguments (the text after its word) and the message's context in, the command out."""


@dataclass(frozen=True, slots=True)
class Form:
    """How one command reads: its name (for its errors), its parser and the flags (``!todos``...) it takes."""

    name: str
    parse: Parser
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Syntax:
    """Every command's form by the meaning of its words (``task.nueva``), and what a family's prefix alone asks
    (``/t`` is the help)."""

    forms: Mapping[str, Form]
    bare: Mapping[str, Command] = field(default_factory=dict)


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
    return _first(text[command_start(text):])


def _first(text: str) -> tuple[str, str]:
    """The first word and the rest (both "" when there is none)."""
    parts = text.split(maxsplit=1)
    return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")


def command_family(text: str) -> str | None:
    """``"admin"`` for an ``/admin`` command, ``"task"`` for a ``/t`` one, None for ordinary chat: read from the
    first word only, so the sender's rate-limit token can be taken before the command is parsed (SPEC section 16)."""
    first = head(text)[0]
    return meaning("family", first) if first.startswith("/") else None


def parse_command(
    text: str, syntax: Syntax, *, today: date, mentioned: Collection[str] = (), quoted_task: int | None = None,
    in_group: bool = False, family: str | None = None,
) -> Command | None:
    """The command at the start of ``text`` (after leading @mentions), or None for ordinary chat.

    ``quoted_task``: the task the message's quoted message is linked to, taken by the commands that name one task
    when their id is left out (SPEC section 18); ``in_group``: a group's command, whose typed ``@Name`` words are
    names to tell apart (SPEC section 23) rather than text; ``family``: its first word's family when the caller read
    it already (``command_family``)."""
    first, rest = head(text)
    if family is None:
        family = meaning("family", first) if first.startswith("/") else None
    if family is None:
        return None
    subcommand, args = _first(rest)
    if not subcommand:
        return syntax.bare[family]
    said = meaning(family, subcommand)
    form = None if said is None else syntax.forms.get(f"{family}.{said}")
    if form is None:
        raise _error("admin" if family == "admin" else None, _("orden desconocida: {word}", word=shown(subcommand)))
    return form.parse(args, Context(today, frozenset(mentioned), quoted_task, in_group, form.flags,
                                    f"{first} {subcommand}", args))


# What a message asks, decided without reading or writing anything (STYLE habit 5: match apart from act).
#
# The road asks twice. Before the sender is admitted, ``head_of`` reads only the first word (``/t``, ``/admin`` or
# chat), so that gating and the rate limit have their say before a long text is parsed (SPEC section 16), and a
# reply that is a single word (``hecho``, ``yo``...): the task linked to the quoted message is looked up only for a
# command or such a word (other chat costs no read). Once admitted (the sender known, their
# token taken), ``decide`` says what the message asks: nothing now (the sender's bucket is empty), a command (parsed,
# with the quoted task lent to the commands written without an id; a reply word or a reaction on a task's message
# stands for one), a malformed one, a text too long to be one, or nothing at all (ordinary chat).

ADMIN_FAMILY = "admin"


@dataclass(frozen=True, slots=True)
class Chat:
    """Ordinary chat: nothing to do."""


@dataclass(frozen=True, slots=True)
class TooLong:
    """A command longer than MAX_COMMAND_LENGTH: refused before it is parsed."""


@dataclass(frozen=True, slots=True)
class Throttled:
    """The sender's bucket is empty: nothing is done; ``notify`` for the one notice of an empty spell."""

    retry_after: int
    notify: bool


Decision: TypeAlias = Command | CommandSyntaxError | TooLong | Throttled | Chat
"""What a message asks: a command, a malformed one, one too long to read, nothing now (throttled) or nothing."""


def head_of(text: str, quoted_id: str | None) -> tuple[str | None, Reply | None]:
    """The command family of the first word (``"admin"``, ``"task"`` or None for chat) and, for a reply that is
    only a reply word (``hecho``, ``yo``...), what it asks (None for a command, a message quoting nothing, or any
    other chat); item numbers before such a word (``2 hecho``) tick those items (SPEC section 41)."""
    family = command_family(text)
    return family, classify_reply(text) if family is None and quoted_id else None


def _replied(reply: Reply, task_id: int) -> Command:
    """The command a reply (or a reaction) on the message of task ``task_id`` stands for."""
    return TickItems(task_id, reply.numbers) if isinstance(reply, ItemsDone) else command_for(reply, task_id)


def decide(text: str, family_of_text: str | None, syntax: Syntax, *, today: date, quoted_task: int | None,
           reply: Reply | None = None, mentioned: Sequence[str] = (),
           token: RateDecision | None = None, in_group: bool = False) -> Decision:
    """What the admitted message asks (module docstring): ``today`` is the sender's, ``reply`` what its reply word
    or reaction asks, ``mentioned`` the digits of its mentions, ``token`` what the sender's bucket answered."""
    if token is not None and not token.allowed:
        return Throttled(token.retry_after, token.notify)
    if family_of_text is None:
        return Chat() if reply is None or quoted_task is None else _replied(reply, quoted_task)
    if len(text) > MAX_COMMAND_LENGTH:
        return TooLong()
    try:
        command = parse_command(text, syntax, today=today, mentioned=mentioned, quoted_task=quoted_task,
                                in_group=in_group, family=family_of_text)
    except CommandSyntaxError as exc:
        return exc
    return Chat() if command is None else command
