"""Acting on what a message asks: the one use case of its command, run and turned into an answer.

Each command's use case is the one its registry row names (``chat.registry``), resolved here once; it runs inside
a SAVEPOINT of the event's unit of work, so a command that fails halfway leaves nothing behind, except the few that
raise their domain errors before their first write (the rows ``checked_first``). A text too long to be a command, or
a malformed one, is answered with what was wrong and the accepted form.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from taskcore.chat import replies
from taskcore.chat.commands import CommandSyntaxError
from taskcore.chat.decide import Decision, TooLong
from taskcore.chat.registry import ROWS
from taskcore.chat.result import Answer, rejected
from taskcore.errors import TaskcoreError
from taskcore.i18n import _
from taskcore.services.conversation.turn import Turn
from taskcore.storage.unit import savepoint


def _use_case(ref: str) -> Callable[[Turn, Any], Answer]:
    """The function a row names (``"tasks:claim"``) in ``taskcore.services.conversation``."""
    module, _sep, name = ref.partition(":")
    found: Callable[[Turn, Any], Answer] = getattr(import_module(f"{__package__}.{module}"), name)
    return found


USE_CASES: dict[str, tuple[Callable[[Turn, Any], Answer], bool]] = {
    row.name: (_use_case(row.run), row.checked_first) for row in ROWS}
"""Every command's name -> its use case, and whether it runs without a savepoint."""


def act(turn: Turn, decision: Decision) -> tuple[str, Answer]:
    """The command's name (for the outcome) and its answer; a malformed or too long one is refused unrun."""
    if isinstance(decision, TooLong):
        return "too long", rejected(replies.too_long())
    if isinstance(decision, CommandSyntaxError):
        return "syntax", rejected(str(decision))
    return decision.name, _run(turn, decision)


def _run(turn: Turn, command: Any) -> Answer:
    run, checked_first = USE_CASES[command.name]
    try:
        if checked_first:
            return run(turn, command)
        with savepoint(turn.db):
            return run(turn, command)
    except TaskcoreError:
        return rejected(_(replies.FAILED))
