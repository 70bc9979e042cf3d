"""`tasksvc backup`: a consistent copy of the live SQLite file."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from taskcore.storage.db import Database
from tasksvc_run.backup import backup_sqlite
from tasksvc_run.cli import main
from tests.builders import make_task


def test_a_backup_holds_every_committed_row_and_passes_an_integrity_check(sqlite_db: Database, tmp_path: Path) -> None:
    created = [make_task(sqlite_db, group_id=None, description=f"t{i}").id for i in range(50)]
    source = Path(str(sqlite_db.engine.url.database))
    copy = tmp_path / "backups" / "tasks.db"
    assert backup_sqlite(source, copy) > 0
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert sorted(row[0] for row in conn.execute("SELECT id FROM tasks")) == created


def test_the_command_backs_up_the_configured_database(sqlite_db: Database, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    make_task(sqlite_db, group_id=None)
    monkeypatch.setenv("DB_PATH", str(sqlite_db.engine.url.database))
    monkeypatch.setenv("NODE_ENV", "test")
    assert main(["backup", str(tmp_path / "copy.db")]) == 0
    with closing(sqlite3.connect(tmp_path / "copy.db")) as conn:
        assert conn.execute("SELECT count(*) FROM tasks").fetchone()[0] == 1


def test_a_missing_database_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no database"):
        backup_sqlite(tmp_path / "absent.db", tmp_path / "copy.db")


def test_the_command_without_a_database_says_where_it_looked_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DB_PATH", "DATA_DIR", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NODE_ENV", "test")
    assert main(["backup", "x.db"]) != 0
    [line] = capsys.readouterr().err.splitlines()
    assert str(tmp_path / "data" / "tasks.db") in line
    assert "DB_PATH" in line
    assert "DATA_DIR" in line
    assert not (tmp_path / "x.db").exists()


def test_the_command_into_a_folder_it_cannot_write_says_which_and_why_in_one_line(
        sqlite_db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "plain").write_text("not a folder")
    monkeypatch.setenv("DB_PATH", str(sqlite_db.engine.url.database))
    monkeypatch.setenv("NODE_ENV", "test")
    assert main(["backup", str(tmp_path / "plain" / "backups" / "x.db")]) == 1
    assert capsys.readouterr().err == (f"tasksvc backup: nothing was written: cannot create {tmp_path}/plain/backups: "
                                       "Not a directory\n")


def test_sqlites_own_refusal_is_named_with_the_file(sqlite_db: Database, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def refused(*_: object) -> int:
        raise sqlite3.OperationalError("unable to open database file")
    monkeypatch.setattr("tasksvc_run.backup.backup_sqlite", refused)
    monkeypatch.setenv("DB_PATH", str(sqlite_db.engine.url.database))
    monkeypatch.setenv("NODE_ENV", "test")
    assert main(["backup", str(tmp_path / "x.db")]) == 1
    assert capsys.readouterr().err == (f"tasksvc backup: nothing was written: unable to open database file (writing "
                                       f"{tmp_path}/x.db)\n")
