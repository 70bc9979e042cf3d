"""Properties of quiet hours (SPEC section 25) in zones with every kind of DST change: a held message goes out
after now, within a day and an hour, never inside the window; outside the window nothing is held."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from taskcore.chores import HeldMessage, QuietHours, held_until, is_quiet, merge_held
from tests.strategies_chores import PEOPLE, instants, quiet_windows, zones

LONGEST_HOLD = timedelta(hours=25)


def _open_minutes(window: QuietHours) -> int:
    """How long the window is open (not quiet) each day, in minutes."""
    start = window.start.hour * 60 + window.start.minute
    end = window.end.hour * 60 + window.end.minute
    return (start - end) % (24 * 60)


@st.composite
def held_cases(draw: st.DrawFn) -> tuple[QuietHours, datetime, ZoneInfo]:
    zone = draw(zones)
    return draw(quiet_windows), draw(instants(zone)), zone


@given(held_cases())
def test_a_held_message_is_released_after_now_outside_the_window(case: tuple[QuietHours, datetime, ZoneInfo]) -> None:
    window, now, zone = case
    release = held_until(window, now, zone)
    if release is not None:
        assert release > now
        assert not is_quiet(window, release.astimezone(zone))


@given(held_cases())
def test_outside_the_window_nothing_is_held(case: tuple[QuietHours, datetime, ZoneInfo]) -> None:
    window, now, zone = case
    quiet = is_quiet(window, now.astimezone(zone))
    assert (held_until(window, now, zone) is None) is not quiet


@given(held_cases())
def test_a_message_is_held_at_most_a_day_and_an_hour(case: tuple[QuietHours, datetime, ZoneInfo]) -> None:
    window, now, zone = case
    release = held_until(window, now, zone)
    if release is not None and _open_minutes(window) > 60:  # a shorter open part may fall whole in a DST gap
        assert release - now <= LONGEST_HOLD


@given(st.lists(st.tuples(st.sampled_from(PEOPLE), st.integers(0, 10)), max_size=20))
def test_merging_keeps_every_held_item_once_per_person_in_held_order(held: list[tuple[str, int]]) -> None:
    base = datetime(2026, 11, 26)
    messages = [HeldMessage(user, base + timedelta(minutes=minute), n) for n, (user, minute) in enumerate(held)]
    bundles = merge_held(messages)
    assert len({bundle.user_id for bundle in bundles}) == len(bundles)
    for bundle in bundles:
        mine = [m for m in messages if m.user_id == bundle.user_id]
        assert list(bundle.items) == [m.item for m in sorted(mine, key=lambda m: m.held_at)]
    assert sum(len(bundle.items) for bundle in bundles) == len(messages)
