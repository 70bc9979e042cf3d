"""What ships is what is tested (SPEC section 16, issue 13): the wheel holds every file the code reads, and the
Dockerfile's steps, followed without Docker in a fresh virtual environment, give a unit that migrates, serves and
answers a chat command at the (fake) gateway."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import aiohttp
import pytest

from tasksvc_run import exits
from tests.fakes.gateway import FakeGateway
from tests.system.unit import chat_message, free_ports, http_status

ROOT = Path(__file__).resolve().parents[2]
SECRET = "installed-unit-secret"
# SPEC section 3: every table of the product's data model.
SPEC_TABLES = {"users", "identity_aliases", "groups", "allowed_groups", "group_members", "tasks", "task_assignments",
               "user_preferences", "web_tokens", "web_sessions", "outbound_queue", "reminder_deliveries",
               "schema_migrations"}
INSTALL_TIMEOUT = 600


def dockerfile() -> tuple[dict[str, str], list[str], list[str]]:
    """The Dockerfile's ENV values, its `pip install` arguments and its CMD."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in re.findall(r"^ENV (.+)$", text, re.MULTILINE):
        env.update(item.split("=", 1) for item in shlex.split(line))
    install = next(shlex.split(cmd) for cmd in re.findall(r"^RUN (.+)$", text, re.MULTILINE) if "pip install" in cmd)
    command = json.loads(re.search(r"^CMD (.+)$", text, re.MULTILINE)[1])  # type: ignore[index]
    return env, install[install.index("install") + 1:], command


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel nox built for this run (TASKSVC_WHEEL), else one built now from the source tree."""
    if given := os.environ.get("TASKSVC_WHEEL"):
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    shutil.rmtree(ROOT / "build", ignore_errors=True)  # setuptools would ship modules deleted since its last build
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],  # noqa: S603
                   check=True, timeout=INSTALL_TIMEOUT)
    return next(out.glob("tasksvc-*.whl"))


@pytest.fixture(scope="module")
def venv(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed as the Dockerfile installs the source."""
    _, install_args, _ = dockerfile()
    assert "--constraint" in install_args or "-c" in install_args, "the image must install under constraints.txt"
    extras = next(arg for arg in install_args if arg.startswith(".["))[1:]  # ".[postgres]" -> "[postgres]"
    where = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=120)  # noqa: S603
    subprocess.run([where / "bin" / "pip", "install", "-q", "--constraint", ROOT / "constraints.txt",  # noqa: S603
                    f"tasksvc{extras} @ {built_wheel.as_uri()}"], check=True, timeout=INSTALL_TIMEOUT)
    return where


def installed_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The image's environment (its ENV lines) with the data directory and ports moved under ``tmp``."""
    image_env, _, _ = dockerfile()
    port, bot_port, web_port = free_ports(3)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp), "LANG": "C.UTF-8", **image_env}
    env.update({"DATA_DIR": str(tmp / "data"), "PORT": str(port), "BOT_PORT": str(bot_port),
                "WEB_PORT": str(web_port), "WEBHOOK_SECRET": SECRET, **extra})
    return env


def tasksvc(venv: Path, *args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([venv / "bin" / "tasksvc", *args], env=env, cwd=cwd, capture_output=True,  # noqa: S603
                          text=True, timeout=120, check=False)


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as conn:
        return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_every_file_under_src_that_is_not_python_is_in_the_wheel(built_wheel: Path) -> None:
    shipped = set(zipfile.ZipFile(built_wheel).namelist())
    needed = {str(path.relative_to(ROOT / "src")) for path in (ROOT / "src").rglob("*")
              if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
              and not any(part.endswith(".egg-info") for part in path.parts)}
    assert needed, "the source tree has data files (migrations, templates)"
    assert needed <= shipped, f"left out of the wheel: {sorted(needed - shipped)}"
    assert any(re.fullmatch(r"taskcore/storage/migrations/\d{4}_\w+\.sql", name) for name in shipped)


@pytest.mark.parametrize("lang", ["es", "pt", "en"])
def test_the_wheel_holds_every_compiled_catalog(built_wheel: Path, lang: str) -> None:
    shipped = set(zipfile.ZipFile(built_wheel).namelist())
    assert f"taskcore/i18n/locales/{lang}/LC_MESSAGES/taskcore.mo" in shipped
    assert f"tasksvc_run/locales/{lang}/LC_MESSAGES/tasksvc_run.mo" in shipped


def test_the_wheel_holds_no_module_the_source_tree_no_longer_has(built_wheel: Path) -> None:
    shipped = {name for name in zipfile.ZipFile(built_wheel).namelist() if name.endswith(".py")}
    stale = sorted(name for name in shipped if not (ROOT / "src" / name).is_file())
    assert not stale, f"modules deleted from src/ but still in the wheel (a stale build/ directory?): {stale}"


def test_the_installed_package_migrates_every_table(venv: Path, tmp_path: Path) -> None:
    env = installed_env(tmp_path)
    done = tasksvc(venv, "migrate", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert tables(tmp_path / "data" / "tasks.db") >= SPEC_TABLES
    assert "applied migration 0001_initial" in done.stderr


@pytest.fixture
def without_migration_files(venv: Path) -> Iterator[Path]:
    """The installed copy with its migration files moved away (restored afterwards)."""
    found = subprocess.run([venv / "bin" / "python", "-c",  # noqa: S603
                            "import taskcore.storage.migrations as m; print(m.__path__[0])"],
                           capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    package = Path(found)
    assert "site-packages" in package.parts
    aside = package.parent / "migrations-aside"
    aside.mkdir()
    moved = list(package.glob("*.sql"))
    for sql in moved:
        sql.rename(aside / sql.name)
    yield package
    for sql in moved:
        (aside / sql.name).rename(sql)
    aside.rmdir()


def test_migrate_without_migration_files_fails_with_one_clear_line(
    venv: Path, tmp_path: Path, without_migration_files: Path,
) -> None:
    done = tasksvc(venv, "migrate", env=installed_env(tmp_path), cwd=tmp_path)
    assert done.returncode == exits.SCHEMA
    errors = [line for line in done.stderr.splitlines() if "level=error" in line]
    assert len(errors) == 1, done.stderr
    assert "no migration files" in errors[0]
    assert "reinstall" in errors[0]
    assert "Traceback" not in done.stderr


async def test_the_installed_unit_answers_a_chat_command_at_the_gateway(venv: Path, tmp_path: Path) -> None:
    _, _, command = dockerfile()
    async with FakeGateway() as gateway:
        env = installed_env(tmp_path, GATEWAY_API_URL=gateway.url, GATEWAY_API_INSTANCE="taskbot",
                            GATEWAY_API_KEY="test-api-key")
        migrated = await asyncio.to_thread(tasksvc, venv, "migrate", env=env, cwd=tmp_path)
        assert migrated.returncode == 0
        with (tmp_path / "unit.log").open("wb") as log:
            unit = await asyncio.create_subprocess_exec(venv / "bin" / command[0], *command[1:], env=env,
                                                        cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{env['PORT']}"
        try:
            await _until(lambda: http_status(f"{base}/health") == 200, unit, tmp_path, within=60)
            event = chat_message("/t nueva Comprar pan mañana", sender="34600000001", message_id="WHEEL1")
            async with aiohttp.ClientSession() as http:
                async with http.post(f"{base}/webhook", json=event) as refused:
                    await refused.read()
                async with http.post(f"{base}/webhook", json=event, headers={"X-Webhook-Secret": SECRET}) as accepted:
                    await accepted.read()
            assert (refused.status, accepted.status) == (401, 200)
            await gateway.wait_for(lambda gw: any("Tarea #1 creada" in text for text in gw.sent_texts()), within=30)
        finally:
            unit.terminate()
            code = await asyncio.wait_for(unit.wait(), 15)
    assert code == 0, (tmp_path / "unit.log").read_text()
    assert gateway.calls_to("sendText")[0].headers["apikey"] == "test-api-key"


async def _until(ready: Callable[[], bool], unit: asyncio.subprocess.Process, tmp: Path, *, within: float) -> None:
    deadline = time.monotonic() + within
    while not await asyncio.to_thread(ready):
        if unit.returncode is not None or time.monotonic() > deadline:
            raise AssertionError(f"the installed unit did not come up:\n{(tmp / 'unit.log').read_text()[-4000:]}")
        await asyncio.sleep(0.2)


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.execute(sql))


def write(path: Path, sql: str) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(sql)


def test_docs_backup_then_restore_on_a_copy(venv: Path, tmp_path: Path) -> None:
    """docs/operations.md, "Restore": stop, `tasksvc restore <backup>` (checked; the replaced file kept), start."""
    env, live = installed_env(tmp_path), tmp_path / "data" / "tasks.db"
    assert tasksvc(venv, "migrate", env=env, cwd=tmp_path).returncode == 0
    write(live, "INSERT INTO users (id, created_at) VALUES ('34600112233', '2026-11-26T03:00:00+00:00')")
    saved = tasksvc(venv, "backup", str(tmp_path / "backups" / "tasks-before.db"), env=env, cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    write(live, "DELETE FROM users")  # the mistake the backup undoes
    restored = tasksvc(venv, "restore", str(tmp_path / "backups" / "tasks-before.db"), env=env, cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert len(list((tmp_path / "data").glob("tasks.db.replaced-*"))) == 1
    started = tasksvc(venv, "migrate", env=env, cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert rows(live, "SELECT id FROM users") == [("34600112233",)]


def test_docs_upgrade_and_going_back_with_the_backup_taken_before(venv: Path, tmp_path: Path) -> None:
    """docs/operations.md, "Upgrades": back up, start the new release (it migrates); to go back, the older release
    refuses the newer schema, and the backup taken before the upgrade restores what it runs on."""
    env, live = installed_env(tmp_path), tmp_path / "data" / "tasks.db"
    assert tasksvc(venv, "migrate", env=env, cwd=tmp_path).returncode == 0
    before = tmp_path / "backups" / "tasks-before-upgrade.db"
    assert tasksvc(venv, "backup", str(before), env=env, cwd=tmp_path).returncode == 0
    # What a newer release's start leaves behind: a migration this (older) release does not know.
    write(live, "INSERT INTO schema_migrations (version, name, checksum, applied_at) "
                "VALUES (9999, '9999_from_a_newer_release', 'x', '2026-11-26T03:00:00+00:00')")
    refused = tasksvc(venv, "migrate", env=env, cwd=tmp_path)
    assert refused.returncode == exits.SCHEMA
    assert "Traceback" not in refused.stderr
    assert tasksvc(venv, "restore", str(before), env=env, cwd=tmp_path).returncode == 0
    assert tasksvc(venv, "migrate", env=env, cwd=tmp_path).returncode == 0


def test_backup_without_a_database_names_where_it_looked(venv: Path, tmp_path: Path) -> None:
    done = tasksvc(venv, "backup", "x.db", env=installed_env(tmp_path), cwd=tmp_path)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1, done.stderr
    assert str(tmp_path / "data" / "tasks.db") in done.stderr
    assert "DB_PATH" in done.stderr
    assert "Traceback" not in done.stderr
