"""A store that opens but refuses writes (SPEC section 40): told apart from a busy one by the driver's own words, said
once for the whole process whatever the number of loops that meet it, then once an hour, and its end once. The
refusals are SQLite's real ones: a read-only connection and a full database (its page limit reached), both of which
refuse root too."""

from __future__ import annotations

import logging
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from taskcore.services import is_unavailable
from taskcore.storage.db import Database
from tasksvc_run.outage import FatalStop, Outage
from tasksvc_run.store_health import PROBLEM, REMIND_EVERY, StoreHealth, refusal_reason


def refused_by(pragma: str, folder: Path) -> OperationalError:
    """The error SQLAlchemy raises for a write on a SQLite connection set up by ``pragma``."""
    db = Database.from_url(f"sqlite:///{folder / 'tasks.db'}")
    try:
        db.transact(lambda conn: conn.execute(text("CREATE TABLE t (x TEXT)")))
        with db.engine.connect() as conn:
            conn.exec_driver_sql(pragma)
            with pytest.raises(OperationalError) as raised:
                conn.execute(text("INSERT INTO t SELECT hex(randomblob(4000)) FROM (SELECT 1 UNION SELECT 2)"))
            conn.rollback()
        return raised.value
    finally:
        db.dispose()


@pytest.fixture
def read_only(tmp_path: Path) -> OperationalError:
    return refused_by("PRAGMA query_only = ON", tmp_path / "read-only")


@pytest.fixture
def full(tmp_path: Path) -> OperationalError:
    return refused_by("PRAGMA max_page_count = 3", tmp_path / "full")


@pytest.fixture
def clock() -> list[float]:
    return [1000.0]


def test_a_read_only_store_and_a_full_one_are_refusals_and_a_busy_one_is_not(
    read_only: OperationalError, full: OperationalError
) -> None:
    assert refusal_reason(read_only) == "attempt to write a readonly database"
    assert refusal_reason(full) == "database or disk is full"
    busy = OperationalError("UPDATE", {}, sqlite3.OperationalError("database is locked"))
    assert refusal_reason(busy) is None
    assert is_unavailable(busy)


def test_every_loop_that_meets_a_refusal_makes_one_line_for_the_process(
    read_only: OperationalError, caplog: pytest.LogCaptureFixture, clock: list[float]
) -> None:
    store = StoreHealth("/srv/tasks.db", "chown it", monotonic=lambda: clock[0])
    fatal = FatalStop(store=store)
    loops = [Outage(where, fatal) for where in ("outbound", "webhook", "scheduler:reminders", "watchdog")]
    with caplog.at_level(logging.INFO):
        for _ in range(100):  # a minute of every loop failing every few seconds
            for loop in loops:
                loop.failed(read_only)
    assert [r.getMessage() for r in caplog.records] == [f"{PROBLEM}: /health answers 503 until it does"]
    record = caplog.records[0]
    assert (record.database, record.reason, record.fix) == (  # type: ignore[attr-defined]
        "/srv/tasks.db", "attempt to write a readonly database", "chown it")
    assert record.exc_info is None
    assert store.refusing


def test_a_refusal_that_lasts_is_said_again_once_an_hour(
    full: OperationalError, caplog: pytest.LogCaptureFixture, clock: list[float]
) -> None:
    store = StoreHealth(monotonic=lambda: clock[0])
    loop = Outage("outbound", FatalStop(store=store))
    with caplog.at_level(logging.INFO):
        for _ in range(2 * 720 + 1):  # two hours of failures every 5 s, both ends included
            loop.failed(full)
            clock[0] += 5
    assert [r.getMessage() for r in caplog.records] == [
        f"{PROBLEM}: /health answers 503 until it does", f"{PROBLEM}, still", f"{PROBLEM}, still"]
    assert REMIND_EVERY == 3600


def test_health_answers_503_naming_the_database_until_a_write_is_taken(
    read_only: OperationalError, caplog: pytest.LogCaptureFixture
) -> None:
    store = StoreHealth("/srv/tasks.db", "chown it", now=lambda: datetime(2026, 12, 6, 9, tzinfo=UTC))
    assert store.answer() == (200, {"status": "ok"})
    Outage("outbound", FatalStop(store=store)).failed(read_only)
    status, body = store.answer()
    assert status == 503
    assert body["database"] == "/srv/tasks.db"
    assert body["reason"] == "attempt to write a readonly database"
    assert body["since"] == "2026-12-06T09:00:00+00:00"
    caplog.clear()
    with caplog.at_level(logging.INFO):
        store.took_writes()
        store.took_writes()
    assert store.answer() == (200, {"status": "ok"})
    assert [r.getMessage() for r in caplog.records] == ["the database takes writes again"]


def test_a_loop_whose_refused_work_goes_through_ends_the_store_s_refusal_with_one_line(
    full: OperationalError, caplog: pytest.LogCaptureFixture
) -> None:
    fatal = FatalStop()
    loops = [Outage("outbound", fatal), Outage("webhook", fatal)]
    for loop in loops:
        loop.failed(full)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        for loop in loops:
            loop.succeeded()
    assert not any(loop.active for loop in loops)
    assert not fatal.store.refusing
    assert [r.getMessage() for r in caplog.records] == ["the database takes writes again"]
