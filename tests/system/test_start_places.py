"""A start that cannot open or create its data (SPEC section 33): DATA_DIR or DB_PATH unusable is one line naming
the path and the reason, exit status 4, no traceback, for each command that opens the database and for the
supervisor of `tasksvc run`, which stops before starting any child. (A folder this user may not write: the unit
tests of tasksvc_run.places; these run as root in CI's container, where every folder is writable.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tasksvc_run import exits
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
