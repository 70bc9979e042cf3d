"""Planning one preference row in its user's zone: the slot due now, if any, the row's next look, and whether a slot
is handled on time (SPEC sections 10 and 21)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from taskcore.reminders.slots import SavedPreference, plan_row, slot_outcome

MADRID = ZoneInfo("Europe/Madrid")
MONDAY_0830 = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)  # 08:30 in Madrid
SAVED = datetime(2026, 1, 1, tzinfo=UTC)
BOGOTA_PHONE = "573001234567"


def row(freq: str = "daily", time: str = "08:30", *, user: str = "34600000001", tz: str | None = None,
        next_due_at: datetime = SAVED) -> SavedPreference:
    return SavedPreference(user, freq, time, tz, next_due_at, SAVED)


def test_a_slot_reached_is_due_and_the_next_look_is_the_next_slot() -> None:
    plan = plan_row(row(), now=MONDAY_0830, fallback=MADRID, grace_minutes=60)
    assert plan.due is not None
    assert (plan.due.slot, plan.due.key, plan.due.today) == (MONDAY_0830, "2026-11-23T07:30Z", date(2026, 11, 23))
    assert plan.next_due_at == MONDAY_0830 + timedelta(days=1)


def test_a_slot_older_than_the_grace_is_not_due_but_the_next_one_is_planned() -> None:
    plan = plan_row(row(), now=MONDAY_0830 + timedelta(minutes=61), fallback=MADRID, grace_minutes=60)
    assert plan.due is None
    assert plan.next_due_at == MONDAY_0830 + timedelta(days=1)


def test_a_slot_inside_the_grace_is_due_even_when_the_preference_was_saved_after_it() -> None:
    saved_after = row(next_due_at=MONDAY_0830 + timedelta(minutes=5))
    plan = plan_row(saved_after, now=MONDAY_0830 + timedelta(minutes=6), fallback=MADRID, grace_minutes=60)
    assert plan.due is not None
    assert plan.next_due_at == MONDAY_0830 + timedelta(days=1)


def test_a_chosen_zone_puts_the_slot_at_that_zones_wall_time() -> None:
    bogota_0830 = datetime(2026, 11, 23, 13, 30, tzinfo=UTC)
    plan = plan_row(row(tz="America/Bogota"), now=bogota_0830, fallback=MADRID, grace_minutes=0)
    assert plan.due is not None
    assert plan.due.slot == bogota_0830


def test_without_a_chosen_zone_the_phone_numbers_country_decides() -> None:
    bogota_0830 = datetime(2026, 11, 23, 13, 30, tzinfo=UTC)
    plan = plan_row(row(user=BOGOTA_PHONE), now=bogota_0830, fallback=MADRID, grace_minutes=0)
    assert plan.due is not None
    assert plan_row(row(), now=bogota_0830, fallback=MADRID, grace_minutes=0).due is None


def test_the_digests_today_is_the_users_today() -> None:
    # 23:30 on Sunday in Bogotá is already Monday in Madrid
    late = datetime(2026, 11, 23, 4, 30, tzinfo=UTC)
    plan = plan_row(row(time="23:30", tz="America/Bogota"), now=late, fallback=MADRID, grace_minutes=0)
    assert plan.due is not None
    assert plan.due.today == date(2026, 11, 22)


def test_an_off_row_is_neither_due_nor_looked_at_again() -> None:
    plan = plan_row(row("off"), now=MONDAY_0830, fallback=MADRID, grace_minutes=60)
    assert (plan.due, plan.next_due_at) == (None, None)


def test_a_negative_grace_is_refused() -> None:
    with pytest.raises(ValueError, match="grace"):
        plan_row(row(), now=MONDAY_0830, fallback=MADRID, grace_minutes=-1)


def test_a_slot_picked_up_after_its_own_minute_is_late() -> None:
    slot = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
    assert slot_outcome(slot, slot + timedelta(seconds=59)) == "sent"
    assert slot_outcome(slot, slot + timedelta(minutes=1)) == "late"
