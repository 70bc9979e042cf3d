"""SPEC section 30: the README's examples work as written. Every chat command the README shows in code with its
arguments (forms with ``<placeholders>``, ``[options]`` or ``|`` choices, and a bare command named in a sentence,
aside) is read by the grammar as a command, in a group and in a reply to a task's message (as the README says some
are written), never refused."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from taskcore.chat.commands import CommandSyntaxError
from taskcore.chat.grammar import parse_command
from taskcore.services.conversation.registry import SYNTAX

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
EXAMPLES = sorted({found.replace("\\|", "|") for found in re.findall(r"`(/(?:t|tarea|tarefa|admin)\b[^`]*)`", README)
                   if not set(found) & set("<[|") and len(found.split()) > 2})


def test_the_readme_has_examples_in_the_three_languages() -> None:
    assert len(EXAMPLES) > 50
    assert {"/t nueva comprar pan mañana @Ana", "/t nova comprar pão amanhã @Ana",
            "/t new buy bread tomorrow @Ana"} <= set(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_readme_example_is_a_command_the_bot_takes(example: str) -> None:
    command = parse_command(example, SYNTAX, today=date(2026, 11, 28), quoted_task=7, in_group=True)
    assert command is not None
    assert not isinstance(command, CommandSyntaxError)
