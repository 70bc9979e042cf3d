"""Properties of the dates people write (SPEC section 23): a guess is never before today and is the NEXT such day;
a weekday guess falls on the word's weekday; ``looks_wrong`` and ``when_mark`` agree with their definitions.

The oracles are plain calendar walks written here, day by day, independent of the code's arithmetic."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from taskcore.date_hints import (
    When,
    day_month_guess,
    day_month_words_guess,
    looks_wrong,
    suggestion,
    weekday_guess,
    when_mark,
)

DAY = timedelta(days=1)
TODAYS = st.dates(min_value=date(2000, 1, 1), max_value=date(2200, 12, 31))
WEEKDAY_WORDS = (  # Monday first; the spellings people write, with and without accents
    ("lunes", "segunda", "segunda-feira", "monday"),
    ("martes", "terça", "terca", "terça-feira", "tuesday"),
    ("miércoles", "miercoles", "quarta", "quarta-feira", "wednesday"),
    ("jueves", "quinta", "quinta-feira", "thursday"),
    ("viernes", "sexta", "sexta-feira", "friday"),
    ("sábado", "sabado", "saturday"),
    ("domingo", "sunday"),
)
LEADS = st.sampled_from(["", "el", "este", "próximo", "proximo", "na", "no", "esta", "próxima", "on", "this", "next"])
MONTHS = (("enero", "janeiro", "January"), ("febrero", "fevereiro", "February"), ("marzo", "março", "March"),
          ("abril", "abril", "April"), ("mayo", "maio", "May"), ("junio", "junho", "June"),
          ("julio", "julho", "July"), ("agosto", "agosto", "August"), ("septiembre", "setembro", "September"),
          ("octubre", "outubro", "October"), ("noviembre", "novembro", "November"),
          ("diciembre", "dezembro", "December"))


def random_case(draw: st.DrawFn, word: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return "".join(ch.upper() if flip else ch for ch, flip in zip(word, flips, strict=True))


@st.composite
def weekday_phrases(draw: st.DrawFn) -> tuple[int, list[str]]:
    weekday = draw(st.integers(0, 6))
    word = random_case(draw, draw(st.sampled_from(WEEKDAY_WORDS[weekday])))
    lead = draw(LEADS)
    return weekday, [*draw(st.lists(st.sampled_from(["comprar", "pan", "reunión", "y"]), max_size=3)),
                     *([lead] if lead else []), word]


@st.composite
def day_month_phrases(draw: st.DrawFn) -> tuple[int, int, list[str]]:
    month = draw(st.integers(1, 12))
    day = draw(st.integers(1, 31))
    name = random_case(draw, draw(st.sampled_from(MONTHS[month - 1])))
    shape = draw(st.sampled_from(["{d} de {m}", "{d} {m}", "{m} {d}", "{d}th of {m}", "{d}º de {m}"]))
    return day, month, shape.format(d=day, m=name).split()


def first_on_or_after(today: date, day: int, month: int) -> date | None:
    """The oracle: walk the calendar from today, at most nine years."""
    for offset in range(9 * 366):
        candidate = today + offset * DAY
        if (candidate.day, candidate.month) == (day, month):
            return candidate
    return None


@given(TODAYS, weekday_phrases())
def test_a_weekday_guess_is_the_first_day_after_today_with_that_weekday(today: date,
                                                                        phrase: tuple[int, list[str]]) -> None:
    weekday, words = phrase
    guess = weekday_guess(words, today)
    assert guess is not None
    assert guess > today
    assert guess.weekday() == weekday
    assert all((today + offset * DAY).weekday() != weekday for offset in range(1, (guess - today).days))
    assert suggestion(words, today) == guess


@given(TODAYS, day_month_phrases())
def test_a_day_month_words_guess_is_the_next_such_date_on_or_after_today(today: date,
                                                                         phrase: tuple[int, int, list[str]]) -> None:
    day, month, words = phrase
    guess = day_month_words_guess(words, today)
    assert guess == first_on_or_after(today, day, month)
    if guess is not None:
        assert guess >= today
        assert (guess.day, guess.month) == (day, month)
        assert suggestion(words, today) == guess


@given(TODAYS, st.integers(0, 40), st.integers(0, 14), st.sampled_from(["/", "-"]), st.booleans())
def test_a_day_month_token_guess_is_the_next_such_date(today: date, day: int, month: int, sep: str,
                                                       padded: bool) -> None:
    token = f"{day:02d}{sep}{month:02d}" if padded else f"{day}{sep}{month}"
    guess = day_month_guess(token, today)
    valid = 1 <= month <= 12 and 1 <= day <= 31
    assert guess == (first_on_or_after(today, day, month) if valid else None)


VOCABULARY = [word for row in (*WEEKDAY_WORDS, *MONTHS) for word in row] + ["de", "of", "el", "1st", "29", "31"]
ANY_WORDS = st.lists(st.sampled_from(VOCABULARY) | st.integers(0, 99).map(str) | st.text(max_size=8), max_size=6)


@given(TODAYS, ANY_WORDS)
def test_any_suggestion_is_never_before_today(today: date, words: list[str]) -> None:
    guess = suggestion(words, today)
    assert guess is None or guess >= today
    assert weekday_guess(words, today) in (None, *(today + offset * DAY for offset in range(1, 8)))


@given(st.dates(), st.dates())
def test_looks_wrong_is_before_today_or_over_365_days_ahead(due: date, today: date) -> None:
    limit = today + 365 * DAY if today <= date.max - 365 * DAY else date.max
    assert looks_wrong(due, today) is (due < today or due > limit)


@given(st.dates(), st.dates(max_value=date.max - DAY))
def test_when_mark_names_today_tomorrow_and_overdue(due: date, today: date) -> None:
    expected = {today: When.TODAY, today + DAY: When.TOMORROW}.get(due, When.OVERDUE if due < today else None)
    assert when_mark(due, today) == expected
