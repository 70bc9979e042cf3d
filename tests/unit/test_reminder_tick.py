"""One reminder tick over the database, with the clock frozen: on time, late, past the grace window, across the
2026 DST changes in Europe/Madrid, and never twice for a (user, slot)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import Connection, select

from taskcore.access import GatingMode
from taskcore.reminders.slots import SavedPreference
from taskcore.services import languages, preferences, zones
from taskcore.services import reminder_tick as reminder_service
from taskcore.services.reminder_tick import ReminderTick, TickResult
from taskcore.storage.db import Database
from taskcore.storage.reminders import due_preferences
from taskcore.storage.schema import outbound_queue, reminder_deliveries, user_preferences
from tasksvc_run import units
from tests.builders import make_group, make_task

MADRID = ZoneInfo("Europe/Madrid")
USER = "34600000001"
MONDAY_0830 = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)  # 08:30 CET
MINUTE = timedelta(minutes=1)


def prefer(db: Database, freq: str = "daily", time: str = "08:30", user: str = USER) -> None:
    units.run(db, preferences.set_preference, user_id=user, freq=freq, time=time, now=datetime(2026, 1, 1, tzinfo=UTC))


def with_open_task(db: Database, due: str = "2026-11-23", user: str = USER) -> None:
    make_task(db, creator=user, group_id=None, description="Pagar la luz", due=due)


def tick(db: Database, now: datetime, mode: GatingMode = GatingMode.OFF) -> TickResult:
    return units.run_batched(db, ReminderTick(mode, now=now, zone=MADRID, grace_minutes=60, max_attempts=6))


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


def test_a_plan_that_was_not_stored_still_sends_once_because_the_claim_decides(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefer(db)
    with_open_task(db)
    monkeypatch.setattr(reminder_service, "plan_next", lambda conn, plans: None)  # as if its write were lost
    assert tick(db, MONDAY_0830) == TickResult(sent=1)
    assert tick(db, MONDAY_0830 + MINUTE) == TickResult()
    assert len(queued(db)) == 1


def tick_every_minute(db: Database, start: datetime, end: datetime) -> list[datetime]:
    """Tick each minute from ``start`` to ``end`` as the running job does; the instants something was queued at."""
    fired, now = [], start
    while now <= end:
        if tick(db, now).queued:
            fired.append(now)
        now += MINUTE
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


def next_looks(db: Database) -> dict[str, datetime | None]:
    with db.read() as conn:
        return {r.user_id: r.next_due_at for r in conn.execute(select(user_preferences))}


def test_a_preference_saved_after_its_time_gets_that_slot_late_inside_the_grace(db: Database) -> None:
    prefer(db, user="1")
    with_open_task(db, user="1")
    assert tick(db, MONDAY_0830) == TickResult(sent=1)
    units.run(db, preferences.set_preference, user_id="2", freq="daily", time="08:30", now=MONDAY_0830 + 5 * MINUTE)
    with_open_task(db, user="2")
    assert tick(db, MONDAY_0830 + 6 * MINUTE) == TickResult(late=1)
    assert tick(db, MONDAY_0830 + 7 * MINUTE) == TickResult()
    assert tick(db, MONDAY_0830 + timedelta(days=1)) == TickResult(sent=2)


def test_each_tick_stores_the_next_slot_of_the_rows_it_looked_at_and_reads_no_others(db: Database) -> None:
    prefer(db, user="1")
    prefer(db, user="2", time="21:00")
    prefer(db, user="3", freq="off")
    tick(db, MONDAY_0830)
    assert next_looks(db) == {"1": MONDAY_0830 + timedelta(days=1), "2": datetime(2026, 11, 23, 20, 0, tzinfo=UTC),
                              "3": None}
    with db.write() as conn:  # a row the tick must not read before its time: it would be planned again
        conn.execute(user_preferences.update().where(user_preferences.c.user_id == "2").values(time="09:00"))
    tick(db, MONDAY_0830 + MINUTE)
    assert next_looks(db)["2"] == datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


def test_a_user_in_bogota_gets_the_reminder_at_her_0830_with_her_today(db: Database) -> None:
    units.run(db, zones.set_time_zone, user_id="1", name="America/Bogota", fallback=MADRID,
              now=datetime(2026, 1, 1, tzinfo=UTC))
    prefer(db, user="1")
    with_open_task(db, due="2026-11-23", user="1")
    bogota_0830 = datetime(2026, 11, 23, 13, 30, tzinfo=UTC)
    assert tick_every_minute(db, MONDAY_0830 - MINUTE, bogota_0830 + MINUTE) == [bogota_0830]
    assert "Hoy (1):\n• #1 Pagar la luz" in queued(db)[0][1]


def test_many_users_are_read_in_chunks_each_once(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reminder_service, "READ_CHUNK", 2)
    monkeypatch.setattr(reminder_service, "CHUNK", 1)
    for user in ("1", "2", "3", "4", "5"):
        prefer(db, user=user)
        with_open_task(db, user=user)
    assert tick(db, MONDAY_0830) == TickResult(sent=5)
    assert tick(db, MONDAY_0830 + MINUTE) == TickResult()


def test_a_read_shorter_than_a_chunk_is_the_last_of_the_tick(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reminder_service, "READ_CHUNK", 2)
    reads: list[int] = []

    def counted(conn: Connection, **kwargs: Any) -> list[SavedPreference]:
        rows = due_preferences(conn, **kwargs)
        reads.append(len(rows))
        return rows

    monkeypatch.setattr(reminder_service, "due_preferences", counted)
    for user in ("1", "2", "3"):
        prefer(db, user=user)
        with_open_task(db, user=user)
    assert tick(db, MONDAY_0830) == TickResult(sent=3)
    assert reads == [2, 1]
    assert len(units.look(db, reminder_service.plan_due, now=MONDAY_0830 + MINUTE, zone=MADRID, grace_minutes=60)) == 0
    assert reads == [2, 1, 0]


def test_the_plan_alone_lists_what_is_due_without_recording_anything(db: Database) -> None:
    prefer(db, user="1")
    prefer(db, user="2", time="09:00")
    plans = units.look(db, reminder_service.plan_due, now=MONDAY_0830, zone=MADRID, grace_minutes=60)
    assert [(p.row.user_id, p.due is not None) for p in plans] == [("1", True), ("2", False)]
    assert outcomes(db) == []


BRAZILIAN, BRITISH = "5511987654321", "447911123456"


def test_the_digest_is_in_each_readers_language_from_their_number(db: Database) -> None:
    for user in (USER, BRAZILIAN, BRITISH):
        prefer(db, user=user)
        with_open_task(db, user=user)
        units.run(db, zones.set_time_zone, user_id=user, name="Europe/Madrid", fallback=MADRID,
                  now=MONDAY_0830 - 9 * MINUTE)
    assert tick(db, MONDAY_0830) == TickResult(sent=3)
    texts = {chat.split("@")[0]: text for chat, text, _ in queued(db)}
    assert texts[USER].startswith("⏰ Recordatorio de tus tareas\n\nHoy (1):\n• #")
    assert texts[BRAZILIAN].startswith("⏰ Lembrete das suas tarefas\n\nHoje (1):\n• #")
    assert texts[BRITISH].startswith("⏰ Your tasks reminder\n\nToday (1):\n• #")


def test_a_chosen_language_wins_over_the_numbers_and_the_default_covers_the_rest(db: Database) -> None:
    unknown = "99912345"  # no country's number: DEFAULT_LANGUAGE
    for user in (BRAZILIAN, unknown):
        prefer(db, user=user)
        with_open_task(db, user=user)
        units.run(db, zones.set_time_zone, user_id=user, name="Europe/Madrid", fallback=MADRID,
                  now=MONDAY_0830 - 9 * MINUTE)
    units.run(db, languages.choose_language, user_id=BRAZILIAN, lang="en", default="es", now=MONDAY_0830 - 9 * MINUTE)
    units.run_batched(db, ReminderTick(GatingMode.OFF, now=MONDAY_0830, zone=MADRID, grace_minutes=60,
                                       max_attempts=6, default_language="pt"))
    texts = {chat.split("@")[0]: text for chat, text, _ in queued(db)}
    assert texts[BRAZILIAN].startswith("⏰ Your tasks reminder")
    assert texts[unknown].startswith("⏰ Lembrete das suas tarefas")
