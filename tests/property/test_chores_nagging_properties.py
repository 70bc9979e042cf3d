"""Properties of nagging (SPEC section 25), over a scheduler ticking at uneven moments: no nag before the task is
overdue in the assignee's zone, never two closer than the interval, none once the part is done or while away, and
none released inside quiet hours; the group is told once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from taskcore.chores import Nag, NagKind, QuietHours, first_nag_at, is_quiet, nag_due, should_escalate
from tests.strategies_chores import quiet_windows, zones


@dataclass
class Run:
    """What one assignee's nags did over a run of ticks."""

    delivered: list[datetime] = field(default_factory=list)  # when each nag reaches the person
    decided: list[tuple[datetime, NagKind, bool, bool]] = field(default_factory=list)  # now, kind, done, away
    escalations: int = 0


Case = tuple[date, ZoneInfo, Nag, QuietHours | None, Run]


@st.composite
def runs(draw: st.DrawFn) -> Case:
    """A due date, zone, interval and quiet hours, and the nags of a scheduler ticking 1 to 300 minutes apart."""
    zone = draw(zones)
    due = draw(st.dates(date(2025, 12, 1), date(2027, 1, 31)))
    nag = Nag(draw(st.sampled_from([1, 4, 24, 168]) | st.integers(1, 168)))
    quiet = draw(st.none() | quiet_windows)
    now = first_nag_at(due, zone) - timedelta(minutes=draw(st.integers(0, 600)))
    run, sent, last, done, escalated = Run(), 0, None, False, False
    for _ in range(draw(st.integers(1, 60))):
        now += timedelta(minutes=draw(st.integers(1, 300)), seconds=draw(st.integers(0, 59)))
        done = done or draw(st.integers(0, 30)) == 0
        away = draw(st.integers(0, 5)) == 0
        action = nag_due(due, zone, nag, sent_count=sent, last_sent=last, now=now, part_done=done, away=away,
                         quiet_window=quiet)
        run.decided.append((now, action.kind, done, away))
        if action.kind in {NagKind.SEND, NagKind.HOLD}:
            assert action.at is not None
            sent, last = sent + 1, action.at
            run.delivered.append(action.at)
        if should_escalate(sent, escalated):
            escalated, run.escalations = True, run.escalations + 1
    return due, zone, nag, quiet, run


@settings(deadline=None)
@given(runs())
def test_no_nag_reaches_anyone_before_the_task_is_overdue(case: Case) -> None:
    due, zone, _, _, run = case
    assert all(at >= first_nag_at(due, zone) for at in run.delivered)


@settings(deadline=None)
@given(runs())
def test_never_two_nags_closer_than_the_interval(case: Case) -> None:
    _, _, nag, _, run = case
    assert all(later - earlier >= nag.interval for earlier, later in pairwise(run.delivered))


@settings(deadline=None)
@given(runs())
def test_nags_stop_when_the_part_is_done_and_skip_the_away(
    case: Case,
) -> None:
    *_, run = case
    for _, kind, done, away in run.decided:
        if done or away:
            assert kind is NagKind.NONE


@settings(deadline=None)
@given(runs())
def test_no_nag_reaches_anyone_inside_their_quiet_hours(
    case: Case,
) -> None:
    _, zone, _, quiet, run = case
    if quiet is not None:
        assert not any(is_quiet(quiet, at.astimezone(zone)) for at in run.delivered)


@settings(deadline=None)
@given(runs())
def test_the_group_is_told_once_and_only_after_three_nags(
    case: Case,
) -> None:
    *_, run = case
    assert run.escalations == (1 if len(run.delivered) >= 3 else 0)
