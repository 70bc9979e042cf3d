"""Sending like a person (SPEC section 31): each gap between half and one and a half times the mean pace, never more
than the rate in any minute."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from taskcore.pacing import SendPace, spacing
from tasksvc_run.bot.sending import gap_factor
from tasksvc_run.bot.worker_config import WorkerConfig


def gaps(pace: SendPace, count: int) -> list[float]:
    starts = pace.take(0.0, count)
    return [b - a for a, b in pairwise(starts)]


def test_gaps_vary_within_half_and_one_and_a_half_times_the_mean() -> None:
    draw = random.Random(7)
    found = gaps(SendPace(20, lambda: draw.uniform(0.5, 1.5)), 200)
    mean = spacing(20)
    assert all(0.5 * mean - 1e-9 <= gap <= 1.5 * mean + 1e-9 for gap in found)
    assert max(found) - min(found) > 0.5 * mean  # not a metronome
    assert 0.85 * mean < sum(found) / len(found) < 1.25 * mean


def test_never_more_than_the_rate_in_any_minute_even_with_short_gaps() -> None:
    starts = SendPace(8, lambda: 0.5).take(0.0, 40)
    assert all(b - a >= 60.0 - 1e-9 for a, b in zip(starts, starts[8:], strict=False))


def test_without_jitter_every_gap_is_the_mean() -> None:
    assert set(gaps(SendPace(20), 10)) == {3.0}


@pytest.mark.parametrize("factor", [0.49, 1.51])
def test_a_factor_outside_the_band_is_refused(factor: float) -> None:
    with pytest.raises(ValueError, match="gap factor"):
        SendPace(20, lambda: factor)


def test_the_production_worker_draws_jittered_gaps() -> None:
    assert all(0.5 <= gap_factor() <= 1.5 for _ in range(1000))
    assert not WorkerConfig().jittered


def test_after_an_idle_pause_the_gaps_stay_in_the_band_and_the_minute_rule_holds() -> None:
    draw = random.Random(11)
    pace = SendPace(20, lambda: draw.uniform(0.5, 1.5))
    first = pace.take(0.0, 30)
    later = pace.take(first[-1] + 600.0, 60)  # ten idle minutes, then a busy queue again
    assert all(1.5 - 1e-9 <= b - a <= 4.5 + 1e-9 for a, b in pairwise(later))
    starts = first + later
    assert all(b - a >= 60.0 - 1e-9 for a, b in zip(starts, starts[20:], strict=False))
