"""The balance's rules (SPEC section 34) on random histories: whatever a member earns, asks for, and admins approve
or refuse in any order, what they have never goes below zero, and neither does what they have available."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskcore.chores.rewards import MAX_REWARD_POINTS, Balance, check_reward_points

STEPS = st.lists(st.one_of(
    st.tuples(st.just("earn"), st.integers(1, 10)),
    st.tuples(st.just("ask"), st.integers(1, 30)),
    st.tuples(st.just("approve"), st.integers(0, 20)),
    st.tuples(st.just("refuse"), st.integers(0, 20)),
), max_size=60)


@given(STEPS)
def test_no_history_takes_the_balance_below_zero(steps: list[tuple[str, int]]) -> None:
    earned, spent, pending = 0, 0, []
    for kind, value in steps:
        balance = Balance(earned, spent, sum(pending))
        if kind == "earn":
            earned += value
        elif kind == "ask" and balance.fits(value):
            pending.append(value)
        elif kind in ("approve", "refuse") and pending:
            price = pending[value % len(pending)]
            if kind == "refuse" or Balance(earned, spent, sum(pending)).approvable(price):
                pending.remove(price)
                spent += price if kind == "approve" else 0
        after = Balance(earned, spent, sum(pending))
        assert earned - spent >= 0
        assert after.points - after.reserved >= 0
        assert after.available == after.points - after.reserved


@given(st.integers(-5, MAX_REWARD_POINTS + 5))
def test_a_price_is_a_whole_number_from_1_to_the_maximum(points: int) -> None:
    if 1 <= points <= MAX_REWARD_POINTS:
        assert check_reward_points(points) == points
    else:
        with pytest.raises(ValueError, match="precio"):
            check_reward_points(points)
