"""`tasksvc doctor` and the bot's start on the places the service writes (SPEC section 33): a BACKUP_DIR that cannot
be written is a warning naming it (the bot still answers), a database file that cannot be opened a problem; doctor
creates nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from taskcore.gateway.diagnostics import Verdict
from taskcore.settings import Settings, load_settings
from tasksvc_run.bot.serve import report_environment
from tasksvc_run.doctor import place_checks
from tasksvc_run.logs import KeyValueFormatter


def settings_for(tmp_path: Path, **extra: str) -> Settings:
    return load_settings({"NODE_ENV": "test", "DB_PATH": str(tmp_path / "data" / "tasks.db"), **extra})


def test_a_writable_backup_dir_and_a_creatable_database_pass_and_nothing_is_made(tmp_path: Path) -> None:
    checks = place_checks(settings_for(tmp_path, BACKUP_DIR=str(tmp_path / "backups")))
    assert [(c.name, c.verdict) for c in checks] == [("backups", Verdict.OK)]
    assert list(tmp_path.iterdir()) == []


def test_a_backup_dir_that_cannot_be_written_is_a_warning_naming_it(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    [check] = place_checks(settings_for(tmp_path, BACKUP_DIR=str(tmp_path / "plain" / "backups")))
    assert (check.name, check.verdict) == ("backups", Verdict.WARN)
    assert check.detail == (f"BACKUP_DIR cannot be written: cannot create {tmp_path}/plain/backups: "
                            f"{tmp_path}/plain is not a directory")
    assert "chown" in check.fix


def test_a_database_that_cannot_be_opened_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tasks.db").mkdir()
    [check] = place_checks(settings_for(tmp_path))
    assert (check.name, check.verdict) == ("database", Verdict.PROBLEM)
    assert check.detail == f"{tmp_path}/data/tasks.db is a directory, not a database file"


def test_the_fix_for_a_db_path_that_is_not_sqlite_names_the_file_not_data_dir(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("shopping list")
    [check] = place_checks(settings_for(tmp_path, DB_PATH=str(tmp_path / "notes.txt")))
    assert (check.name, check.verdict) == ("database", Verdict.PROBLEM)
    assert str(tmp_path / "notes.txt") in check.fix
    assert "DATA_DIR" not in check.fix


def test_the_fix_for_a_folder_that_cannot_be_written_names_the_folder(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    [check] = place_checks(settings_for(tmp_path, DB_PATH=str(tmp_path / "plain" / "tasks.db")))
    assert (check.name, check.verdict) == ("database", Verdict.PROBLEM)
    assert f"{tmp_path}/plain" in check.fix


def test_with_database_url_neither_is_checked(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, BACKUP_DIR="/nonexistent-file/x", DATABASE_URL="postgresql+psycopg://u@h/db")
    assert place_checks(settings) == []


def test_the_bot_warns_at_start_in_one_line_naming_backup_dir(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                              ) -> None:
    (tmp_path / "plain").write_text("x")
    with caplog.at_level(logging.INFO):
        report_environment(settings_for(tmp_path, BACKUP_DIR=str(tmp_path / "plain" / "b")))
    [line] = [KeyValueFormatter().format(r) for r in caplog.records if r.levelno == logging.WARNING]
    assert 'msg="BACKUP_DIR cannot be written: no daily backup until it can"' in line
    assert f'reason="cannot create {tmp_path}/plain/b: Not a directory"' in line
    caplog.clear()
    with caplog.at_level(logging.INFO):
        report_environment(settings_for(tmp_path, BACKUP_DIR=str(tmp_path / "b")))
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]
