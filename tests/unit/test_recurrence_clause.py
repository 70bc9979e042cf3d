"""The ``cada <regla>`` clause and ``!turnos`` in ``/t nueva``, and ``/t zona``, as the grammar reads them."""

from __future__ import annotations

import pytest

from taskcore import Recurrence
from taskcore.chat.commands import CommandSyntaxError, NewTask, SetZone, ShowZone, StopSeries
from taskcore.chat.grammar import parse_command
from taskcore.services.conversation.registry import SYNTAX
from tests.builders import TODAY
from tests.chat_support import accepted_of, said


def new(text: str, mentioned: tuple[str, ...] = ()) -> NewTask:
    parsed = parse_command(text, SYNTAX, today=TODAY, mentioned=mentioned)
    assert isinstance(parsed, NewTask)
    return parsed


def test_the_clause_is_taken_out_of_the_description_with_date_mentions_and_turns_around_it() -> None:
    parsed = new("/t nueva sacar la basura cada lunes y jueves 2026-11-26 @1 @2 !TURNOS", ("1", "2"))
    assert parsed == NewTask("sacar la basura", TODAY.replace(day=26), ("1", "2"),
                             recurrence=Recurrence("FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves"), rotation=True)


def test_english_words_work_too() -> None:
    assert new("/t new water the plants every 2 weeks").recurrence == Recurrence("FREQ=WEEKLY;INTERVAL=2",
                                                                                 "cada 2 semanas")


def test_words_after_the_rule_go_back_to_the_description() -> None:
    assert new("/t nueva regar cada lunes las plantas").description == "regar las plantas"
    assert new("/t nueva ya cada lunes,limpiar").description == "ya limpiar"
    assert new("/t nueva ya cada lunes y limpiar").description == "ya y limpiar"


def test_quoted_text_is_never_a_rule() -> None:
    parsed = new('/t nueva "cada lunes" cada día')
    assert (parsed.description, parsed.recurrence) == ("cada lunes", Recurrence("FREQ=DAILY", "cada día"))
    assert new('/t nueva cada "lunes"').recurrence is None


@pytest.mark.parametrize(("text", "reason"), [
    ("/t nueva a cada día y cada lunes", "Solo cabe una regla «cada» por tarea"),
    ("/t nueva a cada 3 veces", "Tras «cada N» van días, semanas o meses"),
    ("/t nueva a !turns", "!turnos va con una regla «cada»"),
])
def test_malformed_clauses_are_syntax_errors_with_the_rule_forms(text: str, reason: str) -> None:
    with pytest.raises(CommandSyntaxError) as caught:
        parse_command(text, SYNTAX, today=TODAY)
    assert said(caught.value).startswith(reason)
    assert "Reglas: cada día|semana|mes" in accepted_of(caught.value)


@pytest.mark.parametrize(("text", "command"), [
    ("/t zona", ShowZone()), ("/t zone", ShowZone()), ("/t tz europe/madrid", SetZone("Europe/Madrid")),
    ("/t zona SIN", SetZone(None)), ("/t zona madrid", SetZone("Europe/Madrid")),
    ("/t zona new york", SetZone("America/New_York")), ("/t zona Bogotá", SetZone("America/Bogota")),
    ("/t zona auto", SetZone(None)), ("/t parar #7", StopSeries(7)),
    ("/t stop 7", StopSeries(7)),
])
def test_zona_and_parar(text: str, command: object) -> None:
    assert parse_command(text, SYNTAX, today=TODAY) == command


@pytest.mark.parametrize(("text", "reason"), [
    ("/t zona Europe/Madrid ya", "Zona horaria desconocida: «Europe/Madrid ya»; nombres parecidos: Europe/Madrid"),
    ("/t zona Marte/Olimpo", "Zona horaria desconocida: «Marte/Olimpo»"),  # Marte alone is a town in Nigeria
    ("/t parar", "Faltan datos"), ("/t parar x", "Id de tarea no válido"),
])
def test_bad_zona_and_parar_show_their_usage(text: str, reason: str) -> None:
    with pytest.raises(CommandSyntaxError, match=reason):
        parse_command(text, SYNTAX, today=TODAY)
