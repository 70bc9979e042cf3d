"""A database that opens but takes no write (SPEC section 40), met by the real unit: the file restored by root, which
the service's user may read but not write. Measured before: /health 200, doctor "Nothing keeps the bot silent", every
webhook 503 and a traceback every 5 s. Now: /health 503 naming the file, doctor a problem with the path and the fix,
one log line, no traceback.

Tests run as root, whom no permission bit stops: the file is made immutable (``chattr +i``, which binds root too, as
a file the service's user cannot write binds that user), and only where that cannot be done (not root) read-only by
its mode. SQLite then opens it read-only and refuses every write, as it does for the service's user."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.system.unit import Unit, chat_message, free_ports, gateway_env, http_status, unit_env

ONE_MINUTE = 60


@contextmanager
def written_by_nobody(path: Path) -> Iterator[None]:
    """``path`` cannot be written by this process until the block ends, whoever it runs as."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True, check=False)  # noqa: S603,S607
    if made.returncode != 0:
        pytest.skip(f"this file system keeps no immutable flag: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)  # noqa: S603,S607


def health(unit: Unit) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(unit.url("/health"), timeout=5) as answer:  # noqa: S310 - loopback
            return int(answer.status), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        with error:
            return int(error.code), json.loads(error.read())


def post_event(unit: Unit, message_id: str) -> int:
    event = chat_message("/t nueva Comprar pan", sender="34600000001", message_id=message_id)
    request = urllib.request.Request(unit.url("/webhook"), data=json.dumps(event).encode(),  # noqa: S310
                                     method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - loopback
            return int(answer.status)
    except urllib.error.HTTPError as error:
        error.close()
        return int(error.code)


def doctor(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tasksvc_run", "doctor"], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=ONE_MINUTE, check=False)


@pytest.fixture
def restored_as_root(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment of a migrated unit whose database file nobody may write, with its schedulers and watchdog
    on (a gateway that is down: what they meet is the database, not the gateway)."""
    (gateway_port,) = free_ports(1)
    env = unit_env(tmp_path, **{**gateway_env(f"http://127.0.0.1:{gateway_port}"), "FORCE_SCHEDULERS": "true"})
    env["WEBHOOK_URL"] = f"http://127.0.0.1:{env['PORT']}/webhook"
    assert Unit("migrate", env, tmp_path).start(wait_for=None).process.wait(timeout=ONE_MINUTE) == 0  # type: ignore[union-attr]
    with written_by_nobody(Path(env["DB_PATH"])):
        yield env


def test_a_database_that_takes_no_write_is_503_a_doctor_problem_and_one_line(
    restored_as_root: dict[str, str], tmp_path: Path
) -> None:
    env, database = restored_as_root, restored_as_root["DB_PATH"]
    unit = Unit("run", env, tmp_path).start(wait_for=None)
    try:
        deadline = time.monotonic() + ONE_MINUTE
        while http_status(unit.url("/health")) != 503:
            assert time.monotonic() < deadline, unit.log()
            assert unit.process.poll() is None, unit.log()  # type: ignore[union-attr]
            time.sleep(0.2)
        status, body = health(unit)
        assert status == 503
        assert (body["database"], body["reason"]) == (database, "attempt to write a readonly database")
        assert database in body["fix"]
        assert post_event(unit, "UNWRITABLE1") == 503  # not acknowledged: the gateway delivers it again later
        time.sleep(12)  # two of the watchdog's ticks, the outbound worker's polls, every scheduler's first run
        checked = doctor(env, tmp_path)
        assert checked.returncode != 0, checked.stdout
        [line] = [line for line in checked.stdout.splitlines() if "database writes" in line]
        assert line.startswith("problem")
        assert database in line
        assert f"how to fix: make {database}" in checked.stdout
        assert "Nothing keeps the bot silent" not in checked.stdout
    finally:
        unit.stop()
    log = unit.log()
    assert log.count("the database does not take writes") == 1, log
    assert "Traceback" not in log
    assert "database unavailable" not in log  # each loop's own line: the store said it for all of them
