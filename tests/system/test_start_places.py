"""A start that cannot open or create its data (SPEC section 33): DATA_DIR or DB_PATH unusable is one line naming
the path and the reason, exit status 4, no traceback, for each command that opens the database and for the
supervisor of `tasksvc run`, which stops before starting any child."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tasksvc_run import exits
from tasksvc_run.places import database_problem
from tests.faults.test_disk import read_only
from tests.system.unit import unit_env

ROOT = Path(__file__).resolve().parents[2]


def start(command: str, env: dict[str, str]) -> tuple[int, list[str]]:
    """Run ``tasksvc <command>`` to its end (bounded); its exit status and its stderr lines."""
    done = subprocess.run([sys.executable, "-m", "tasksvc_run", command], env=env, cwd="/",  # noqa: S603
                          capture_output=True, text=True, timeout=60, check=False)
    return done.returncode, done.stderr.splitlines()


def the_one_line(lines: list[str]) -> str:
    assert not any("Traceback" in line for line in lines), "\n".join(lines)
    errors = [line for line in lines if "level=error" in line or "level=critical" in line]
    assert len(errors) == 1, "\n".join(lines)
    return errors[0]


COMMANDS = ["bot", "web", "migrate", "run"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_data_dir_under_a_file_is_named_with_its_reason(tmp_path: Path, command: str) -> None:
    (tmp_path / "plain-file").write_text("not a folder")
    env = unit_env(tmp_path)
    del env["DB_PATH"]
    env["DATA_DIR"] = str(tmp_path / "plain-file" / "data")
    code, lines = start(command, env)
    assert code == exits.STORAGE
    line = the_one_line(lines)
    assert f"cannot create {tmp_path}/plain-file/data: Not a directory" in line
    assert not (tmp_path / "tasks.db").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_db_path_that_is_a_directory_is_named(tmp_path: Path, command: str) -> None:
    (tmp_path / "tasks.db").mkdir()
    code, lines = start(command, unit_env(tmp_path))
    assert code == exits.STORAGE
    assert f"{tmp_path}/tasks.db is a directory, not a database file" in the_one_line(lines)


@pytest.mark.parametrize("command", ["bot", "migrate", "run"])
def test_a_file_that_is_no_database_is_named(tmp_path: Path, command: str) -> None:
    (tmp_path / "tasks.db").write_bytes(b"these are not the pages of a database" * 200)
    code, lines = start(command, unit_env(tmp_path))
    assert code == exits.STORAGE
    line = the_one_line(lines)
    assert f"{tmp_path}/tasks.db" in line
    assert "file is not a database" in line


@pytest.mark.parametrize("command", ["bot", "run"])
def test_a_data_dir_on_a_read_only_disk_is_named_with_the_systems_reason(tmp_path: Path, command: str) -> None:
    """A folder this user may not write: a read-only bind mount as root (CI), chmod otherwise."""
    (tmp_path / "disk").mkdir()
    with read_only(tmp_path / "disk") as view:
        env = unit_env(tmp_path)
        del env["DB_PATH"]
        env["DATA_DIR"] = str(view / "data")
        code, lines = start(command, env)
    assert code == exits.STORAGE
    line = the_one_line(lines)
    assert re.search(rf"cannot create {re.escape(str(view))}/data: (Read-only file system|Permission denied)", line)


def test_an_existing_database_on_a_read_only_disk_is_not_refused_before_sqlite_is_asked(tmp_path: Path) -> None:
    """SPEC section 17: a database that can be read serves reads; whether SQLite can open it is SQLite's to say."""
    (tmp_path / "disk").mkdir()
    (tmp_path / "disk" / "tasks.db").write_bytes(b"")
    with read_only(tmp_path / "disk") as view:
        assert database_problem(None, view / "tasks.db") is None
