"""Validation messages composed outside the chat (dates, descriptions, reminder schedules, completion modes, API
token names, series, the chores' settings, zones) in the language in force (SPEC section 24); Spanish stays exactly
as before."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest

from taskcore.chores.away import check_away_until
from taskcore.chores.nagging import Nag
from taskcore.chores.points import check_points, parse_points
from taskcore.chores.quiet import parse_quiet
from taskcore.chores.summary import parse_period
from taskcore.chores.weekly import parse_weekly
from taskcore.completion import parse_mode_word
from taskcore.dates import parse_due_date
from taskcore.errors import ValidationError
from taskcore.i18n import speaking
from taskcore.reminders import ReminderFreq, normalize_reminder_time, parse_freq
from taskcore.services.tokens import token_name
from taskcore.text import sanitize_description
from taskcore.zones import parse_time_zone

TODAY = date(2026, 11, 22)

CASES: list[tuple[Callable[[], object], str, str, str]] = [
    (lambda: parse_due_date("5/12", today=TODAY),
     "fecha no válida: '5/12'; usa AAAA-MM-DD, AA-MM-DD, hoy o mañana",
     "data inválida: '5/12'; use AAAA-MM-DD, AA-MM-DD, hoje ou amanhã",
     "invalid date: '5/12'; use YYYY-MM-DD, YY-MM-DD, today or tomorrow"),
    (lambda: parse_due_date("2026-02-30", today=TODAY),
     "fecha imposible: '2026-02-30'", "data impossível: '2026-02-30'", "impossible date: '2026-02-30'"),
    (lambda: sanitize_description("  <b> </b> "),
     "la descripción está vacía", "a descrição está vazia", "the description is empty"),
    (lambda: sanitize_description("x" * 1001),
     "la descripción pasa de 1000 caracteres (1001)", "a descrição passa de 1000 caracteres (1001)",
     "the description is longer than 1000 characters (1001)"),
    (lambda: normalize_reminder_time("25:00"),
     "hora no válida: '25:00'; usa HH:MM, de 00:00 a 23:59", "horário inválido: '25:00'; use HH:MM, de 00:00 a 23:59",
     "invalid time: '25:00'; use HH:MM, from 00:00 to 23:59"),
    (lambda: parse_freq("hourly"),
     "frecuencia no válida: 'hourly'; usa off, diario, laborables o semanal (también daily, weekdays, weekly)",
     "frequência inválida: 'hourly'; use off, diário, dias úteis ou semanal (também daily, weekdays, weekly)",
     "invalid frequency: 'hourly'; use off, daily, weekdays or weekly"),
    (lambda: parse_mode_word("algunos"),
     "modo no válido: 'algunos'", "modo inválido: 'algunos'", "invalid mode: 'algunos'"),
    (lambda: token_name(" "), "el nombre está vacío", "o nome está vazio", "the name is empty"),
    (lambda: parse_quiet("22:00-22:00"), "las horas de silencio no pueden empezar y acabar a la misma hora",
     "o horário de silêncio não pode começar e terminar na mesma hora",
     "quiet hours cannot start and end at the same time"),
    (lambda: parse_quiet("22h"), "las horas de silencio se escriben HH:MM-HH:MM",
     "o horário de silêncio se escreve HH:MM-HH:MM", "quiet hours are written HH:MM-HH:MM"),
    (lambda: check_away_until(date(2026, 11, 21), TODAY), "la fecha de vuelta ya ha pasado",
     "a data de volta já passou", "the date you are back has already passed"),
    (lambda: Nag(169), "el intervalo de aviso va de 1 a 168 horas", "o intervalo de insistência vai de 1 a 168 horas",
     "the nag interval goes from 1 to 168 hours"),
    (lambda: parse_points("!100"), "los puntos van de !1 a !10", "os pontos vão de !1 a !10",
     "points go from !1 to !10"),
    (lambda: check_points(0), "los puntos van de 1 a 10", "os pontos vão de 1 a 10", "points go from 1 to 10"),
    (lambda: parse_period("año"), "el resumen es de una semana o de un mes", "o resumo é de uma semana ou de um mês",
     "a summary covers a week or a month"),
    (lambda: parse_weekly(["lunes"]), "el resumen semanal lleva un día y una hora: lunes 20:00",
     "o resumo semanal leva um dia e uma hora: segunda 20:00",
     "the weekly summary takes a day and a time: monday 20:00"),
    (lambda: parse_weekly(["lunes", "25:00"]), "la hora del resumen semanal es HH:MM, de 00:00 a 23:59",
     "a hora do resumo semanal é HH:MM, de 00:00 a 23:59", "the weekly summary's time is HH:MM, from 00:00 to 23:59"),
    (lambda: parse_time_zone("Marte/Olimpo"),
     "zona horaria desconocida: «Marte/Olimpo»; escribe una zona como America/Bogota o Europe/Madrid",
     "fuso horário desconhecido: «Marte/Olimpo»; escreva um fuso como America/Sao_Paulo ou Europe/Lisbon",
     "unknown time zone: «Marte/Olimpo»; write a zone like America/New_York or Europe/London"),
]


@pytest.mark.parametrize(("fails", "spanish", "portuguese", "english"), CASES)
def test_a_validation_message_is_in_the_language_in_force(
    fails: Callable[[], object], spanish: str, portuguese: str, english: str
) -> None:
    for lang, expected in (("es", spanish), ("pt", portuguese), ("en", english)):
        with speaking(lang), pytest.raises(ValidationError) as caught:
            fails()
        assert str(caught.value) == expected
    with pytest.raises(ValidationError, match="^" + spanish.replace("(", r"\(").replace(")", r"\)")):
        fails()  # outside any block: Spanish, as before


@pytest.mark.parametrize("word", ["diário", "dias úteis", "Dias Uteis"])
def test_the_portuguese_frequency_words_the_message_offers_are_read(word: str) -> None:
    assert parse_freq(word) in {ReminderFreq.DAILY, ReminderFreq.WEEKDAYS}
