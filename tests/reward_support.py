"""A stand-in, for the tests of the rewards branch, of the photo branch's ``/t aprobar canje <n>`` and ``/t rechazar
canje <n> [motivo]`` (their registry rows are wired when both branches meet): rows that call the use cases this
branch owns, ``approve_request`` and ``reject_request``, with the words of the three languages."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from taskcore.chat import registry
from taskcore.chat.result import Answer
from taskcore.services.conversation import acting
from taskcore.services.conversation.rewards import approve_request, reject_request
from taskcore.services.conversation.turn import Turn
from taskcore.words import add_language, remove_language

WORDS = {"task.aprobar": ("aprobar", "aprovar", "approve"), "task.rechazar": ("rechazar", "recusar", "reject")}


@dataclass(frozen=True)
class Decide:
    """``/t aprobar canje <n>`` or ``/t rechazar canje <n> [motivo]``."""

    name: ClassVar[str] = "decide"
    approve: bool
    request_id: int
    reason: str


def _parser(approve: bool) -> Any:
    def parse(args: str, _ctx: object) -> Decide:
        _word, number, *reason = args.split()
        return Decide(approve, int(number), " ".join(reason))

    return parse


def _run(turn: Turn, cmd: Decide) -> Answer:
    if cmd.approve:
        return approve_request(turn, cmd.request_id)
    return reject_request(turn, cmd.request_id, cmd.reason)


@contextmanager
def approval_commands(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The two commands, for the block."""
    add_language("zz-approvals", WORDS)
    for word, approve in (("task.aprobar", True), ("task.rechazar", False)):
        row = registry.Row(word, "decide", _parser(approve), "rewards:approve_request", None)
        monkeypatch.setitem(registry.BY_WORD, word, row)
    monkeypatch.setitem(acting.USE_CASES, "decide", (_run, False))
    try:
        yield
    finally:
        remove_language("zz-approvals")
