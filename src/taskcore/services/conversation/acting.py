"""Acting on what a message asks: the one use case of its command, run and turned into an answer.

A command value's use case is the one its registry row holds for its class (``registry.row_of``); it runs inside a
SAVEPOINT of the event's unit of work, so a command that fails halfway leaves nothing behind, except the few that
raise their domain errors before their first write (the rows ``checked_first``). A text too long to be a command, or
a malformed one, is answered with what was wrong and the accepted form (the command's usage line, from its row).
"""

from __future__ import annotations

from taskcore.chat import replies
from taskcore.chat.commands import Command, CommandSyntaxError
from taskcore.chat.grammar import TooLong
from taskcore.chat.result import Answer, rejected
from taskcore.chat.usage import refusal
from taskcore.errors import TaskcoreError
from taskcore.i18n import _
from taskcore.services.conversation.registry import accepted, row_of
from taskcore.services.conversation.turn import Turn


def act(turn: Turn, decision: Command | CommandSyntaxError | TooLong) -> tuple[str, Answer]:
    """The command's name (for the outcome) and its answer; a malformed or too long one is refused unrun."""
    if isinstance(decision, TooLong):
        return "too long", rejected(replies.too_long())
    if isinstance(decision, CommandSyntaxError):
        return "syntax", rejected(refusal(decision, accepted(decision.command)))
    return decision.name, _run(turn, decision)


def _run(turn: Turn, command: Command) -> Answer:
    row, handles = row_of(command)
    try:
        if row.checked_first:
            return handles.run(turn, command)
        with turn.uow.savepoint():
            return handles.run(turn, command)
    except TaskcoreError:
        return rejected(_(replies.FAILED))
