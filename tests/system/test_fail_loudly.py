"""A start that fails loudly (SPEC sections 16 and 17): a schema error stops the process with one clear line and a
known exit status, never a traceback loop; the supervisor says which child failed and why."""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest

from tasksvc_run import exits
from tests.system.unit import Unit, chat_message, unit_env

ONE_MINUTE = 60


def migrated_without(tmp: Path, table: str) -> dict[str, str]:
    """The environment of a unit whose database was migrated and then lost ``table``."""
    env = unit_env(tmp)
    assert Unit("migrate", env, tmp).start(wait_for=None).process.wait(timeout=ONE_MINUTE) == 0  # type: ignore[union-attr]
    with closing(sqlite3.connect(env["DB_PATH"])) as conn:
        conn.execute(f"DROP TABLE {table}")
    return env


def error_lines(unit: Unit) -> list[str]:
    return [line for line in unit.log().splitlines() if "level=error" in line or "level=critical" in line]


def test_the_bot_refuses_a_schema_that_lacks_a_table(tmp_path: Path) -> None:
    bot = Unit("bot", migrated_without(tmp_path, "outbound_queue"), tmp_path).start(wait_for=None)
    assert bot.process is not None
    assert bot.process.wait(timeout=ONE_MINUTE) == exits.SCHEMA
    errors = error_lines(bot)
    assert len(errors) == 1, bot.log()
    assert "outbound_queue" in errors[0]
    assert "Traceback" not in bot.log()


def test_migrate_fails_when_the_schema_stays_incomplete(tmp_path: Path) -> None:
    migrate = Unit("migrate", migrated_without(tmp_path, "web_sessions"), tmp_path).start(wait_for=None)
    assert migrate.process is not None
    assert migrate.process.wait(timeout=ONE_MINUTE) == exits.SCHEMA
    assert "web_sessions" in migrate.log()


def test_the_supervisor_names_the_child_and_the_reason(tmp_path: Path) -> None:
    unit = Unit("run", migrated_without(tmp_path, "reminder_deliveries"), tmp_path).start(wait_for=None)
    assert unit.process is not None
    assert unit.process.wait(timeout=ONE_MINUTE) == exits.SCHEMA  # the child's own status, not a bare 1
    said = [line for line in unit.log().splitlines() if "proc=run" in line and "level=error" in line]
    assert len(said) == 1, unit.log()
    assert "bot exited during start: the database schema is not what this release needs" in said[0]


def test_the_unit_exits_with_the_status_of_a_child_that_refused_to_start(tmp_path: Path) -> None:
    env = unit_env(tmp_path)
    assert Unit("migrate", env, tmp_path).start(wait_for=None).process.wait(timeout=ONE_MINUTE) == 0  # type: ignore[union-attr]
    with closing(sqlite3.connect(env["DB_PATH"])) as conn, conn:  # a migration history of a newer release
        conn.execute("INSERT INTO schema_migrations (version, name, checksum, applied_at) "
                     "SELECT version + 900, name || '-newer', checksum, applied_at FROM schema_migrations LIMIT 1")
    unit = Unit("run", env, tmp_path).start(wait_for=None)
    assert unit.process is not None
    assert unit.process.wait(timeout=ONE_MINUTE) == exits.SCHEMA, unit.log()
    assert "Traceback" not in unit.log()


def test_a_table_lost_while_serving_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    env = unit_env(tmp_path)
    bot = Unit("bot", env, tmp_path)
    bot.env = {**env, "PORT": env["BOT_PORT"]}  # talk to the bot directly
    bot.start(wait_for="/metrics")
    assert bot.process is not None
    with closing(sqlite3.connect(env["DB_PATH"])) as conn:
        conn.execute("DROP TABLE inbound_messages")
    event = chat_message("/t nueva Comprar pan", sender="34600000001", message_id="LOST1")
    request = urllib.request.Request(bot.url("/webhook"), data=json.dumps(event).encode(), method="POST",  # noqa: S310
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:  # not acknowledged: the gateway delivers it again later
        urllib.request.urlopen(request, timeout=5).close()  # noqa: S310 - loopback
    refused.value.close()
    assert refused.value.code == 503
    assert bot.process.wait(timeout=ONE_MINUTE) == exits.SCHEMA
    critical = [line for line in bot.log().splitlines() if "level=critical" in line]
    assert len(critical) == 1, bot.log()
    assert "no such table: inbound_messages" in critical[0]
    assert bot.log().count("Traceback") == 0
    time.sleep(0)  # nothing else to wait for: the process is gone
