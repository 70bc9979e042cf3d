"""The grammar's part of SPEC sections 18 and 19: commands without an id in a reply, ``!todos`` and ``/t modo``."""

from __future__ import annotations

from datetime import date

import pytest

from taskcore.chat.checklist_args import TickItems
from taskcore.chat.commands import (
    Claim,
    Command,
    CommandSyntaxError,
    Complete,
    Edit,
    NewTask,
    SetDue,
    SetMode,
    Unassign,
    command_for,
)
from taskcore.chat.grammar import decide, head_of, parse_command
from taskcore.completion import CompletionMode
from taskcore.conversation import ConversationAction, classify_reply
from taskcore.services.conversation.registry import SYNTAX
from tests.chat_support import accepted_of

TODAY = date(2026, 11, 22)
QUOTED = 7


def in_reply(text: str, quoted: int | None = QUOTED) -> Command | None:
    return parse_command(text, SYNTAX, today=TODAY, mentioned=("346001",), quoted_task=quoted)


@pytest.mark.parametrize(("text", "command"), [
    ("/t x", Complete((QUOTED,))),
    ("/t hecho", Complete((QUOTED,))),
    ("/t tomar", Claim(QUOTED)),
    ("/t soltar", Unassign(QUOTED)),
    ("/t fecha mañana", SetDue(QUOTED, date(2026, 11, 23))),
    ("/t fecha sin", SetDue(QUOTED, None)),
    ("/t editar comprar pan integral", Edit(QUOTED, "comprar pan integral")),
    ("/t editar 7 comprar pan", Edit(QUOTED, "comprar pan")),
    ("/t editar #7 comprar pan", Edit(QUOTED, "comprar pan")),
    ("/t editar 3 huevos", Edit(QUOTED, "3 huevos")),
    ("/t modo todos", SetMode(QUOTED, CompletionMode.EACH)),
])
def test_in_a_reply_to_a_tasks_message_the_id_may_be_left_out(text: str, command: Command) -> None:
    assert in_reply(text) == command


@pytest.mark.parametrize(("text", "command"), [
    ("/t x 12 13", Complete((12, 13))),
    ("/t tomar 12", Claim(12)),
    ("/t soltar 12", Unassign(12)),
    ("/t fecha 12 mañana", SetDue(12, date(2026, 11, 23))),
    ("/t modo 12 uno", SetMode(12, CompletionMode.ANY)),
])
def test_an_explicit_id_still_wins_in_a_reply(text: str, command: Command) -> None:
    assert in_reply(text) == command


@pytest.mark.parametrize(("text", "reason"), [
    ("/t x", "Falta el id de la tarea"),
    ("/t tomar", "Faltan datos"),
    ("/t fecha mañana", "Faltan datos"),
    ("/t modo todos", "Faltan datos"),
])
def test_outside_a_reply_the_id_is_still_required(text: str, reason: str) -> None:
    with pytest.raises(CommandSyntaxError, match=reason):
        in_reply(text, quoted=None)


def test_a_reply_word_or_reaction_stands_for_complete_or_claim() -> None:
    assert command_for(ConversationAction.COMPLETE, 5) == Complete((5,))
    assert command_for(ConversationAction.CLAIM, 5) == Claim(5)


@pytest.mark.parametrize("token", ["!todos", "!TODOS", "!Todos", "!all", "!ALL", "!each"])
def test_todos_outside_quotes_makes_a_task_done_by_each(token: str) -> None:
    """!todos, or in English !all or !each (SPEC section 24: a command's words from any language)."""
    assert in_reply(f"/t nueva enviar la hoja {token} @346001 mañana") == NewTask(
        "enviar la hoja", date(2026, 11, 23), ("346001",), each=True)


def test_todos_inside_quotes_is_text() -> None:
    assert in_reply('/t nueva "avisar !todos" @346001') == NewTask("avisar !todos", None, ("346001",), each=False)
    assert in_reply('/t new "tell !all" @346001') == NewTask("tell !all", None, ("346001",), each=False)


@pytest.mark.parametrize(("word", "mode"), [
    ("todos", CompletionMode.EACH), ("TODOS", CompletionMode.EACH), ("cada", CompletionMode.EACH),
    ("each", CompletionMode.EACH), ("uno", CompletionMode.ANY), ("cualquiera", CompletionMode.ANY),
    ("any", CompletionMode.ANY),
])
def test_modo_takes_todos_or_uno(word: str, mode: CompletionMode) -> None:
    assert in_reply(f"/t modo 4 {word}", quoted=None) == SetMode(4, mode)


@pytest.mark.parametrize(("text", "reason"), [
    ("/t modo 4 algunos", "Modo no válido: «algunos»"),
    ("/t modo 4", "Faltan datos"),
    ("/t modo x todos", "Id de tarea no válido"),
    ("/t modo 4 todos ya", "Sobran datos"),
])
def test_a_bad_modo_is_refused_with_its_usage(text: str, reason: str) -> None:
    with pytest.raises(CommandSyntaxError, match=reason) as caught:
        in_reply(text, quoted=None)
    assert accepted_of(caught.value) == "/t modo <id> todos|uno"


# Checklists (SPEC section 41): item numbers before a word that completes, in a reply.


@pytest.mark.parametrize(("text", "numbers"), [
    ("2 hecho", (2,)), ("2 feito", (2,)), ("2 done", (2,)), ("2, 3 ¡listo!", (2, 3)), ("12 Done.", (12,)),
])
def test_a_reply_of_item_numbers_and_a_done_word_ticks_those_items(text: str, numbers: tuple[int, ...]) -> None:
    family, reply = head_of(text, "QUOTED-MESSAGE")
    assert family is None
    assert decide(text, family, SYNTAX, today=TODAY, quoted_task=QUOTED, reply=reply) == TickItems(QUOTED, numbers)


@pytest.mark.parametrize("text", ["2 hecho ya", "0 hecho", "2 yo", "123 hecho", "hecho 2"])
def test_other_numbered_replies_are_chat(text: str) -> None:
    assert classify_reply(text) is None


def test_a_numbered_done_word_that_quotes_nothing_is_chat() -> None:
    assert head_of("2 hecho", None) == (None, None)
