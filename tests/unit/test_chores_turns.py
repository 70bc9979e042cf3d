"""Missed turns (SPEC sections 20 and 25): the next person in turn skips the away; a late turn passes on once."""

from __future__ import annotations

from datetime import date

import pytest

from taskcore.chores import auto_pass_due, next_in_turn

ORDER = ["ana", "luis", "eva"]


@pytest.mark.parametrize(("current", "following"), [("ana", "luis"), ("luis", "eva"), ("eva", "ana")])
def test_the_turn_goes_round_in_order(current: str, following: str) -> None:
    assert next_in_turn(ORDER, current, set()) == following


def test_the_away_are_skipped() -> None:
    assert next_in_turn(ORDER, "ana", {"luis"}) == "eva"


def test_when_everyone_else_is_away_the_turn_stays_with_the_holder() -> None:
    assert next_in_turn(ORDER, "ana", {"luis", "eva"}) == "ana"


def test_when_everyone_is_away_the_turn_goes_to_the_plain_next() -> None:
    assert next_in_turn(ORDER, "ana", set(ORDER)) == "luis"


def test_a_holder_who_left_the_rotation_hands_over_to_its_first_present_person() -> None:
    assert next_in_turn(ORDER, "zoe", {"ana"}) == "luis"
    assert next_in_turn(ORDER, None, set()) == "ana"


def test_a_rotation_of_one_keeps_its_person() -> None:
    assert next_in_turn(["ana"], "ana", {"ana"}) == "ana"


def test_an_empty_rotation_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="at least one"):
        next_in_turn([], "ana", set())


@pytest.mark.parametrize(("today", "passes"), [(date(2026, 11, 26), False), (date(2026, 11, 27), False),
                                               (date(2026, 11, 28), True), (date(2026, 12, 5), True)])
def test_an_open_turn_passes_on_two_days_after_its_due_date(today: date, passes: bool) -> None:
    assert auto_pass_due(date(2026, 11, 26), today, passed_already=False) is passes


def test_a_turn_passes_on_by_itself_only_once() -> None:
    assert not auto_pass_due(date(2026, 11, 26), date(2026, 12, 5), passed_already=True)
