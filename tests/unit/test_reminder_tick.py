"""One reminder tick over the database, with the clock frozen: on time, late, past the grace window, across the
2026 DST changes in Europe/Madrid, and never twice for a (user, slot)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.reminders import tick as reminder_service
from taskcore.reminders.tick import TickResult, reminder_tick
from taskcore.services import preferences
from taskcore.storage.db import Database
from taskcore.storage.reminders import undelivered_users
from taskcore.storage.schema import outbound_queue, reminder_deliveries
from tests.builders import make_group, make_task

MADRID = ZoneInfo("Europe/Madrid")
USER = "34600000001"
MONDAY_0830 = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)  # 08:30 CET
MINUTE = timedelta(minutes=1)


def prefer(db: Database, freq: str = "daily", time: str = "08:30", user: str = USER) -> None:
    preferences.set_preference(db, user_id=user, freq=freq, time=time, now=datetime(2026, 1, 1, tzinfo=UTC))


def with_open_task(db: Database, due: str = "2026-11-23", user: str = USER) -> None:
    make_task(db, creator=user, group_id=None, description="Pagar la luz", due=due)


def tick(db: Database, now: datetime, mode: GatingMode = GatingMode.OFF, since: datetime | None = None) -> TickResult:
    return reminder_tick(db, mode, now=now, zone=MADRID, grace_minutes=60, max_attempts=6, since=since)


def queued(db: Database) -> list[tuple[str, str, datetime]]:
    with db.read() as conn:
        rows = conn.execute(select(outbound_queue).order_by(outbound_queue.c.id)).all()
    return [(row.chat_id, json.loads(row.payload)["text"], row.created_at) for row in rows]


def outcomes(db: Database) -> list[tuple[str, str]]:
    with db.read() as conn:
        return [(r.slot, r.outcome) for r in conn.execute(select(reminder_deliveries))]


def test_a_due_reminder_queues_the_digest_as_a_direct_message(db: Database) -> None:
    prefer(db)
    with_open_task(db)
    assert tick(db, MONDAY_0830 + timedelta(seconds=2)) == TickResult(sent=1)
    [(chat, text, _)] = queued(db)
    assert chat == f"{USER}@s.whatsapp.net"
    assert "Hoy (1):\n• #1 Pagar la luz" in text
    assert outcomes(db) == [("2026-11-23T07:30Z", "sent")]


def test_nothing_is_due_a_minute_before_the_chosen_time(db: Database) -> None:
    prefer(db)
    with_open_task(db)
    assert tick(db, MONDAY_0830 - MINUTE) == TickResult()
    assert queued(db) == []


def test_a_reminder_missed_at_its_time_is_sent_late_inside_the_grace_window(db: Database) -> None:
    prefer(db)
    with_open_task(db)
    assert tick(db, MONDAY_0830 + 50 * MINUTE) == TickResult(late=1)
    assert outcomes(db) == [("2026-11-23T07:30Z", "late")]


def test_a_reminder_past_the_grace_window_is_not_sent_nor_recorded(db: Database) -> None:
    prefer(db)
    with_open_task(db)
    assert tick(db, MONDAY_0830 + 61 * MINUTE) == TickResult()
    assert queued(db) == []
    assert outcomes(db) == []


def test_nothing_open_sends_nothing_but_records_the_slot(db: Database) -> None:
    prefer(db)
    assert tick(db, MONDAY_0830) == TickResult(skipped=1)
    assert queued(db) == []
    assert outcomes(db) == [("2026-11-23T07:30Z", "empty")]


def test_the_unassigned_tasks_of_the_users_groups_are_counted(db: Database) -> None:
    prefer(db)
    make_group(db, "100@g.us", members=(USER,))
    make_task(db, creator="222", group_id="100@g.us", due="2026-11-24")
    assert tick(db, MONDAY_0830, GatingMode.ENFORCE) == TickResult(sent=1)
    assert "Sin asignar en tus grupos: 1." in queued(db)[0][1]


def test_a_restart_in_the_grace_window_sends_nothing_again(db: Database) -> None:
    prefer(db)
    with_open_task(db)
    tick(db, MONDAY_0830)
    # a new engine on the same database, as after a restart
    restarted = Database.from_url(db.engine.url.render_as_string(hide_password=False))
    try:
        assert [tick(restarted, MONDAY_0830 + k * MINUTE) for k in range(61)] == [TickResult()] * 61
    finally:
        restarted.dispose()
    assert len(queued(db)) == 1


def test_a_stale_plan_still_sends_once_because_the_claim_decides(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefer(db)
    with_open_task(db)
    tick(db, MONDAY_0830)
    monkeypatch.setattr(reminder_service, "undelivered_users", lambda conn, *, time, freqs, slot:
                        undelivered_users(conn, time=time, freqs=freqs, slot="not-yet-recorded"))
    assert tick(db, MONDAY_0830 + MINUTE) == TickResult()
    assert len(queued(db)) == 1


def tick_every_minute(db: Database, start: datetime, end: datetime) -> list[datetime]:
    """Tick each minute from ``start`` to ``end`` as the running job does; the instants something was queued at."""
    fired, now, since = [], start, None
    while now <= end:
        if tick(db, now, since=since).queued:
            fired.append(now)
        now, since = now + MINUTE, now
    return fired


def test_on_the_spring_forward_a_time_in_the_gap_fires_once_at_the_end_of_the_gap(db: Database) -> None:
    prefer(db, time="02:30")
    with_open_task(db, due="2026-03-29")
    fired = tick_every_minute(db, datetime(2026, 3, 28, 23, 30, tzinfo=UTC), datetime(2026, 3, 29, 3, 0, tzinfo=UTC))
    assert fired == [datetime(2026, 3, 29, 1, 0, tzinfo=UTC)]  # 03:00 CEST


def test_on_the_spring_forward_a_morning_reminder_keeps_its_local_time(db: Database) -> None:
    prefer(db)
    with_open_task(db, due="2026-03-29")
    fired = tick_every_minute(db, datetime(2026, 3, 29, 6, 0, tzinfo=UTC), datetime(2026, 3, 29, 8, 0, tzinfo=UTC))
    assert fired == [datetime(2026, 3, 29, 6, 30, tzinfo=UTC)]  # 08:30 CEST


def test_on_the_fall_back_a_time_in_the_repeated_hour_fires_once(db: Database) -> None:
    prefer(db, time="02:30")
    with_open_task(db, due="2026-10-25")
    fired = tick_every_minute(db, datetime(2026, 10, 24, 23, 30, tzinfo=UTC), datetime(2026, 10, 25, 3, 0, tzinfo=UTC))
    assert fired == [datetime(2026, 10, 25, 0, 30, tzinfo=UTC)]  # the first 02:30 (CEST)


def test_on_the_fall_back_a_morning_reminder_keeps_its_local_time(db: Database) -> None:
    prefer(db)
    with_open_task(db, due="2026-10-25")
    fired = tick_every_minute(db, datetime(2026, 10, 25, 6, 0, tzinfo=UTC), datetime(2026, 10, 25, 8, 0, tzinfo=UTC))
    assert fired == [datetime(2026, 10, 25, 7, 30, tzinfo=UTC)]  # 08:30 CET


def test_weekday_and_weekly_reminders_fire_only_on_their_days(db: Database) -> None:
    prefer(db, freq="weekdays", user="1")
    prefer(db, freq="weekly", user="2")
    for user in ("1", "2"):
        with_open_task(db, due="2026-11-28", user=user)
    saturday, monday = MONDAY_0830 - 2 * timedelta(days=1), MONDAY_0830
    assert tick(db, saturday) == TickResult()
    assert tick(db, monday) == TickResult(sent=2)
    assert tick(db, monday + timedelta(days=1)) == TickResult(sent=1)


def test_a_running_tick_looks_only_at_slots_due_since_the_last_completed_tick(db: Database) -> None:
    prefer(db, user="1")
    with_open_task(db, user="1")
    assert tick(db, MONDAY_0830) == TickResult(sent=1)
    prefer(db, user="2")  # chose 08:30 at 08:35: from the next slot on, while the process runs
    with_open_task(db, user="2")
    assert tick(db, MONDAY_0830 + 6 * MINUTE, since=MONDAY_0830 + 5 * MINUTE) == TickResult()
    assert tick(db, MONDAY_0830 + 6 * MINUTE, since=None) == TickResult(late=1)  # a fresh start catches up
