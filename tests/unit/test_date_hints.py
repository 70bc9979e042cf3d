"""Dates as people write them (SPEC section 23): the date a word most likely means, and when a task is due."""

from __future__ import annotations

from datetime import date

import pytest

from taskcore.date_hints import (
    When,
    day_month_guess,
    day_month_words_guess,
    looks_wrong,
    suggestion,
    weekday_guess,
    when_mark,
)

THURSDAY = date(2026, 11, 26)


def test_31_12_on_2026_11_26_means_2026_12_31() -> None:
    assert day_month_guess("31/12", THURSDAY) == date(2026, 12, 31)


@pytest.mark.parametrize("token", ["5/3", "05/03", "5-3", "05-03", " 5/3 "])
def test_5_3_means_2027_03_05(token: str) -> None:
    assert day_month_guess(token, THURSDAY) == date(2027, 3, 5)


def test_today_s_day_and_month_means_today() -> None:
    assert day_month_guess("26/11", THURSDAY) == THURSDAY


def test_yesterday_s_day_and_month_means_next_year() -> None:
    assert day_month_guess("25-11", THURSDAY) == date(2027, 11, 25)


def test_29_02_means_the_next_leap_year_s() -> None:
    assert day_month_guess("29/02", THURSDAY) == date(2028, 2, 29)
    assert day_month_guess("29/02", date(2096, 3, 1)) == date(2104, 2, 29)


@pytest.mark.parametrize("token", ["31/04", "0/3", "3/0", "32/1", "1/13", "2026-11-26", "26/11/26", "hoy", "1/", ""])
def test_what_is_no_day_and_month_means_nothing(token: str) -> None:
    assert day_month_guess(token, THURSDAY) is None


@pytest.mark.parametrize(("words", "expected"), [
    ("el viernes", date(2026, 11, 27)),
    ("comprar pan este Viernes", date(2026, 11, 27)),
    ("próximo lunes", date(2026, 11, 30)),
    ("proximo miercoles", date(2026, 12, 2)),
    ("MIÉRCOLES", date(2026, 12, 2)),
    ("sabado", date(2026, 11, 28)),
    ("na segunda-feira", date(2026, 11, 30)),
    ("na terca", date(2026, 12, 1)),
    ("terça-feira,", date(2026, 12, 1)),
    ("próxima sexta", date(2026, 11, 27)),
    ("on Sunday.", date(2026, 11, 29)),
    ("next tuesday", date(2026, 12, 1)),
])
def test_a_weekday_word_is_the_next_such_day(words: str, expected: date) -> None:
    assert weekday_guess(words.split(), THURSDAY) == expected


def test_el_jueves_on_thursday_is_a_week_later() -> None:
    assert weekday_guess(["el", "jueves"], THURSDAY) == date(2026, 12, 3)


def test_el_viernes_on_thursday_2026_11_26_is_2026_11_27() -> None:
    assert weekday_guess(["el", "viernes"], THURSDAY) == date(2026, 11, 27)


def test_the_first_weekday_of_the_text_wins() -> None:
    assert weekday_guess(["lunes", "o", "martes"], THURSDAY) == date(2026, 11, 30)


def test_words_without_a_weekday_guess_nothing() -> None:
    assert weekday_guess(["comprar", "pan", "y", "leche"], THURSDAY) is None
    assert weekday_guess([], THURSDAY) is None


@pytest.mark.parametrize("words", [
    "1 de diciembre", "1 de Diciembre,", "1 DICIEMBRE", "1 de dezembro", "1º de dezembro", "1 December",
    "December 1", "December 1st", "1st of December", "el 01 de diciembre", "pagar el 1 de diciembre la luz",
])
def test_1_de_diciembre_is_2026_12_01(words: str) -> None:
    assert day_month_words_guess(words.split(), THURSDAY) == date(2026, 12, 1)


@pytest.mark.parametrize(("words", "expected"), [
    ("5 de marzo", date(2027, 3, 5)), ("5 de março", date(2027, 3, 5)), ("5 de marco", date(2027, 3, 5)),
    ("20 de setiembre", date(2027, 9, 20)), ("26 de noviembre", THURSDAY), ("25 de noviembre", date(2027, 11, 25)),
    ("29 de febrero", date(2028, 2, 29)), ("May 2nd", date(2027, 5, 2)),
])
def test_a_day_and_month_in_words_is_the_next_on_or_after_today(words: str, expected: date) -> None:
    assert day_month_words_guess(words.split(), THURSDAY) == expected


@pytest.mark.parametrize("words", ["31 de abril", "diciembre", "de diciembre", "muchos de diciembre", "100 de mayo",
                                   "comprar pan"])
def test_no_day_with_the_month_guesses_nothing(words: str) -> None:
    assert day_month_words_guess(words.split(), THURSDAY) is None


def test_a_day_and_month_in_words_wins_over_a_weekday() -> None:
    assert suggestion(["el", "lunes", "1", "de", "diciembre"], THURSDAY) == date(2026, 12, 1)


def test_a_weekday_alone_is_suggested() -> None:
    assert suggestion(["reunión", "el", "viernes"], THURSDAY) == date(2026, 11, 27)


def test_nothing_to_suggest_is_none() -> None:
    assert suggestion(["comprar", "pan"], THURSDAY) is None


@pytest.mark.parametrize(("due", "wrong"), [
    (date(2026, 11, 25), True), (THURSDAY, False), (date(2027, 11, 26), False), (date(2027, 11, 27), True),
    (date(2005, 3, 26), True),
])
def test_a_date_before_today_or_over_a_year_ahead_looks_wrong(due: date, wrong: bool) -> None:
    assert looks_wrong(due, THURSDAY) is wrong


@pytest.mark.parametrize(("due", "mark"), [
    (THURSDAY, When.TODAY), (date(2026, 11, 27), When.TOMORROW), (date(2026, 11, 25), When.OVERDUE),
    (date(2005, 3, 26), When.OVERDUE), (date(2026, 11, 28), None), (None, None),
])
def test_a_listing_marks_today_tomorrow_and_overdue(due: date | None, mark: When | None) -> None:
    assert when_mark(due, THURSDAY) == mark


def test_the_marks_are_plain_words_for_the_texts_to_pick() -> None:
    assert [str(when) for when in When] == ["today", "tomorrow", "overdue"]


def test_the_last_days_of_the_calendar_guess_nothing_rather_than_fail() -> None:
    assert weekday_guess(["lunes"], date.max) is None
    assert day_month_guess("1/1", date.max) is None
