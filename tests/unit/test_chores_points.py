"""Effort and fairness (SPEC section 25): points 1 to 10, and ``!reparto`` giving each occurrence to the present
person with the fewest points over the last 30 days, ties by turn order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from taskcore.chores import CompletionRow, balanced_pick, check_points, is_points_token, parse_points, points_since
from taskcore.errors import ValidationError

ORDER = ["ana", "luis", "eva"]
NOW = datetime(2026, 11, 26, 12, tzinfo=UTC)


@pytest.mark.parametrize(("token", "points"), [("!1", 1), ("!3", 3), ("!10", 10), ("!03", 3)])
def test_points_are_a_bang_and_a_number_from_one_to_ten(token: str, points: int) -> None:
    assert parse_points(token) == points


@pytest.mark.parametrize("token", ["!0", "!11", "!1000", "!", "3", "!x", "!3x", "!-1", "!\u0663", " !3"])
def test_other_points_are_refused_naming_the_field(token: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_points(token)
    assert caught.value.field == "points"


@pytest.mark.parametrize(("token", "meant"), [("!3", True), ("!0", True), ("!99999", True), ("!todos", False),
                                              ("!turnos", False), ("!", False), ("!3x", False)])
def test_only_a_bang_and_digits_are_meant_as_points(token: str, meant: bool) -> None:
    assert is_points_token(token) is meant


@pytest.mark.parametrize("value", [0, 11, True, "3", 2.0, None])
def test_points_from_the_api_are_integers_from_one_to_ten(value: object) -> None:
    with pytest.raises(ValidationError):
        check_points(value)


def test_points_count_over_the_last_thirty_days() -> None:
    rows = [CompletionRow("ana", 1, 3, NOW - timedelta(days=29)), CompletionRow("ana", 2, 2, NOW),
            CompletionRow("luis", 3, 5, NOW - timedelta(days=30)), CompletionRow("eva", 4, 1, NOW + timedelta(1))]
    assert points_since(rows, NOW) == {"ana": 5}


def test_the_person_with_fewest_points_is_picked() -> None:
    assert balanced_pick(ORDER, {"ana": 4, "luis": 2, "eva": 3}, set()) == "luis"


def test_someone_without_points_counts_zero() -> None:
    assert balanced_pick(ORDER, {"ana": 4, "luis": 2}, set()) == "eva"


def test_ties_go_by_turn_order_after_the_previous_holder() -> None:
    assert balanced_pick(ORDER, {}, set()) == "ana"
    assert balanced_pick(ORDER, {}, set(), after="ana") == "luis"
    assert balanced_pick(ORDER, {"luis": 1}, set(), after="ana") == "eva"


def test_the_away_are_skipped_even_with_fewer_points() -> None:
    assert balanced_pick(ORDER, {"ana": 9, "luis": 0, "eva": 5}, {"luis"}) == "eva"


def test_when_everyone_is_away_nobody_is_skipped() -> None:
    assert balanced_pick(ORDER, {"ana": 9, "luis": 0, "eva": 5}, set(ORDER)) == "luis"
