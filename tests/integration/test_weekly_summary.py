"""The weekly summary (SPEC section 25): set from the group, posted by the scheduler job at its moment (an injected
``now``, no waiting), in the group's language, and once even when two bot instances run the tick together."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from taskcore.services import summaries
from taskcore.settings import load_settings
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.metrics import Metrics
from tasksvc_run.schedulers import JobContext
from tasksvc_run.schedulers.summaries import WeeklySummaryJob
from tests.builders import GROUP, NOW, make_group, wa_text
from tests.chat_support import queued, run, texts
from tests.fakes.clock import FrozenClock

ANA, LUIS = "34600111111", "34600222222"
MADRID = ZoneInfo("Europe/Madrid")
SUNDAY_20 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)  # Sunday 29/11 20:00 in Madrid


@pytest.fixture
def group(db: Database) -> str:
    gid = make_group(db, GROUP, name="Piso", members=(ANA, LUIS))
    run(db, wa_text("hola", sender=LUIS, push_name="Luis"))
    run(db, wa_text("hola", sender=ANA, push_name="Ana"))
    return gid


def say(db: Database, text: str, *, now: datetime = NOW, **kw: Any) -> str:
    run(db, wa_text(text, **kw), now=now)
    return texts(db)[-1]


def stored(db: Database) -> Any:
    g = schema.groups
    with db.read() as conn:
        return conn.execute(select(g.c.summary_weekday, g.c.summary_time, g.c.summary_next_at)
                            .where(g.c.id == GROUP)).one()


def summaries_queued(db: Database) -> list[str]:
    return [job.text for job in queued(db) if job.label == summaries.SUMMARY_LABEL]


def test_resumen_semanal_sets_the_moment_and_no_stops_it(db: Database, group: str) -> None:
    reply = say(db, "/t resumen semanal domingo 20:00")
    assert reply == f"@{ANA} Resumen semanal: cada domingo a las 20:00 (Europe/Madrid); el primero, el 22/11."
    assert tuple(stored(db)) == (6, "20:00", datetime(2026, 11, 22, 19, 0, tzinfo=UTC))
    assert say(db, "/t summary weekly no") == f"@{ANA} Resumen semanal desactivado."
    assert tuple(stored(db)) == (None, None, None)


def test_resumen_semanal_is_for_groups_and_needs_a_day_and_time(db: Database, group: str) -> None:
    assert say(db, "/t resumen semanal lunes 09:00", group=None) == "El resumen semanal se programa en un grupo."
    assert "Día u hora no válidos" in say(db, "/t resumen semanal lunes 25:00")


def context(db: Database, now: datetime) -> JobContext:
    return JobContext(load_settings({"NODE_ENV": "test"}), db, FrozenClock(now), Metrics(), None)


async def test_the_job_posts_at_the_moment_not_before_and_moves_a_week(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar !3", sender=LUIS, push_name="Luis")  # Luis's task Ana does: her points count
    run(db, wa_text("/t x 1"), now=datetime(2026, 11, 25, 9, 0, tzinfo=UTC))
    say(db, "/t resumen semanal domingo 20:00", now=datetime(2026, 11, 26, 9, 0, tzinfo=UTC))
    assert await WeeklySummaryJob(context(db, SUNDAY_20 - timedelta(minutes=1)))() == 0
    assert await WeeklySummaryJob(context(db, SUNDAY_20 + timedelta(seconds=30)))() == 1
    (text,) = summaries_queued(db)
    assert text == "Resumen de la semana (23/11–29/11):\n• Ana: 1 hecha, 3 puntos\n• Luis: 0 hechas, 0 puntos"
    assert stored(db).summary_next_at == SUNDAY_20 + timedelta(days=7)
    assert await WeeklySummaryJob(context(db, SUNDAY_20 + timedelta(minutes=1)))() == 0


async def test_a_monday_post_tells_about_last_week_in_the_groups_language(db: Database, group: str) -> None:
    say(db, "/t idioma grupo en")  # the group's (SPEC section 39; a member's /t idioma en is theirs alone)
    say(db, "/t resumen semanal lunes 09:00")
    monday = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
    assert await WeeklySummaryJob(context(db, monday))() == 1
    # an English reader: no day/month doubt (SPEC section 39)
    assert summaries_queued(db)[0].startswith("Summary of the week (Nov 16–Nov 22):")


def test_two_instances_at_once_queue_the_summary_once(db: Database, group: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    say(db, "/t resumen semanal domingo 20:00")
    other = Database.from_url(db.engine.url.render_as_string(hide_password=False))
    both_read = threading.Barrier(2, timeout=10)
    reading = summaries.q.due_weekly

    def read_then_wait(conn: Any, **kw: Any) -> Any:
        found = reading(conn, **kw)
        both_read.wait()  # both instances have read the due group before either moves it
        return found

    monkeypatch.setattr(summaries.q, "due_weekly", read_then_wait)
    tick = {"now": SUNDAY_20, "zone": MADRID, "default_language": "es", "max_attempts": 6}
    try:
        with ThreadPoolExecutor(2) as pool:
            counts = list(pool.map(lambda base: units.run_batched(base, summaries.WeeklyTick(**tick)), [db, other]))
    finally:
        other.dispose()
    assert sorted(counts) == [0, 1]
    assert len(summaries_queued(db)) == 1
    assert stored(db).summary_next_at == SUNDAY_20 + timedelta(days=7)
