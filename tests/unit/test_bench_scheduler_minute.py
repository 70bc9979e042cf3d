"""The bench's scheduler minute (issue 29): its figures from each part's time, and the section 25 dataset's nag and
turn columns as a running bot leaves them at the simulated day's start."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from benchmarks.chores_dataset import nag_part, passed_before
from benchmarks.scheduler_minute import PARTS, gate, minute_figures

START = datetime(2026, 11, 23, tzinfo=UTC)
MADRID, TOKYO, LIMA = ZoneInfo("Europe/Madrid"), ZoneInfo("Asia/Tokyo"), ZoneInfo("America/Lima")


def test_the_figures_are_those_of_whole_minutes_and_each_part_has_its_share() -> None:
    times = [dict.fromkeys(PARTS, 1.0), {**dict.fromkeys(PARTS, 1.0), "reminders": 45.0}, dict.fromkeys(PARTS, 2.0)]
    ats = [START + timedelta(minutes=k) for k in range(3)]
    figures = minute_figures(times, ats, dict.fromkeys(PARTS, 0))
    assert (figures.median_ms, figures.worst_ms, figures.worst_at, figures.minutes) == (12.0, 50.0, ats[1], 3)
    assert figures.shares["reminders"] == 48 / 68  # six parts: 6 + 50 + 12 ms
    assert abs(sum(figures.shares.values()) - 1) < 1e-9
    assert (figures.median_part_ms["reminders"], figures.worst_part_ms["reminders"]) == (2.0, 45.0)


def test_only_the_whole_minutes_median_is_gated() -> None:
    rows = minute_figures([dict.fromkeys(PARTS, 1.0)], [START], dict.fromkeys(PARTS, 0)).rows()
    assert [measure for measure, _, _ in rows if gate(measure) == 50.0] == [rows[0][0]]


def test_a_nag_still_ahead_is_the_first_one_and_an_overdue_ones_next_falls_in_the_day() -> None:
    rng = random.Random(1)
    assert nag_part(date(2026, 11, 30), MADRID, rng, START) == {
        "nag_count": 0, "nag_last_at": None, "nag_next_at": datetime(2026, 11, 30, 23, 0, tzinfo=UTC)}
    for _ in range(50):
        part = nag_part(date(2026, 11, 20), MADRID, rng, START)
        assert START <= part["nag_next_at"] < START + timedelta(days=1)
        assert 0 <= part["nag_count"] <= 3
        assert part["nag_last_at"] == (part["nag_next_at"] - timedelta(hours=24) if part["nag_count"] else None)


def test_a_turn_two_days_late_in_its_holders_calendar_at_the_start_was_passed_already() -> None:
    assert passed_before(date(2026, 11, 21), TOKYO, START) == START  # Monday 09:00 in Tokyo
    assert passed_before(date(2026, 11, 21), LIMA, START) is None  # still Sunday in Lima
