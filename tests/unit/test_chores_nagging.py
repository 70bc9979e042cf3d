"""Nagging (SPEC section 25): from the day after the due date in the assignee's zone, then every interval, quiet
hours and away respected; the group is told once after the third."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from taskcore.chores import (
    Nag,
    NagAction,
    NagKind,
    QuietHours,
    first_nag_at,
    group_notice,
    nag_due,
    next_nag_at,
    should_escalate,
)
from taskcore.errors import ValidationError

MADRID = ZoneInfo("Europe/Madrid")
SANTIAGO = ZoneInfo("America/Santiago")
DUE = date(2026, 11, 26)
FIRST = datetime(2026, 11, 26, 23, tzinfo=UTC)  # 27/11 00:00 in Madrid


def decide(now: datetime, *, sent: int = 0, last: datetime | None = None, done: bool = False, away: bool = False,
           quiet: QuietHours | None = None, nag: Nag | None = None) -> NagAction:
    return nag_due(DUE, MADRID, nag or Nag(), sent_count=sent, last_sent=last, now=now, part_done=done, away=away,
                   quiet_window=quiet)


def test_the_default_interval_is_a_day() -> None:
    assert Nag().every_hours == 24


@pytest.mark.parametrize("hours", [0, 169, -1, True])
def test_an_interval_outside_one_hour_to_a_week_is_refused_naming_the_field(hours: int) -> None:
    with pytest.raises(ValidationError) as caught:
        Nag(hours)
    assert caught.value.field == "nag"


def test_the_first_nag_is_at_midnight_after_the_due_date_in_the_assignee_s_zone() -> None:
    assert first_nag_at(DUE, MADRID) == FIRST


def test_a_midnight_the_clock_skips_starts_the_nags_when_it_jumps() -> None:
    assert first_nag_at(date(2026, 9, 5), SANTIAGO) == datetime(2026, 9, 6, 4, tzinfo=UTC)  # 01:00 local


def test_the_next_nag_is_one_interval_after_the_last() -> None:
    assert next_nag_at(FIRST, 6) == FIRST + timedelta(hours=6)


def test_before_the_task_is_overdue_the_nag_waits_for_its_first_moment() -> None:
    assert decide(FIRST - timedelta(seconds=1)) == NagAction(NagKind.WAIT, FIRST)


def test_once_overdue_the_first_nag_goes_now() -> None:
    assert decide(FIRST) == NagAction(NagKind.SEND, FIRST)


def test_after_a_nag_the_next_waits_for_the_interval() -> None:
    now = FIRST + timedelta(hours=3)
    assert decide(now, sent=1, last=FIRST, nag=Nag(4)) == NagAction(NagKind.WAIT, FIRST + timedelta(hours=4))
    assert decide(now + timedelta(hours=1), sent=1, last=FIRST, nag=Nag(4)).kind is NagKind.SEND


def test_a_done_part_is_never_nagged() -> None:
    assert decide(FIRST + timedelta(days=3), done=True) == NagAction(NagKind.NONE)


def test_an_away_person_is_not_nagged() -> None:
    assert decide(FIRST + timedelta(days=3), away=True) == NagAction(NagKind.NONE)


def test_inside_quiet_hours_the_nag_is_held_until_they_end() -> None:
    night = QuietHours(time(22), time(7, 30))
    assert decide(FIRST, quiet=night) == NagAction(NagKind.HOLD, datetime(2026, 11, 27, 6, 30, tzinfo=UTC))


def test_outside_quiet_hours_the_nag_goes() -> None:
    nap = QuietHours(time(14), time(16))
    assert decide(FIRST, quiet=nap).kind is NagKind.SEND


@pytest.mark.parametrize(("sent", "escalated", "tell"), [(2, False, False), (3, False, True), (4, False, True),
                                                          (3, True, False)])
def test_the_group_is_told_once_after_the_third_nag(sent: int, escalated: bool, tell: bool) -> None:
    assert should_escalate(sent, escalated) is tell


def test_the_group_notice_mentions_the_people_still_pending() -> None:
    counts = {"luis": 3, "ana": 1, "eva": 3}
    assert group_notice(counts, {"luis", "ana"}, escalated=False) == ("ana", "luis")


def test_no_group_notice_before_a_pending_person_has_had_three_nags_or_once_told() -> None:
    counts = {"luis": 2, "eva": 3}
    assert group_notice(counts, {"luis"}, escalated=False) == ()
    assert group_notice({"luis": 5}, {"luis"}, escalated=True) == ()
    assert group_notice(counts, set(), escalated=False) == ()
