"""Properties of token buckets and the per-user limiter over arbitrary call sequences."""

from hypothesis import given, settings
from hypothesis import strategies as st

from taskcore.ratelimit import Decision, RateLimiter, TokenBucket

T0 = 10_000.0
TOLERANCE = 1e-6

rates = st.floats(min_value=0.5, max_value=600, allow_nan=False)
capacities = st.integers(min_value=1, max_value=20)
# Steps of the monotonic clock: often none at all, sometimes backwards (a clock that must be tolerated).
steps = st.one_of(st.just(0.0), st.floats(min_value=-5, max_value=120, allow_nan=False))
forward_steps = st.one_of(st.just(0.0), st.floats(min_value=0, max_value=30, allow_nan=False))


@st.composite
def calls(draw: st.DrawFn, keys: int = 4, max_size: int = 60) -> list[tuple[str, float]]:
    """(key, now) pairs for a limiter, with a clock that never goes backwards."""
    now, result = T0, []
    for key in draw(st.lists(st.integers(0, keys - 1), min_size=1, max_size=max_size)):
        now += draw(forward_steps)
        result.append((f"user-{key}", now))
    return result


@given(rates, capacities, st.lists(st.tuples(steps, st.floats(min_value=0, max_value=25)), max_size=60))
def test_a_bucket_never_holds_less_than_zero_nor_more_than_capacity(
    rate: float, capacity: int, ops: list[tuple[float, float]]
) -> None:
    bucket, now = TokenBucket(rate, capacity), T0
    for step, cost in ops:
        now += step
        bucket.try_take(now, cost)
        assert 0 <= bucket.available(now) <= capacity


@given(rates, capacities, st.floats(min_value=0, max_value=3_600))
def test_an_emptied_bucket_refills_at_the_stated_rate_up_to_capacity(
    rate: float, capacity: int, elapsed: float
) -> None:
    bucket = TokenBucket(rate, capacity)
    assert bucket.try_take(T0, capacity)
    expected = min(capacity, elapsed * rate / 60)
    assert abs(bucket.available(T0 + elapsed) - expected) <= TOLERANCE * max(1, expected)


@given(rates, capacities, st.floats(min_value=0.01, max_value=10))
def test_after_seconds_until_has_passed_the_take_succeeds(rate: float, capacity: int, cost: float) -> None:
    bucket = TokenBucket(rate, capacity)
    assert bucket.try_take(T0, capacity)
    wait = bucket.seconds_until(T0, cost)
    if wait != float("inf"):
        assert bucket.try_take(T0 + wait, cost)


def run(limiter: RateLimiter, sequence: list[tuple[str, float]]) -> list[Decision]:
    return [limiter.check(key, now) for key, now in sequence]


@settings(max_examples=150)
@given(rates, capacities, calls())
def test_no_user_is_allowed_more_than_capacity_plus_rate_times_elapsed(
    rate: float, capacity: int, sequence: list[tuple[str, float]]
) -> None:
    decisions = run(RateLimiter(rate, capacity), sequence)
    for key in {key for key, _ in sequence}:
        mine = [(now, d.allowed) for (k, now), d in zip(sequence, decisions, strict=True) if k == key]
        for i, (start, _) in enumerate(mine):
            allowed = 0
            for end, ok in mine[i:]:
                allowed += ok
                assert allowed <= capacity + rate * (end - start) / 60 + TOLERANCE


@settings(max_examples=150)
@given(rates, capacities, calls())
def test_exactly_the_first_refusal_of_each_empty_spell_is_notified(
    rate: float, capacity: int, sequence: list[tuple[str, float]]
) -> None:
    last_allowed: dict[str, bool] = {}
    for (key, _), decision in zip(sequence, run(RateLimiter(rate, capacity), sequence), strict=True):
        assert decision.notify == (not decision.allowed and last_allowed.get(key, True))
        assert (decision.retry_after >= 1) == (not decision.allowed)
        last_allowed[key] = decision.allowed


@given(rates, capacities, calls(keys=2))
def test_after_retry_after_seconds_the_user_is_allowed_again(
    rate: float, capacity: int, sequence: list[tuple[str, float]]
) -> None:
    limiter = RateLimiter(rate, capacity)
    for key, now in sequence:
        decision = limiter.check(key, now)
        if not decision.allowed:
            assert limiter.check(key, now + decision.retry_after).allowed
            return


@settings(max_examples=30)
@given(rates, capacities, calls(keys=500, max_size=400))
def test_only_users_seen_within_one_refill_of_the_bucket_are_tracked(
    rate: float, capacity: int, sequence: list[tuple[str, float]]
) -> None:
    limiter, last_seen = RateLimiter(rate, capacity), {}
    refill = capacity / rate * 60
    for key, now in sequence:
        limiter.check(key, now)
        last_seen[key] = now
        assert len(limiter) <= sum(1 for seen in last_seen.values() if seen > now - refill - TOLERANCE)


@settings(max_examples=30)
@given(rates, capacities, st.integers(1, 50), calls(keys=200, max_size=300))
def test_never_more_than_max_entries_users_are_tracked(
    rate: float, capacity: int, max_entries: int, sequence: list[tuple[str, float]]
) -> None:
    limiter = RateLimiter(rate, capacity, max_entries=max_entries)
    for key, now in sequence:
        limiter.check(key, now)
        assert len(limiter) <= max_entries


def test_many_users_then_a_quiet_spell_leave_one_tracked() -> None:
    limiter = RateLimiter(rate_per_min=6, capacity=3)
    for user in range(50_000):
        limiter.check(str(user), T0)
    limiter.check("late", T0 + 30)
    assert len(limiter) == 1
