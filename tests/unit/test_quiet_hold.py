"""Quiet hours and away in what the bot starts (SPEC section 25): digests and notices held inside the window and
released merged, once, when it ends, whatever the number of runs; the away get no digest. The clock is passed."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from taskcore.access import GatingMode
from taskcore.chores.quiet import QuietHours
from taskcore.services import preferences, quiet
from taskcore.services.outreach import HELD, start_message
from taskcore.services.reminder_tick import ReminderTick, TickResult
from taskcore.storage.db import Database
from taskcore.storage.schema import held_messages, outbound_queue, reminder_deliveries
from tasksvc_run import units
from tests.builders import make_task

MADRID = ZoneInfo("Europe/Madrid")
USER = "34600000001"  # a Spanish number: Europe/Madrid
MONDAY_0830 = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)  # 08:30 in Madrid
WINDOW_END = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # 09:00 in Madrid


def setup(db: Database, *, window: QuietHours | None = None, away: date | None = None) -> None:
    units.run(db, preferences.set_preference, user_id=USER, freq="daily", time="08:30",
              now=datetime(2026, 1, 1, tzinfo=UTC))
    make_task(db, creator=USER, group_id=None, description="Pagar la luz", due="2026-11-23")
    units.run(db, quiet.set_quiet, user_id=USER, window=window, now=datetime(2026, 1, 1, tzinfo=UTC))
    if away is not None:
        units.run(db, quiet.set_away, user_id=USER, until=away, today=date(2026, 11, 22),
                  now=datetime(2026, 1, 1, tzinfo=UTC))


def tick(db: Database, now: datetime) -> TickResult:
    return units.run_batched(db, ReminderTick(GatingMode.OFF, now=now, zone=MADRID, grace_minutes=60, max_attempts=6))


def release(db: Database, now: datetime) -> int:
    return units.run(db, quiet.release_held, now=now, max_attempts=6, default_language="es")


def queued(db: Database) -> list[tuple[str, str]]:
    with db.read() as conn:
        rows = conn.execute(select(outbound_queue).order_by(outbound_queue.c.id)).all()
    return [(row.chat_id, json.loads(row.payload)["text"]) for row in rows]


def held_count(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(held_messages)).scalar_one())


def notice(db: Database, now: datetime, text: str = "Aviso: la tarea #1 vence hoy") -> int | None:
    return db.transact(lambda conn: start_message(conn, user_id=USER, chat_id=f"{USER}@s.whatsapp.net", text=text,
                                                  label="notice", max_attempts=6, now=now, fallback=MADRID))


def test_a_digest_inside_quiet_hours_is_held_and_released_merged_once_after_the_window(db: Database) -> None:
    setup(db, window=QuietHours(time(7, 0), time(9, 0)))
    assert tick(db, MONDAY_0830) == TickResult(sent=1)
    assert queued(db) == []
    assert held_count(db) == 1
    assert notice(db, MONDAY_0830 + timedelta(minutes=10)) == HELD
    assert release(db, WINDOW_END - timedelta(seconds=1)) == 0
    assert release(db, WINDOW_END) == 1
    assert release(db, WINDOW_END) == 0  # a second instance, or the next minute: nothing left, nothing twice
    [(chat, text)] = queued(db)
    assert chat == f"{USER}@s.whatsapp.net"
    assert text.startswith("🔕 Mientras estabas en horas de silencio:\n\n")
    assert "Pagar la luz" in text
    assert text.endswith("Aviso: la tarea #1 vence hoy")
    assert held_count(db) == 0


def test_two_bots_releasing_on_one_database_send_once(db: Database) -> None:
    setup(db, window=QuietHours(time(7, 0), time(9, 0)))
    tick(db, MONDAY_0830)
    tick(db, MONDAY_0830)  # the second instance's tick: the slot is claimed already, nothing held twice
    assert held_count(db) == 1
    assert [release(db, WINDOW_END + timedelta(minutes=1)) for _ in range(2)] == [1, 0]
    assert len(queued(db)) == 1


def test_outside_quiet_hours_messages_go_at_once(db: Database) -> None:
    setup(db, window=QuietHours(time(22, 0), time(7, 0)))
    assert tick(db, MONDAY_0830) == TickResult(sent=1)
    assert notice(db, MONDAY_0830) not in (None, HELD)
    assert len(queued(db)) == 2
    assert held_count(db) == 0


def test_quiet_hours_across_midnight_hold_until_the_morning(db: Database) -> None:
    setup(db, window=QuietHours(time(22, 0), time(7, 30)))
    assert notice(db, datetime(2026, 11, 22, 23, 0, tzinfo=UTC)) == HELD  # 00:00 in Madrid
    assert release(db, datetime(2026, 11, 23, 6, 29, tzinfo=UTC)) == 0
    assert release(db, datetime(2026, 11, 23, 6, 30, tzinfo=UTC)) == 1  # 07:30 in Madrid


def test_an_away_person_gets_no_digest_through_the_date_and_again_after(db: Database) -> None:
    setup(db, away=date(2026, 11, 23))
    assert tick(db, MONDAY_0830) == TickResult(skipped=1)
    assert queued(db) == []
    with db.read() as conn:
        assert conn.execute(select(reminder_deliveries.c.outcome)).scalars().all() == ["empty"]
    assert tick(db, MONDAY_0830 + timedelta(days=1)) == TickResult(sent=1)


def test_two_instances_releasing_at_the_same_moment_send_once(db: Database) -> None:
    setup(db, window=QuietHours(time(7, 0), time(9, 0)))
    for minutes in range(5):
        notice(db, MONDAY_0830 + timedelta(minutes=minutes), text=f"aviso {minutes}")
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda _: release(db, WINDOW_END), range(2)))
    assert sorted(results) == [0, 1]
    [(_, text)] = queued(db)
    assert text.count("aviso") == 5
