"""tasksvc_run.places: can this process create and write its database file and BACKUP_DIR, and if not, why, in
words naming the path (SPEC section 33)."""

from __future__ import annotations

import errno
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tasksvc_run import places
from tasksvc_run.places import database_problem, folder_problem, sqlite_file_problem


def test_a_missing_folder_is_made_and_a_writable_one_passes_without_a_trace(tmp_path: Path) -> None:
    assert folder_problem(tmp_path / "a" / "b") is None
    assert (tmp_path / "a" / "b").is_dir()
    assert list((tmp_path / "a" / "b").iterdir()) == []  # the scratch file is gone


def test_doctor_makes_nothing(tmp_path: Path) -> None:
    assert folder_problem(tmp_path / "a" / "b", create=False) is None
    assert not (tmp_path / "a").exists()
    (tmp_path / "file").write_text("x")
    assert folder_problem(tmp_path / "file" / "b", create=False) == (
        f"cannot create {tmp_path}/file/b: {tmp_path}/file is not a directory")


def test_a_folder_that_cannot_be_made_says_the_systems_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
    monkeypatch.setattr(Path, "mkdir", refused)
    assert folder_problem(tmp_path / "data") == f"cannot create {tmp_path}/data: Permission denied"


def test_a_folder_where_nothing_can_be_written_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(places.tempfile, "NamedTemporaryFile", full)
    assert folder_problem(tmp_path) == f"cannot write in {tmp_path}: Read-only file system"


def test_a_path_that_is_a_file_is_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "backups").write_text("x")
    assert folder_problem(tmp_path / "backups") == f"{tmp_path}/backups exists and is not a directory"


def test_a_database_file_is_judged_by_its_folder_its_kind_and_its_header(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    assert sqlite_file_problem(path) is None
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x)")
    assert sqlite_file_problem(path) is None
    path.unlink()
    path.write_bytes(b"")  # an empty file is a database SQLite will write
    assert sqlite_file_problem(path) is None
    path.write_bytes(b"hello" * 10)
    assert sqlite_file_problem(path) == f"{path}: file is not a database (not SQLite's header)"
    path.unlink()
    path.mkdir()
    assert sqlite_file_problem(path) == f"{path} is a directory, not a database file"


def test_an_unreadable_database_file_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tasks.db"
    path.write_bytes(b"")

    def refused(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
    monkeypatch.setattr(Path, "open", refused)
    assert sqlite_file_problem(path) == f"cannot open {path}: Permission denied"


def test_with_database_url_there_is_no_file_to_judge(tmp_path: Path) -> None:
    assert database_problem("postgresql+psycopg://x@h/db", tmp_path / "file" / "x") is None
