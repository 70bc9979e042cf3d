"""The reminder tick spreads the digests it queues at the send rate over the grace window (issue 20): in queue
order, one spacing apart, none due past the slot plus REMINDERS_GRACE_MINUTES."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.queue_rules import DIGEST_LABEL
from taskcore.services import preferences
from taskcore.services import reminder_tick as reminder_service
from taskcore.services.reminder_tick import ReminderTick, TickResult
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue
from tasksvc_run import units
from tests.builders import make_task

MADRID = ZoneInfo("Europe/Madrid")
SLOT = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)  # 08:30 CET
SECOND = timedelta(seconds=1)
USERS = [f"3460000000{n}" for n in range(1, 6)]


@pytest.fixture
def five_due(db: Database) -> Database:
    for user in USERS:
        units.run(db, preferences.set_preference, user_id=user, freq="daily", time="08:30",
                  now=datetime(2026, 1, 1, tzinfo=UTC))
        make_task(db, creator=user, group_id=None, description="Pagar la luz", due="2026-11-23")
    return db


def tick(db: Database, now: datetime, *, per_min: int | None, grace: int = 60) -> TickResult:
    return units.run_batched(db, ReminderTick(GatingMode.OFF, now=now, zone=MADRID, grace_minutes=grace,
                                              max_attempts=6, sends_per_min=per_min))


def due_times(db: Database) -> list[datetime]:
    with db.read() as conn:
        rows = conn.execute(select(outbound_queue).order_by(outbound_queue.c.id)).all()
    assert {row.label for row in rows} == {DIGEST_LABEL}
    return [row.next_attempt_at for row in rows]


def test_the_digests_are_due_one_spacing_apart_in_queue_order(five_due: Database) -> None:
    assert tick(five_due, SLOT, per_min=20).sent == 5
    assert due_times(five_due) == [SLOT + n * 3 * SECOND for n in range(5)]


def test_the_spread_runs_on_across_the_ticks_write_chunks(five_due: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reminder_service, "CHUNK", 2)
    tick(five_due, SLOT, per_min=60)
    assert due_times(five_due) == [SLOT + n * SECOND for n in range(5)]


def test_digests_the_rate_cannot_carry_within_the_window_are_due_at_its_end(five_due: Database) -> None:
    tick(five_due, SLOT, per_min=2, grace=1)
    end = SLOT + timedelta(minutes=1)
    assert due_times(five_due) == [SLOT, SLOT + 30 * SECOND, end, end, end]


def test_a_late_tick_spreads_over_what_is_left_of_the_window(five_due: Database) -> None:
    late = SLOT + 90 * SECOND
    assert tick(five_due, late, per_min=2, grace=2).late == 5
    end = SLOT + timedelta(minutes=2)
    assert due_times(five_due) == [late, end, end, end, end]


def test_without_a_rate_every_digest_is_due_at_the_tick(five_due: Database) -> None:
    tick(five_due, SLOT + 2 * SECOND, per_min=None)
    assert due_times(five_due) == [SLOT + 2 * SECOND] * 5
