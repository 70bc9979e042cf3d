"""The doctor's lines on reaching people (SPEC section 31), pure."""

from __future__ import annotations

from datetime import UTC, datetime

from taskcore.gateway.diagnostics import Verdict
from taskcore.gateway.reach_checks import SHOWN, caps_check, reachout_check, unreachable_check

WHEN = datetime(2026, 11, 28, 9, 30, tzinfo=UTC)


def test_no_pause_and_nobody_unreachable_are_ok() -> None:
    assert reachout_check(None).verdict is Verdict.OK
    assert unreachable_check([]).verdict is Verdict.OK


def test_a_pause_says_until_when_and_does_not_block() -> None:
    check = reachout_check(WHEN)
    assert (check.verdict, check.blocking) == (Verdict.WARN, False)
    assert "wait until 2026-11-28 09:30 UTC" in check.detail


def test_the_unreachable_are_named_then_counted() -> None:
    people = [(f"3460000{n:04d}", WHEN, None if n % 2 else f"P{n}") for n in range(SHOWN + 3)]
    check = unreachable_check(people)
    assert check.detail.startswith(f"{SHOWN + 3} person(s) the bot cannot write to in private: P0 (34600000000) "
                                   "since 2026-11-28, unnamed (34600000001) since 2026-11-28")
    assert check.detail.endswith(" and 3 more")


def test_what_the_caps_hold_is_said_with_until_when() -> None:
    assert caps_check({}).verdict is Verdict.OK
    check = caps_check({"hourly cap": (12, WHEN), "same text": (2, None)})
    assert (check.verdict, check.blocking) == (Verdict.WARN, False)
    assert check.detail == ("messages the bot started wait (held, not dropped): 12 by the hourly cap until "
                            "2026-11-28 09:30 UTC; 2 by the same text")
