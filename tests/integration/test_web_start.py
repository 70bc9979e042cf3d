"""Starting the web process: it waits for the bot's migrations and never migrates (R4); the development seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, text

from taskcore.errors import SchemaError
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database
from tasksvc_run import exits
from tasksvc_run.cli import COMMANDS
from tasksvc_run.web.serve import DEV_FALLBACK_USER, SchemaNotReady, autoseed, run_web, wait_for_schema
from tests.builders import NOW
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import ME, web_settings


class FakeTime:
    """A monotonic clock moved only by sleep, which can also run a side effect on a given call."""

    def __init__(self, on_sleep: int = 0, effect: object = None) -> None:
        self.now, self.sleeps, self.on_sleep, self.effect = 0.0, 0, on_sleep, effect

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.sleeps += 1
        if self.sleeps == self.on_sleep and callable(self.effect):
            self.effect()

    def monotonic(self) -> float:
        return self.now


def test_a_migrated_database_is_ready_at_once(db: Database) -> None:
    fake = FakeTime()
    wait_for_schema(db, sleep=fake.sleep, monotonic=fake.monotonic)
    assert fake.sleeps == 0


def test_the_web_waits_for_the_bot_to_migrate(empty_db: Database) -> None:
    fake = FakeTime(on_sleep=3, effect=lambda: migrator.migrate(empty_db))
    wait_for_schema(empty_db, timeout=60, interval=0.5, sleep=fake.sleep, monotonic=fake.monotonic)
    assert fake.sleeps == 3


def test_the_wait_is_bounded_and_the_web_never_migrates(empty_db: Database) -> None:
    fake = FakeTime()
    with pytest.raises(SchemaNotReady):
        wait_for_schema(empty_db, timeout=5, interval=0.5, sleep=fake.sleep, monotonic=fake.monotonic)
    assert fake.sleeps == 10
    assert not migrator.tables_exist(empty_db, ["web_tokens", "web_sessions"])


def test_a_history_this_code_does_not_know_stops_the_wait_at_once(db: Database) -> None:
    db.transact(lambda conn: conn.execute(text(
        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, 'future', 'x', :t)"),
        {"t": NOW.replace(tzinfo=None)}))
    with pytest.raises(SchemaError):
        wait_for_schema(db, sleep=FakeTime().sleep)


def test_the_web_process_exits_non_zero_when_the_schema_never_comes(tmp_path: Path) -> None:
    settings = web_settings(DB_PATH=str(tmp_path / "tasks.db"))
    assert run_web(settings, wait_seconds=0.2) == exits.SCHEMA


def _task_count(db: Database) -> int:
    with db.read() as conn:
        return len(conn.execute(select(schema.tasks.c.id)).all())


def test_development_with_autoseed_seeds_an_empty_database_for_the_default_user(db: Database) -> None:
    settings = web_settings(NODE_ENV="development", DEV_AUTOSEED_DB="true", DEV_DEFAULT_USER=ME)
    autoseed(settings, db, FrozenClock(current=NOW))
    with db.read() as conn:
        assert conn.execute(select(schema.users.c.id).where(schema.users.c.id == ME)).scalar_one() == ME
    assert _task_count(db) > 30


def test_without_a_default_user_the_seed_uses_a_fixed_development_id(db: Database) -> None:
    autoseed(web_settings(NODE_ENV="development", DEV_AUTOSEED_DB="true"), db, FrozenClock(current=NOW))
    with db.read() as conn:
        assert conn.execute(select(schema.users.c.id).where(schema.users.c.id == DEV_FALLBACK_USER)).first()


@pytest.mark.parametrize("env", [{"NODE_ENV": "production", "DEV_AUTOSEED_DB": "true"},
                                 {"NODE_ENV": "development", "DEV_AUTOSEED_DB": "false"}])
def test_no_seed_outside_development_or_without_autoseed(db: Database, env: dict[str, str]) -> None:
    autoseed(web_settings(**env), db, FrozenClock(current=NOW))
    assert _task_count(db) == 0


def test_the_command_line_has_a_web_command() -> None:
    assert "web" in COMMANDS

