"""Token buckets and the per-user rate limiter (SPEC section 5), on a frozen monotonic clock."""

import dataclasses
import math

import pytest

from taskcore.ratelimit import Decision, RateLimiter, TokenBucket

T0 = 1_000.0


# --- TokenBucket -----------------------------------------------------------------------------


def test_a_bucket_starts_full() -> None:
    assert TokenBucket(rate_per_min=6, capacity=3).available(T0) == 3


def test_taking_removes_the_cost_from_the_bucket() -> None:
    bucket = TokenBucket(rate_per_min=6, capacity=3)
    assert bucket.try_take(T0, cost=2)
    assert bucket.available(T0) == 1


def test_an_empty_bucket_refuses_and_stays_at_zero() -> None:
    bucket = TokenBucket(rate_per_min=6, capacity=2)
    assert bucket.try_take(T0)
    assert bucket.try_take(T0)
    assert not bucket.try_take(T0)
    assert bucket.available(T0) == 0


def test_a_take_larger_than_what_is_left_is_refused_without_taking_anything() -> None:
    bucket = TokenBucket(rate_per_min=6, capacity=3)
    assert not bucket.try_take(T0, cost=4)
    assert bucket.available(T0) == 3


def test_a_bucket_refills_rate_per_min_over_sixty_tokens_each_second() -> None:
    bucket = TokenBucket(rate_per_min=6, capacity=3)
    assert bucket.try_take(T0, cost=3)
    assert bucket.available(T0 + 5) == pytest.approx(0.5)
    assert bucket.available(T0 + 10) == pytest.approx(1)


def test_a_token_is_available_exactly_when_the_rate_says_so() -> None:
    bucket = TokenBucket(rate_per_min=7, capacity=1)
    assert bucket.try_take(T0)
    assert not bucket.try_take(T0 + 60 / 7 - 0.001)
    assert bucket.try_take(T0 + 60 / 7)


def test_a_bucket_never_fills_above_its_capacity() -> None:
    bucket = TokenBucket(rate_per_min=60, capacity=5)
    assert bucket.try_take(T0)
    assert bucket.available(T0 + 3_600) == 5


def test_a_clock_going_backwards_counts_as_no_time_passing() -> None:
    bucket = TokenBucket(rate_per_min=60, capacity=5)
    assert bucket.try_take(T0 + 10, cost=5)
    assert bucket.available(T0) == 0
    assert bucket.available(T0 + 10) == 0
    assert bucket.available(T0 + 11) == pytest.approx(1)


def test_seconds_until_is_zero_when_tokens_are_available() -> None:
    assert TokenBucket(rate_per_min=6, capacity=1).seconds_until(T0) == 0


def test_seconds_until_is_the_time_to_refill_the_missing_tokens() -> None:
    bucket = TokenBucket(rate_per_min=6, capacity=2)
    assert bucket.try_take(T0, cost=2)
    assert bucket.seconds_until(T0 + 4) == pytest.approx(6)
    assert bucket.seconds_until(T0 + 4, cost=2) == pytest.approx(16)


def test_a_cost_above_capacity_is_never_available() -> None:
    assert TokenBucket(rate_per_min=6, capacity=2).seconds_until(T0, cost=3) == math.inf


@pytest.mark.parametrize(("rate", "capacity"), [(0, 1), (-1, 1), (1, 0), (math.nan, 1), (1, math.inf)])
def test_a_bucket_needs_a_positive_finite_rate_and_capacity(rate: float, capacity: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        TokenBucket(rate_per_min=rate, capacity=capacity)


@pytest.mark.parametrize("cost", [-1, math.nan, math.inf])
def test_a_negative_or_non_finite_cost_is_rejected(cost: float) -> None:
    with pytest.raises(ValueError, match="cost"):
        TokenBucket(rate_per_min=6, capacity=2).try_take(T0, cost=cost)


def test_a_bucket_has_no_instance_dict() -> None:
    assert not hasattr(TokenBucket(rate_per_min=6, capacity=2), "__dict__")


# --- RateLimiter -----------------------------------------------------------------------------


def test_a_user_may_send_a_burst_of_capacity_commands() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=3)
    assert [limiter.check("alice", T0).allowed for _ in range(4)] == [True, True, True, False]


def test_an_allowed_command_has_no_wait_and_no_notice() -> None:
    assert RateLimiter(rate_per_min=6, capacity=3).check("alice", T0) == Decision(allowed=True)


def test_a_refusal_says_how_many_whole_seconds_to_wait() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=1)
    limiter.check("alice", T0)
    assert limiter.check("alice", T0 + 2.5).retry_after == 8


def test_a_refusal_asks_to_wait_at_least_one_second() -> None:
    limiter = RateLimiter(rate_per_min=60, capacity=1)
    limiter.check("alice", T0)
    assert limiter.check("alice", T0 + 0.9).retry_after == 1


def test_only_the_first_refusal_of_an_empty_spell_is_notified() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=1)
    limiter.check("alice", T0)
    assert [limiter.check("alice", T0 + s).notify for s in (1, 2, 3)] == [True, False, False]


def test_an_allowed_command_ends_the_spell_so_the_next_refusal_is_notified() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=1)
    limiter.check("alice", T0)
    assert limiter.check("alice", T0 + 1).notify
    assert limiter.check("alice", T0 + 10).allowed
    assert limiter.check("alice", T0 + 11).notify


def test_users_have_separate_buckets() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=1)
    assert limiter.check("alice", T0).allowed
    assert limiter.check("bob", T0).allowed
    assert not limiter.check("alice", T0).allowed


def test_a_decision_is_immutable() -> None:
    decision = RateLimiter(rate_per_min=6, capacity=1).check("alice", T0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.allowed = False  # type: ignore[misc]


def test_a_user_whose_bucket_filled_up_again_is_forgotten() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=2)
    limiter.check("alice", T0)
    limiter.check("bob", T0 + 20)
    assert len(limiter) == 1


def test_a_user_whose_bucket_is_not_yet_full_is_remembered() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=2)
    limiter.check("alice", T0)
    limiter.check("bob", T0 + 9)
    assert len(limiter) == 2


def test_a_user_cannot_reset_the_bucket_by_waiting_less_than_a_refill() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=2)
    limiter.check("alice", T0)
    limiter.check("alice", T0)
    limiter.check("bob", T0 + 9)
    assert not limiter.check("alice", T0 + 9).allowed


def test_never_more_than_max_entries_users_are_tracked() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=2, max_entries=3)
    for user in range(10):
        limiter.check(str(user), T0)
    assert len(limiter) == 3


def test_beyond_max_entries_the_least_recently_seen_user_is_dropped() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=1, max_entries=2)
    limiter.check("alice", T0)
    limiter.check("bob", T0)
    limiter.check("alice", T0)
    limiter.check("carol", T0)
    assert not limiter.check("alice", T0).allowed
    assert limiter.check("bob", T0).allowed


def test_a_limiter_needs_room_for_at_least_one_user() -> None:
    with pytest.raises(ValueError, match="max_entries"):
        RateLimiter(rate_per_min=6, capacity=1, max_entries=0)
