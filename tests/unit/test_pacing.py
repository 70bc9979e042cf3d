"""The send-rate rules (issue 20): when the next send may start, how a claim books sends, how a tick's digests are
spread over the grace window, and when the last of them leaves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from taskcore.pacing import (
    KEPT_STARTS,
    SendPace,
    digest_due,
    last_departure,
    next_send_at,
    spacing,
    within_window,
)

T0 = datetime(2026, 11, 23, 8, 30, tzinfo=UTC)
SECOND = timedelta(seconds=1)


def test_the_spacing_is_a_minute_over_the_rate() -> None:
    assert (spacing(20), spacing(60), spacing(1)) == (3.0, 1.0, 60.0)


@pytest.mark.parametrize("rate", [0, -5])
def test_a_rate_below_one_is_refused(rate: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        spacing(rate)


def test_with_no_send_in_the_last_minute_the_next_may_start_now() -> None:
    assert next_send_at([], now=100.0, per_min=20) == 100.0


def test_the_next_send_waits_the_spacing_after_the_latest() -> None:
    assert next_send_at([90.0, 99.0], now=100.0, per_min=20) == 102.0


def test_a_send_older_than_the_spacing_holds_nothing_back() -> None:
    assert next_send_at([95.0], now=100.0, per_min=20) == 100.0


def test_a_full_minute_waits_for_the_oldest_of_its_sends_to_leave_the_window() -> None:
    # three sends in the last minute at a rate of three: the next only when the oldest is a minute old
    assert next_send_at([50.0, 60.0, 70.0], now=80.0, per_min=3) == 110.0


def test_sends_beyond_the_rate_count_only_the_latest_ones() -> None:
    assert next_send_at([0.0, 1.0, 50.0, 70.0, 90.0], now=100.0, per_min=3) == 110.0


def test_booked_sends_start_one_spacing_apart() -> None:
    pace = SendPace(60)
    assert pace.take(10.0, 3) == [10.0, 11.0, 12.0]
    assert pace.next_at(10.5) == 13.0


def test_after_a_quiet_spell_the_next_send_starts_at_once() -> None:
    pace = SendPace(20)
    pace.take(10.0, 1)
    assert pace.take(100.0, 1) == [100.0]


def test_the_allowance_counts_the_sends_that_may_start_within_the_horizon() -> None:
    pace = SendPace(60)
    assert pace.allowance(10.0, horizon=0.05, most=4) == 1
    assert pace.allowance(10.0, horizon=2.5, most=4) == 3
    pace.take(10.0, 1)
    assert pace.allowance(10.5, horizon=0.05, most=4) == 0
    assert pace.allowance(11.0, horizon=0.05, most=4) == 1


def test_the_allowance_never_exceeds_what_was_asked_and_books_nothing() -> None:
    pace = SendPace(60_000)
    assert pace.allowance(10.0, horizon=1.0, most=4) == 4
    assert pace.next_at(10.0) == 10.0


def test_a_rate_above_what_is_kept_is_paced_by_its_spacing() -> None:
    pace = SendPace(KEPT_STARTS * 10)
    starts = pace.take(0.0, KEPT_STARTS + 5)
    assert starts[-1] == pytest.approx((KEPT_STARTS + 4) * spacing(KEPT_STARTS * 10))


def test_digests_are_due_one_spacing_apart_from_the_tick() -> None:
    end = T0 + timedelta(minutes=60)
    due = [digest_due(T0, index=n, window_end=end, per_min=20) for n in range(4)]
    assert due == [T0, T0 + 3 * SECOND, T0 + 6 * SECOND, T0 + 9 * SECOND]


def test_no_digest_is_due_past_the_grace_window() -> None:
    end = T0 + timedelta(minutes=1)
    due = [digest_due(T0, index=n, window_end=end, per_min=20) for n in range(30)]
    assert due == sorted(due)
    assert max(due) == end
    assert due.count(end) == 10  # index 20 is the first the rate cannot carry before the end (at 60 s exactly)


def test_a_window_that_already_closed_makes_every_digest_due_now() -> None:
    assert digest_due(T0, index=7, window_end=T0 - SECOND, per_min=20) == T0


def test_a_negative_index_is_refused() -> None:
    with pytest.raises(ValueError, match="from 0"):
        digest_due(T0, index=-1, window_end=T0, per_min=20)


def test_the_window_carries_one_digest_per_spacing_plus_the_first() -> None:
    assert within_window(20, timedelta(minutes=60)) == 1201
    assert within_window(20, timedelta(0)) == 1


def test_the_last_departure_follows_the_rate_once_the_due_times_bunch_up() -> None:
    due = [T0, T0, T0 + 10 * SECOND, T0 + 60 * SECOND]
    assert last_departure(due, per_min=20) == T0 + 60 * SECOND
    assert last_departure([T0] * 5, per_min=20) == T0 + 12 * SECOND
    assert last_departure([], per_min=20) is None
