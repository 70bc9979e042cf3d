"""Properties of rotations (SPEC sections 20 and 25): ``!turnos`` and ``!reparto`` never pick an away person while
another is present; ``!reparto`` picks the fewest points among the present, ties by turn order after the holder."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from taskcore.chores import balanced_pick, next_in_turn, turn_order_after
from tests.strategies_chores import PEOPLE, away_sets, points_by_person, rotations

holders = st.none() | st.sampled_from(PEOPLE)


@given(rotations, holders, away_sets)
def test_the_next_turn_never_goes_to_someone_away_while_another_is_present(
    order: list[str], current: str | None, away: set[str],
) -> None:
    picked = next_in_turn(order, current, away)
    assert picked in order
    present_others = [person for person in order if person not in away and person != current]
    if present_others:
        assert picked in present_others


@given(rotations, holders, away_sets)
def test_the_next_turn_is_the_first_present_person_after_the_holder(
    order: list[str], current: str | None, away: set[str],
) -> None:
    picked = next_in_turn(order, current, away)
    ahead = turn_order_after(order, current)
    skipped = ahead[:ahead.index(picked)]
    if picked not in away:
        assert all(person in away or person == current for person in skipped)


@given(rotations, points_by_person, away_sets, holders)
def test_reparto_never_picks_someone_away_while_another_is_present(
    order: list[str], points: dict[str, int], away: set[str], after: str | None,
) -> None:
    picked = balanced_pick(order, points, away, after=after)
    assert picked in order
    if any(person not in away for person in order):
        assert picked not in away


@given(rotations, points_by_person, away_sets, holders)
def test_reparto_picks_the_fewest_points_ties_by_turn_order(
    order: list[str], points: dict[str, int], away: set[str], after: str | None,
) -> None:
    picked = balanced_pick(order, points, away, after=after)
    candidates = [person for person in turn_order_after(order, after) if person not in away] or order
    fewest = min(points.get(person, 0) for person in candidates)
    assert points.get(picked, 0) == fewest
    tied = [person for person in turn_order_after(order, after) if person in candidates
            and points.get(person, 0) == fewest]
    assert picked == tied[0]
