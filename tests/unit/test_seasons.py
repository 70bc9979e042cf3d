"""Seasons of a recurrence (SPEC section 41), pure: how a window and a second rule read in each language, how they
are kept (BYMONTH, one RRULE per line) and written back, the dates around a window's ends and the refusals."""

from __future__ import annotations

from datetime import date

import pytest

from taskcore.errors import InvalidRecurrence
from taskcore.i18n import speaking
from taskcore.recurrence import describe, first_occurrence, next_occurrence, parse_recurrence, pinned

SUMMER = "FREQ=WEEKLY;BYMONTH=4,5,6,7,8,9"
TWO = f"{SUMMER}\nFREQ=WEEKLY;INTERVAL=2;BYMONTH=1,2,3,10,11,12"


@pytest.mark.parametrize(("text", "rule"), [
    ("cada semana de abril a septiembre", SUMMER),
    ("toda semana de abril a setembro", SUMMER),
    ("every week from April to September", SUMMER),
    ("every 2 weeks from November to March", "FREQ=WEEKLY;INTERVAL=2;BYMONTH=1,2,3,11,12"),
    ("cada semana de abril a septiembre, cada 2 semanas el resto", TWO),
    ("toda semana de abril a setembro, a cada 2 semanas o resto", TWO),
    ("every week from April to September, every 2 weeks the rest", TWO),
    ("cada mes en agosto", "FREQ=MONTHLY;BYMONTH=8"),
    ("cada lunes de abr a sep", "FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9"),
    ("cada lunes de abril a junio, cada mes de octubre a noviembre",
     "FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6\nFREQ=MONTHLY;BYMONTH=10,11"),
    ("cada semana de enero a diciembre", "FREQ=WEEKLY"),
])
def test_a_window_reads_in_any_language_as_the_rule_s_months(text: str, rule: str) -> None:
    assert parse_recurrence(text).rule == rule


@pytest.mark.parametrize(("lang", "words"), [
    ("es", "cada lunes de abril a septiembre, cada 2 semanas el resto"),
    ("pt", "a cada segunda-feira de abril a setembro, a cada 2 semanas o resto"),
    ("en", "every Monday from April to September, every 2 weeks the rest"),
])
def test_a_season_is_written_back_in_the_reader_s_language_with_cldr_month_names(lang: str, words: str) -> None:
    rule = pinned(parse_recurrence("cada lunes de abril a septiembre, cada 2 semanas el resto"), date(2026, 4, 6))
    assert rule.rule == ("FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9\n"
                         "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYMONTH=1,2,3,10,11,12")
    with speaking(lang):
        assert describe(rule.rule) == words
        assert pinned(parse_recurrence(words), date(2026, 4, 6)).rule == rule.rule


def test_the_last_date_of_a_season_is_followed_by_the_first_of_the_next() -> None:
    rule = pinned(parse_recurrence("cada lunes de abril a septiembre"), date(2026, 4, 6)).rule
    assert next_occurrence(rule, date(2026, 9, 21), today=date(2026, 9, 21)) == date(2026, 9, 28)
    assert next_occurrence(rule, date(2026, 9, 28), today=date(2026, 9, 28)) == date(2027, 4, 5)


def test_a_window_across_the_year_end_runs_through_it_and_opens_on_the_rule_s_first_date() -> None:
    rule = pinned(parse_recurrence("every 2 weeks from November to March"), date(2026, 11, 2)).rule  # Mondays
    assert next_occurrence(rule, date(2026, 12, 28), today=date(2026, 12, 28)) == date(2027, 1, 11)
    assert next_occurrence(rule, date(2027, 3, 22), today=date(2027, 3, 22)) == date(2027, 11, 1)
    assert first_occurrence(rule, today=date(2027, 6, 15)) == date(2027, 11, 1)


def test_two_seasons_change_period_at_the_window_s_edge() -> None:
    rule = pinned(parse_recurrence("cada lunes de abril a septiembre, cada 2 semanas el resto"), date(2026, 4, 6)).rule
    series, day = [], date(2026, 9, 14)
    for _ in range(4):
        day = next_occurrence(rule, day, today=day) or day
        series.append(day)
    assert series == [date(2026, 9, 21), date(2026, 9, 28), date(2026, 10, 12), date(2026, 10, 26)]
    assert next_occurrence(rule, date(2027, 3, 22), today=date(2027, 3, 22)) == date(2027, 4, 5)


def test_a_chore_made_out_of_season_is_first_due_when_its_window_opens() -> None:
    assert first_occurrence(parse_recurrence("cada lunes de abril a septiembre"), today=date(2026, 12, 6)) == date(
        2027, 4, 5)


@pytest.mark.parametrize(("text", "reason"), [
    ("cada semana de abril a hoy", "tras «a» va un mes: «hoy»"),
    ("cada semana de abril a septiembre, cada mes", "la segunda regla necesita sus meses o «el resto»"),
    ("cada semana de abril a junio, cada mes de mayo a julio", "las dos temporadas comparten mayo"),
    ("cada semana de enero a diciembre, cada mes el resto", "la primera temporada ya es todo el año: no queda resto"),
])
def test_a_malformed_season_is_refused_saying_why(text: str, reason: str) -> None:
    with speaking("es"), pytest.raises(InvalidRecurrence) as raised:
        parse_recurrence(text)
    assert str(raised.value) == reason


def _series_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every series (an RRULE parsed into dateutil's rrule) the next occurrence builds, as it builds it."""
    from taskcore import occurrences  # noqa: PLC0415 - the module whose work is counted

    built: list[str] = []
    real = occurrences._series

    def counted(rule: str, start: date) -> object:
        built.append(rule)
        return real(rule, start)

    monkeypatch.setattr(occurrences, "_series", counted)
    return built


def test_an_occurrence_inside_its_window_costs_what_one_without_a_window_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost of a next occurrence is the series it builds (parsing an RRULE and stepping it: the rest is a few
    string operations): one inside a window, as today's rule; two only at a season's edge."""
    built = _series_built(monkeypatch)
    plain = pinned(parse_recurrence("cada lunes"), date(2026, 4, 6)).rule
    seasonal = pinned(parse_recurrence("cada lunes de abril a septiembre"), date(2026, 4, 6)).rule
    next_occurrence(plain, date(2026, 6, 1), today=date(2026, 6, 1))
    assert len(built) == 1
    built.clear()
    next_occurrence(seasonal, date(2026, 6, 1), today=date(2026, 6, 1))
    assert len(built) == 1
    built.clear()
    next_occurrence(seasonal, date(2026, 9, 28), today=date(2026, 9, 28))  # the edge: the window opens in April
    assert len(built) == 2


def test_two_seasons_cost_one_series_while_the_season_in_force_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    built = _series_built(monkeypatch)
    rule = pinned(parse_recurrence("cada lunes de abril a septiembre, cada 2 semanas el resto"), date(2026, 4, 6)).rule
    for day, following in [(date(2026, 6, 1), date(2026, 6, 8)), (date(2026, 12, 7), date(2026, 12, 21))]:
        built.clear()
        assert next_occurrence(rule, day, today=day) == following
        assert len(built) == 1, day
