"""Acting on what a message asks: the one use case of its command, run and turned into an answer.

Each command type has its function (``tasks.TASK_COMMANDS``, ``admin.ADMIN_COMMANDS``); it runs inside a SAVEPOINT
of the event's unit of work, so a command that fails halfway leaves nothing behind, except the few that raise their
domain errors before their first write (``tasks.CHECKED_FIRST``). A text too long to be a command, or a malformed
one, is answered with what was wrong and the accepted form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taskcore.chat import replies
from taskcore.chat.commands import CommandSyntaxError
from taskcore.chat.decide import Decision, TooLong
from taskcore.chat.result import Answer, rejected
from taskcore.errors import TaskcoreError
from taskcore.i18n import _
from taskcore.services.conversation.admin import ADMIN_COMMANDS
from taskcore.services.conversation.summaries import SUMMARY_COMMANDS
from taskcore.services.conversation.tasks import CHECKED_FIRST, TASK_COMMANDS
from taskcore.services.conversation.turn import Turn
from taskcore.storage.unit import savepoint

COMMANDS: dict[type[Any], Callable[[Turn, Any], Answer]] = {**TASK_COMMANDS, **SUMMARY_COMMANDS, **ADMIN_COMMANDS}
"""Every command type and the function that carries it out."""


def act(turn: Turn, decision: Decision) -> tuple[str, Answer]:
    """The command's name (for the outcome) and its answer; a malformed or too long one is refused unrun."""
    if isinstance(decision, TooLong):
        return "too long", rejected(replies.too_long())
    if isinstance(decision, CommandSyntaxError):
        return "syntax", rejected(str(decision))
    return decision.name, _run(turn, decision)


def _run(turn: Turn, command: Any) -> Answer:
    run = COMMANDS[type(command)]
    try:
        if type(command) in CHECKED_FIRST:
            return run(turn, command)
        with savepoint(turn.db):
            return run(turn, command)
    except TaskcoreError:
        return rejected(_(replies.FAILED))
