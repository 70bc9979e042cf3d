"""Seed rules D1-D4: due dates in commands and the API."""

from datetime import date

import pytest

from taskcore import InvalidDate, TaskcoreError, format_due_date, parse_due_date
from taskcore.dates import is_date_like, parse_iso_date

TODAY = date(2026, 11, 22)


def test_d1_full_year_form_is_accepted() -> None:
    assert parse_due_date("2026-12-05", today=TODAY) == date(2026, 12, 5)


def test_d1_two_digit_year_expands_to_20yy() -> None:
    assert parse_due_date("27-01-31", today=TODAY) == date(2027, 1, 31)


def test_d1_surrounding_spaces_are_ignored() -> None:
    assert parse_due_date("  2026-12-05\t", today=TODAY) == date(2026, 12, 5)


def test_d2_hoy_is_the_injected_today() -> None:
    assert parse_due_date("hoy", today=TODAY) == TODAY


@pytest.mark.parametrize("word", ["mañana", "manana", "MAÑANA", "Mañana", "man\u0303ana", " mañana "])
def test_d2_manana_in_any_case_or_spelling_is_tomorrow(word: str) -> None:
    assert parse_due_date(word, today=TODAY) == date(2026, 11, 23)


def test_d2_manana_crosses_the_year_end() -> None:
    assert parse_due_date("mañana", today=date(2026, 12, 31)) == date(2027, 1, 1)


@pytest.mark.parametrize(
    "text",
    ["25-12", "12/25/2025", "2025/12/25", "2025-3-5", "2025-03-5", "202-03-05", "20255-03-05", "", "ayer",
     "2026-12-05x", "2026-12-05 hoy", "٢٠٢٦-١٢-٠٥"],
)
def test_d3_other_formats_are_rejected(text: str) -> None:
    with pytest.raises(InvalidDate):
        parse_due_date(text, today=TODAY)


@pytest.mark.parametrize("text", ["2025-02-30", "2026-13-01", "2026-00-10", "2026-04-31", "26-02-29", "0000-01-01"])
def test_d3_impossible_calendar_dates_are_rejected(text: str) -> None:
    with pytest.raises(InvalidDate):
        parse_due_date(text, today=TODAY)


def test_d3_leap_day_of_a_leap_year_is_accepted() -> None:
    assert parse_due_date("28-02-29", today=TODAY) == date(2028, 2, 29)


def test_invalid_date_is_a_value_error_and_a_taskcore_error() -> None:
    with pytest.raises(ValueError, match="fecha no válida") as info:
        parse_due_date("31/12", today=TODAY)
    assert isinstance(info.value, TaskcoreError)


def test_d4_display_form_is_day_slash_month() -> None:
    assert format_due_date(date(2026, 3, 7)) == "07/03"


def test_d4_stored_form_is_iso() -> None:
    assert parse_due_date("26-03-07", today=TODAY).isoformat() == "2026-03-07"


@pytest.mark.parametrize("token", ["25-12", "12/25/2025", "2025-3-5", "hoy", "MANANA", "1-1-1"])
def test_date_like_tokens_are_recognised_even_when_not_accepted(token: str) -> None:
    assert is_date_like(token)


@pytest.mark.parametrize("token", ["pan", "2kg", "v1.2", "12", "1-2-3-4", "12:30", "#12"])
def test_ordinary_words_are_not_date_like(token: str) -> None:
    assert not is_date_like(token)


def test_api_dates_accept_only_the_stored_form() -> None:
    assert parse_iso_date("2026-01-05") == date(2026, 1, 5)
    with pytest.raises(InvalidDate) as info:
        parse_iso_date("26-01-05", field="dueBefore")
    assert info.value.field == "dueBefore"
