"""What a message asks, decided without reading or writing anything (STYLE habit 5: match apart from act).

The road asks twice. Before the sender is admitted, ``head_of`` reads only the first word (``/t``, ``/admin`` or
chat), so that gating and the rate limit have their say before a long text is parsed (SPEC section 16), and a
reply that is a single word (``hecho``, ``yo``...): the task linked to the quoted message is looked up only for a
command or such a word (other chat costs no read). Once admitted (the sender known, their
token taken), ``decide`` says what the message asks: nothing now (the sender's bucket is empty), a command (parsed,
with the quoted task lent to the commands written without an id; a reply word or a reaction on a task's message
stands for one), a malformed one, a text too long to be one, or nothing at all (ordinary chat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from taskcore.chat.commands import CommandSyntaxError, command_for
from taskcore.chat.grammar import command_family, parse_command
from taskcore.chat.usage import MAX_COMMAND_LENGTH
from taskcore.conversation import ConversationAction, classify_reply_word
from taskcore.ratelimit import Decision as RateDecision

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


Decision = Any
"""A command value (``chat.commands``), a ``CommandSyntaxError``, ``TooLong``, ``Throttled`` or ``Chat``."""


def head_of(text: str, quoted_id: str | None) -> tuple[str | None, ConversationAction | None]:
    """The command family of the first word (``"admin"``, ``"task"`` or None for chat) and, for a reply that is
    only a reply word (``hecho``, ``yo``...), what it asks (None for a command, a message quoting nothing, or any
    other chat)."""
    family = command_family(text)
    return family, classify_reply_word(text) if family is None and quoted_id else None


def decide(text: str, family_of_text: str | None, *, today: date, quoted_task: int | None,
           reply: ConversationAction | None = None, mentioned: Sequence[str] = (),
           token: RateDecision | None = None, in_group: bool = False) -> Decision:
    """What the admitted message asks (module docstring): ``today`` is the sender's, ``reply`` what its reply word
    or reaction asks, ``mentioned`` the digits of its mentions, ``token`` what the sender's bucket answered."""
    if token is not None and not token.allowed:
        return Throttled(token.retry_after, token.notify)
    if family_of_text is None:
        return Chat() if reply is None or quoted_task is None else command_for(reply, quoted_task)
    if len(text) > MAX_COMMAND_LENGTH:
        return TooLong()
    try:
        return parse_command(text, today=today, mentioned=mentioned, quoted_task=quoted_task, in_group=in_group)
    except CommandSyntaxError as exc:
        return exc
