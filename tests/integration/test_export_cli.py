"""``tasksvc export --group <id> [--output file]`` (SPEC section 35): the operator's copy of a group's CSV file,
the same bytes the API answers, written by the installed command as a process."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from taskcore.services import languages
from taskcore.services.task_export import operator_group_csv
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import exits, units
from tasksvc_run.cli import main
from tests.builders import NOW, make_group, make_task

ROOT = Path(__file__).resolve().parents[2]
GROUP = "120363000000000001@g.us"
ANA, BRUNO = "34600000001", "34600000002"


def _env(db: Database) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "NODE_ENV": "test", "DB_PATH": str(db.engine.url.database)}


@pytest.fixture
def group(sqlite_db: Database) -> Database:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, BRUNO))
    with sqlite_db.write() as conn:
        ensure_user(conn, ANA, NOW, name="Ána")
    make_task(sqlite_db, creator=ANA, group_id=GROUP, description="Sacar la basura, ya", assignees=(ANA, BRUNO))
    return sqlite_db


def test_the_command_writes_the_group_s_file_with_its_bom_and_names(group: Database, tmp_path: Path) -> None:
    out = tmp_path / "casa.csv"
    done = subprocess.run([sys.executable, "-m", "tasksvc_run", "export", "--group", GROUP, "--output", str(out)],  # noqa: S603
                          env=_env(group), capture_output=True, text=True, timeout=60, check=False, cwd=ROOT)
    assert done.returncode == exits.OK, done.stderr
    body = out.read_bytes()
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
    assert rows[1][1:6] == ["Sacar la basura, ya", "Casa", "", "Ána, Miembro sin nombre", "open"]
    assert ANA not in body.decode()
    assert BRUNO not in body.decode()
    assert body == units.look(group, operator_group_csv, group_id=GROUP, default_lang="es",
                               fallback=ZoneInfo("Europe/Madrid"))


def test_without_output_the_file_goes_to_standard_output_in_the_group_s_language(
        group: Database, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    units.run(group, languages.choose_group_language, group_id=GROUP, lang="en", now=NOW)
    for name, value in _env(group).items():
        monkeypatch.setenv(name, value)
    assert main(["export", "--group", GROUP]) == exits.OK
    written = capsysbinary.readouterr().out
    assert "Unnamed member" in written.decode("utf-8-sig")


@pytest.mark.parametrize("case", [
    ("120363000000000099@g.us", exits.FAILED, "the bot knows no group 120363000000000099@g.us"),
    ("casa", exits.CONFIG, "give the group's id as <digits>@g.us"),
])
def test_an_unknown_or_malformed_group_says_so_in_one_line(group: Database, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str],
                                                           case: tuple[str, int, str]) -> None:
    group_id, code, said = case
    for name, value in _env(group).items():
        monkeypatch.setenv(name, value)
    assert main(["export", "--group", group_id, "--output", "/nonexistent/x.csv"]) == code
    assert said in capsys.readouterr().err
