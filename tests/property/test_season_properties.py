"""Properties of seasons (SPEC section 41): a rule with an active window, or two windows of different periods, never
has an occurrence outside its months, over decades and across every zone's daylight saving changes; inside a window
it is the rule without the window; when a window opens again its first date is the rule's first date in it; and
reading a season back from its words, in each language, gives the same rule.

The oracles are plain calendar arithmetic written here (months, weekdays, steps of days), independent of the RRULE
library the code uses."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from taskcore.i18n import speaking
from taskcore.recurrence import describe, first_occurrence, next_occurrence, parse_recurrence, pinned
from taskcore.seasons import months_of, span, split
from tests.property.test_recurrence_properties import CHANGES, DAY

MONTHS_ES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
             "noviembre", "diciembre")
DAYS_ES = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")
dates = st.dates(date(2000, 1, 1), date(2090, 12, 31))
months = st.integers(1, 12)


@st.composite
def base_rules(draw: st.DrawFn) -> str:
    """A rule as typed, without its window: daily, weekly on some days, every N days, weeks or months."""
    kind = draw(st.sampled_from(["día", "weekday", "días", "semanas", "meses"]))
    if kind == "día":
        return "cada día"
    if kind == "weekday":
        return f"cada {DAYS_ES[draw(st.integers(0, 6))]}"
    return f"cada {draw(st.integers(2, 9))} {kind}"


@st.composite
def seasons(draw: st.DrawFn) -> tuple[str, frozenset[int]]:
    """``<rule> de <mes> a <mes>`` (wrapping the year end or not) and its months."""
    first, last = draw(months), draw(months)
    return f"{draw(base_rules())} de {MONTHS_ES[first - 1]} a {MONTHS_ES[last - 1]}", span(first, last)


@st.composite
def two_seasons(draw: st.DrawFn) -> str:
    """A season of 1 to 11 months and another rule for the rest of the year."""
    first, length = draw(months), draw(st.integers(1, 11))
    last = (first + length - 2) % 12 + 1
    return f"{draw(base_rules())} de {MONTHS_ES[first - 1]} a {MONTHS_ES[last - 1]}, {draw(base_rules())} el resto"


def _active(rule: str, day: date) -> bool:
    """Whether ``day`` falls in one of the rule's windows (a part without one is active all year)."""
    return any((found := months_of(part)) is None or day.month in found for part in split(rule))


@settings(deadline=None, max_examples=300)  # dateutil under a loaded CI machine: correctness, not speed
@given(seasons(), dates, st.integers(-40, 800))
def test_no_occurrence_falls_outside_the_window_and_none_is_early(
    season: tuple[str, frozenset[int]], after: date, shift: int
) -> None:
    text, window = season
    today = after + timedelta(days=shift)
    rule = pinned(parse_recurrence(text), after)
    found = next_occurrence(rule, after, today=today)
    assert found is not None
    assert found.month in window
    assert found > after
    assert found >= today
    assert (found - max(after, today - DAY)).days <= 9 * 31 + 366  # one step of the rule, then a year at most


@settings(deadline=None, max_examples=300)
@given(seasons(), dates, st.integers(-40, 800))
def test_inside_its_window_a_season_is_the_rule_without_it(
    season: tuple[str, frozenset[int]], after: date, shift: int
) -> None:
    text, window = season
    today = after + timedelta(days=shift)
    plain = pinned(parse_recurrence(text.rsplit(" de ", 1)[0]), after)
    seasonal = pinned(parse_recurrence(text), after)
    expected = next_occurrence(plain, after, today=today)
    assert expected is not None
    if expected.month in window:
        assert next_occurrence(seasonal, after, today=today) == expected


@settings(deadline=None, max_examples=300)
@given(seasons(), dates, st.integers(-40, 400))
def test_a_date_that_falls_outside_moves_to_the_rule_s_first_date_when_the_window_opens(
    season: tuple[str, frozenset[int]], after: date, shift: int
) -> None:
    """When the rule without its window would fall outside it, the season's next date is in the first month of the
    window that opens after that date: a weekday rule's first such weekday, a daily one's first day, an every-N
    rule's first date of its kind (its weekday, its day of the month) in that month."""
    text, window = season
    today = after + timedelta(days=shift)
    plain = next_occurrence(pinned(parse_recurrence(text.rsplit(" de ", 1)[0]), after), after, today=today)
    found = next_occurrence(pinned(parse_recurrence(text), after), after, today=today)
    assert plain is not None
    assert found is not None
    if plain.month in window:
        return
    opening = plain.replace(day=1)
    while opening.month not in window:
        opening = (opening + 32 * DAY).replace(day=1)
    assert (found.year, found.month) == (opening.year, opening.month)
    if text.split()[1] in DAYS_ES or "semanas" in text:
        assert found.day <= 7
        assert found.weekday() == after.weekday() or text.split()[1] in DAYS_ES
    elif "días" in text or "día" in text.split():
        assert found.day == 1


@settings(deadline=None, max_examples=300)
@given(two_seasons(), dates, st.integers(-40, 400))
def test_two_windows_cover_the_year_and_each_date_keeps_its_own_window(text: str, after: date, shift: int) -> None:
    today = after + timedelta(days=shift)
    rule = pinned(parse_recurrence(text), after).rule
    first, second = split(rule)
    assert (months_of(first) or frozenset()) | (months_of(second) or frozenset()) == frozenset(range(1, 13))
    assert not (months_of(first) or frozenset()) & (months_of(second) or frozenset())
    found = next_occurrence(rule, after, today=today)
    assert found is not None
    assert found > after
    assert found >= today
    assert (found - max(after, today - DAY)).days <= 9 * 31 + 31  # one step of a rule and a month at most


@settings(deadline=None, max_examples=200)
@given(st.one_of(seasons().map(lambda season: season[0]), two_seasons()), dates, st.sampled_from(["es", "pt", "en"]))
def test_a_season_read_back_from_its_words_in_any_language_is_the_same_rule(text: str, first: date, lang: str) -> None:
    rule = pinned(parse_recurrence(text), first)
    with speaking(lang):
        words = describe(rule.rule)
    if "semanas:" in words or "weeks:" in words:  # every N weeks on named days: SPEC section 20's words have no form
        return
    assert pinned(parse_recurrence(words), first).rule == rule.rule


@settings(deadline=None)
@given(st.sampled_from(CHANGES), st.integers(-72, 72), seasons())
def test_dst_never_moves_a_season_s_date(change: tuple[ZoneInfo, datetime], hours: int,
                                         season: tuple[str, frozenset[int]]) -> None:
    """Around each 2026 DST change of nine zones: a season a person starts on their today (in their zone) has its
    first date in its window, on or after that today, and the series from there stays in it; the date is a calendar
    date, whatever the clock did that night."""
    zone, instant = change
    today = (instant + timedelta(hours=hours)).astimezone(zone).date()
    text, window = season
    rule = parse_recurrence(text)
    first = first_occurrence(rule, today=today)
    assert first is not None
    assert first >= today
    assert first.month in window
    fixed = pinned(rule, first)
    day = first
    for _step in range(6):
        following = next_occurrence(fixed, day, today=day)
        assert following is not None
        assert following > day
        assert following.month in window
        assert _active(fixed.rule, following)
        day = following
