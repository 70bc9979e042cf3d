"""Background loops and database failures (SPEC section 17): one line when an outage starts, one when it ends; a
schema error stops the process once; a bug keeps its traceback."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from sqlalchemy.exc import OperationalError

from taskcore.errors import SchemaError
from tasksvc_run import exits
from tasksvc_run.outage import FatalStop, Outage

BUSY = OperationalError("UPDATE outbound_queue", {"secret": "x"}, sqlite3.OperationalError("database is locked"))
FULL = OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))
NO_TABLE = OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: outbound_queue"))


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


def test_an_outage_is_logged_once_when_it_starts_and_once_when_it_ends(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage("outbound", FatalStop())
    for _ in range(50):
        outage.failed(BUSY)
    assert outage.active
    for _ in range(5):
        outage.succeeded()
    assert not outage.active
    assert lines(caplog) == ["database unavailable; retrying quietly until it is back", "database available again"]
    assert caplog.records[0].reason == "database is locked"  # type: ignore[attr-defined]
    assert "secret" not in caplog.text
    assert all(record.exc_info is None for record in caplog.records)


def test_a_second_outage_is_logged_again(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage("outbound", FatalStop())
    for _ in range(2):
        outage.failed(BUSY)
        outage.succeeded()
    assert len(caplog.records) == 4


def test_a_missing_table_stops_the_process_once_with_one_line(caplog: pytest.LogCaptureFixture) -> None:
    stops: list[str] = []
    fatal = FatalStop(lambda: stops.append("stop"))
    first, second = Outage("outbound", fatal), Outage("scheduler:reminders", fatal)
    first.failed(NO_TABLE)
    second.failed(NO_TABLE)
    first.failed(SchemaError("the database lacks table(s) tasks after migrating"))
    assert stops == ["stop"]
    assert fatal.reason == "no such table: outbound_queue"
    assert [r.levelno for r in caplog.records] == [logging.CRITICAL]
    assert not first.active


def test_any_other_failure_is_a_bug_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage("outbound", FatalStop(lambda: pytest.fail("a bug must not stop the process")))
    outage.failed(KeyError("payload"), what="outbound: claiming jobs failed")
    assert lines(caplog) == ["outbound: claiming jobs failed"]
    assert caplog.records[0].exc_info is not None
    assert not outage.active


@pytest.mark.parametrize(("code", "words"), [
    (exits.SCHEMA, "schema"), (exits.CONFIG, "configuration"), (exits.STORAGE, "cannot be used"),
    (-9, "killed by signal 9"), (77, "exit status 77")])
def test_the_supervisor_can_say_why_a_child_stopped(code: int, words: str) -> None:
    assert words in exits.reason(code)
