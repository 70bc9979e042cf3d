"""Every command finds its database or says so (SPEC section 40), and `restore` puts a checked backup in its place.

Measured before: `tasksvc forget` with no database printed a traceback and made an empty ``./data/tasks.db``; there
was no `restore`; `backup` replaced a file silently. The commands run as OS processes, as an operator runs them."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tasksvc_run import exits
from tests.system.unit import Unit, unit_env

ONE_MINUTE = 60
NEEDS_A_DATABASE = [["forget", "+34 600 11 22 33"], ["backup", "copy.db"], ["failed"], ["retry", "--all"],
                    ["export", "--group", "120363000000000000@g.us"]]


def tasksvc(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tasksvc_run", *args], env=env, cwd=cwd,  # noqa: S603
                          capture_output=True, text=True, timeout=ONE_MINUTE, check=False)


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.execute(sql))


def write(path: Path, sql: str) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(sql)


@pytest.fixture
def migrated(tmp_path: Path) -> tuple[dict[str, str], Path]:
    env = unit_env(tmp_path, DB_PATH=str(tmp_path / "data" / "tasks.db"))
    assert tasksvc("migrate", env=env, cwd=tmp_path).returncode == 0
    return env, Path(env["DB_PATH"])


@pytest.mark.parametrize("command", NEEDS_A_DATABASE, ids=lambda c: c[0])
def test_a_command_without_a_database_says_where_it_looked_and_makes_none(tmp_path: Path, command: list[str]) -> None:
    env = unit_env(tmp_path)
    del env["DB_PATH"]  # the default: DATA_DIR/tasks.db, DATA_DIR ./data
    done = tasksvc(*command, env=env, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr == (f"tasksvc {command[0]}: no database at {tmp_path}/data/tasks.db (DB_PATH, or "
                           "DATA_DIR/tasks.db when DB_PATH is unset); point DB_PATH at the file, e.g. "
                           "DB_PATH=tmp/tasks.db for the one of `tasksvc dev`\n")
    assert list(tmp_path.iterdir()) == []  # no ./data, no empty tasks.db


def test_backup_refuses_to_replace_a_file_unless_forced(migrated: tuple[dict[str, str], Path],
                                                        tmp_path: Path) -> None:
    env, _ = migrated
    (tmp_path / "copy.db").write_text("last week's backup")
    refused = tasksvc("backup", "copy.db", env=env, cwd=tmp_path)
    assert refused.returncode == 1
    assert refused.stderr == f"tasksvc backup: {tmp_path}/copy.db exists; nothing was written (--force replaces it)\n"
    assert (tmp_path / "copy.db").read_text() == "last week's backup"
    assert tasksvc("backup", "copy.db", "--force", env=env, cwd=tmp_path).returncode == 0
    assert ("schema_migrations",) in rows(tmp_path / "copy.db", "SELECT name FROM sqlite_master")


def test_restore_puts_the_backup_in_place_and_keeps_the_replaced_file(migrated: tuple[dict[str, str], Path],
                                                                      tmp_path: Path) -> None:
    env, live = migrated
    write(live, "INSERT INTO users (id, created_at) VALUES ('34600112233', '2026-11-26T03:00:00+00:00')")
    assert tasksvc("backup", "before.db", env=env, cwd=tmp_path).returncode == 0
    write(live, "DELETE FROM users")  # the mistake the backup undoes
    done = tasksvc("restore", "before.db", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [kept] = live.parent.glob("tasks.db.replaced-*")
    assert done.stdout == (f"tasksvc restore: {live} restored from {tmp_path}/before.db; the database it replaced "
                           f"is kept as {kept}\n")
    assert rows(live, "SELECT id FROM users") == [("34600112233",)]
    assert rows(kept, "SELECT id FROM users") == []
    assert tasksvc("migrate", env=env, cwd=tmp_path).returncode == 0


def test_restore_refuses_a_file_that_fails_its_integrity_check(migrated: tuple[dict[str, str], Path],
                                                               tmp_path: Path) -> None:
    env, live = migrated
    assert tasksvc("backup", "broken.db", env=env, cwd=tmp_path).returncode == 0
    data = bytearray((tmp_path / "broken.db").read_bytes())
    data[4096 * 3:4096 * 3 + 512] = b"\xff" * 512  # a page of the file overwritten
    (tmp_path / "broken.db").write_bytes(bytes(data))
    before = live.read_bytes()
    done = tasksvc("restore", "broken.db", env=env, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"tasksvc restore: {tmp_path}/broken.db not restored: ")
    assert done.stderr.endswith(f"; {live} was not touched\n")
    assert live.read_bytes() == before
    assert sorted(p.name for p in live.parent.iterdir() if "restoring" in p.name or "replaced" in p.name) == []


@pytest.mark.parametrize(("made", "said"), [
    ("INSERT INTO schema_migrations (version, name, checksum, applied_at) "
     "VALUES (9999, '9999_from_a_newer_release', 'x', '2026-11-26T03:00:00+00:00')", "written by a newer release"),
    ("DROP TABLE schema_migrations", "it is not a tasksvc database"),
])
def test_restore_refuses_a_backup_whose_schema_this_release_cannot_run(
    migrated: tuple[dict[str, str], Path], tmp_path: Path, made: str, said: str
) -> None:
    env, _ = migrated
    assert tasksvc("backup", "other.db", env=env, cwd=tmp_path).returncode == 0
    write(tmp_path / "other.db", made)
    done = tasksvc("restore", "other.db", env=env, cwd=tmp_path)
    assert done.returncode == 1
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_restore_refuses_while_the_unit_runs(migrated: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    env, live = migrated
    assert tasksvc("backup", "before.db", env=env, cwd=tmp_path).returncode == 0
    bot = Unit("bot", {**env, "PORT": env["BOT_PORT"]}, tmp_path).start(wait_for="/metrics")
    try:
        done = tasksvc("restore", "before.db", env=env, cwd=tmp_path)
        elsewhere = tasksvc("restore", "before.db", env={**env, "BOT_PORT": "1", "PORT": "1", "WEB_PORT": "1"},
                            cwd=tmp_path)  # a unit in another container: only its hold on the file shows
    finally:
        assert bot.stop() == exits.OK
    assert done.returncode == 1
    assert done.stderr == (f"tasksvc restore: the unit is running (something answers on 127.0.0.1:{env['BOT_PORT']} "
                           "(BOT_PORT)); stop it first (docker compose stop tasksvc), then restore\n")
    assert elsewhere.returncode == 1
    assert f"a process has {live} open" in elsewhere.stderr
    assert list(live.parent.glob("tasks.db.replaced-*")) == []
