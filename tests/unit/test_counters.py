"""Metric counters kept in the database add up per name and label."""

from __future__ import annotations

from taskcore.services.counters import read_counters
from taskcore.storage.counters import bump_counter
from taskcore.storage.db import Database
from tasksvc_run import units


def test_counters_add_up_across_calls(db: Database) -> None:
    with db.write() as conn:
        bump_counter(conn, "reactions_enqueued_total", "check")
    with db.write() as conn:
        bump_counter(conn, "reactions_enqueued_total", "check", by=4)
    assert units.look(db, read_counters) == {("reactions_enqueued_total", "check"): 5}


def test_counters_are_kept_per_name_and_label(db: Database) -> None:
    with db.write() as conn:
        bump_counter(conn, "reactions_enqueued_total", "check")
        bump_counter(conn, "reactions_enqueued_total", "robot", by=2)
        bump_counter(conn, "sync_runs_total")
    assert units.look(db, read_counters) == {
        ("reactions_enqueued_total", "check"): 1,
        ("reactions_enqueued_total", "robot"): 2,
        ("sync_runs_total", ""): 1,
    }


def test_no_counters_read_as_empty(db: Database) -> None:
    assert units.look(db, read_counters) == {}
