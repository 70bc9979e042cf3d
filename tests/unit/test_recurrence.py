"""Recurrence rules (SPEC section 20): the words people type, the RRULE they become, and the dates of the series."""

from __future__ import annotations

from datetime import date

import pytest

from taskcore import Recurrence, next_occurrence, parse_recurrence
from taskcore.errors import InvalidRecurrence, ValidationError
from taskcore.recurrence import first_occurrence, pinned

MONDAY = date(2026, 11, 23)


@pytest.mark.parametrize(("text", "rule", "shown"), [
    ("cada día", "FREQ=DAILY", "cada día"),
    ("cada dia", "FREQ=DAILY", "cada día"),
    ("cada semana", "FREQ=WEEKLY", "cada semana"),
    ("cada mes", "FREQ=MONTHLY", "cada mes"),
    ("cada lunes", "FREQ=WEEKLY;BYDAY=MO", "cada lunes"),
    ("cada lunes y jueves", "FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves"),
    ("cada jueves y lunes", "FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves"),
    ("cada lunes, miércoles y viernes", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "cada lunes, miércoles y viernes"),
    ("cada lunes,miercoles,viernes", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "cada lunes, miércoles y viernes"),
    ("cada SÁBADO y domingo", "FREQ=WEEKLY;BYDAY=SA,SU", "cada sábado y domingo"),
    ("cada laborable", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "cada laborable"),
    ("cada laborables", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "cada laborable"),
    ("cada 2 días", "FREQ=DAILY;INTERVAL=2", "cada 2 días"),
    ("cada 3 semanas", "FREQ=WEEKLY;INTERVAL=3", "cada 3 semanas"),
    ("cada 99 meses", "FREQ=MONTHLY;INTERVAL=99", "cada 99 meses"),
    ("cada 1 días", "FREQ=DAILY", "cada día"),
    ("every day", "FREQ=DAILY", "cada día"),
    ("every week", "FREQ=WEEKLY", "cada semana"),
    ("every month", "FREQ=MONTHLY", "cada mes"),
    ("every monday and thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves"),
    ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "cada laborable"),
    ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2", "cada 2 semanas"),
    ("lunes", "FREQ=WEEKLY;BYDAY=MO", "cada lunes"),
])
def test_each_accepted_form_becomes_an_rrule_and_a_spanish_reading(text: str, rule: str, shown: str) -> None:
    assert parse_recurrence(text) == Recurrence(rule, shown)


@pytest.mark.parametrize(("text", "reason"), [
    ("cada 0 días", "va de 1 a 99"),
    ("cada 100 días", "va de 1 a 99"),
    ("cada 00 días", "va de 1 a 99"),
    ("cada " + "9" * 5000 + " días", "va de 1 a 99"),
    ("cada lunes martes", "une los días con «y» o con comas"),
    ("cada lunes y martes miércoles", "une los días con «y» o con comas"),
    ("cada 3", "van días, semanas o meses"),
    ("cada 3 lunes", "van días, semanas o meses"),
    ("cada día semana", "sobra «semana»"),
    ("cada pascua", "regla no válida"),
    ("cada", "falta la regla"),
    ("", "falta la regla"),
    ("cada lunes y", "sobra «y»"),
])
def test_a_malformed_rule_is_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidRecurrence, match=reason) as caught:
        parse_recurrence(text)
    assert isinstance(caught.value, ValidationError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.field == "recurrence"


def test_the_first_date_is_the_first_of_the_series_on_or_after_today() -> None:
    assert first_occurrence("FREQ=WEEKLY;BYDAY=MO,TH", today=MONDAY) == MONDAY
    assert first_occurrence("FREQ=WEEKLY;BYDAY=MO,TH", today=date(2026, 11, 24)) == date(2026, 11, 26)
    assert first_occurrence(parse_recurrence("cada laborable"), today=date(2026, 11, 28)) == date(2026, 11, 30)
    assert first_occurrence("FREQ=DAILY;INTERVAL=5", today=MONDAY) == MONDAY


def test_pinning_keeps_the_weekday_and_the_day_of_the_month_of_the_first_date() -> None:
    assert pinned(parse_recurrence("cada 2 semanas"), date(2026, 11, 25)).rule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"
    assert pinned(parse_recurrence("cada mes"), date(2026, 1, 15)).rule == "FREQ=MONTHLY;BYMONTHDAY=15"
    assert pinned(parse_recurrence("cada lunes"), date(2026, 1, 15)).rule == "FREQ=WEEKLY;BYDAY=MO"
    assert pinned(parse_recurrence("cada día"), date(2026, 1, 15)).rule == "FREQ=DAILY"


def test_a_monthly_series_on_the_31st_falls_on_the_last_day_of_shorter_months_and_comes_back() -> None:
    rule = pinned(parse_recurrence("cada mes"), date(2026, 1, 31))
    assert rule.rule == "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"
    dates, day = [], date(2026, 1, 31)
    for _ in range(4):
        day = next_occurrence(rule, day, today=date(2026, 1, 1)) or day
        dates.append(day)
    assert dates == [date(2026, 2, 28), date(2026, 3, 31), date(2026, 4, 30), date(2026, 5, 31)]


def test_the_next_occurrence_follows_the_previous_one() -> None:
    assert next_occurrence("FREQ=WEEKLY;BYDAY=MO,TH", MONDAY, today=MONDAY) == date(2026, 11, 26)
    assert next_occurrence("FREQ=DAILY;INTERVAL=3", MONDAY, today=MONDAY) == date(2026, 11, 26)


def test_missed_dates_are_skipped_never_piled_up() -> None:
    three_weeks_later = date(2026, 12, 15)  # a Tuesday
    assert next_occurrence("FREQ=WEEKLY;BYDAY=MO,TH", MONDAY, today=three_weeks_later) == date(2026, 12, 17)
    assert next_occurrence("FREQ=WEEKLY;BYDAY=TU", MONDAY, today=three_weeks_later) == three_weeks_later


def test_an_occurrence_completed_early_is_followed_by_the_one_after_its_own_date() -> None:
    assert next_occurrence("FREQ=WEEKLY;BYDAY=TH", date(2026, 11, 26), today=MONDAY) == date(2026, 12, 3)


def test_a_series_with_an_end_has_no_occurrence_after_it() -> None:
    assert next_occurrence("FREQ=DAILY;COUNT=2", MONDAY, today=MONDAY) == date(2026, 11, 24)
    assert next_occurrence("FREQ=DAILY;COUNT=2", MONDAY, today=date(2026, 11, 25)) is None
    assert first_occurrence("FREQ=DAILY;UNTIL=20261101", today=MONDAY) is None


@pytest.mark.parametrize("rule", ["FREQ=SOMETIMES", "BYDAY=MO", "nonsense", "FREQ=WEEKLY;BYDAY=XX"])
def test_an_invalid_rrule_is_an_invalid_recurrence(rule: str) -> None:
    with pytest.raises(InvalidRecurrence, match="RRULE no válida"):
        next_occurrence(rule, MONDAY, today=MONDAY)
