"""Away (SPEC section 25): until and including the date given, in the person's own calendar."""

from __future__ import annotations

from datetime import date

import pytest

from taskcore.chores import away_people, check_away_until, is_away
from taskcore.errors import ValidationError

TODAY = date(2026, 11, 26)


def test_nobody_is_away_without_a_date() -> None:
    assert not is_away(None, TODAY)


@pytest.mark.parametrize(("until", "away"), [(date(2026, 11, 25), False), (TODAY, True), (date(2026, 12, 1), True)])
def test_a_person_is_away_through_and_including_the_date(until: date, away: bool) -> None:
    assert is_away(until, TODAY) is away


def test_an_away_date_of_today_or_later_is_accepted() -> None:
    assert check_away_until(TODAY, TODAY) == TODAY


def test_an_away_date_in_the_past_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError) as caught:
        check_away_until(date(2026, 11, 25), TODAY)
    assert caught.value.field == "away_until"


def test_the_away_are_found_each_on_their_own_date() -> None:
    until = {"ana": TODAY, "luis": TODAY, "eva": None}
    today = {"ana": TODAY, "luis": date(2026, 11, 27), "eva": TODAY}  # Luis's zone is already on tomorrow
    assert away_people(until, today) == {"ana"}
