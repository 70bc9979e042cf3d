"""The command line as an operator meets it (SPEC section 27): `tasksvc doctor` passes beside `tasksvc dev`, a
Ctrl-C while `tasksvc dev` starts ends without a traceback, the supervisor of `tasksvc run` stays small, and the
unit's four processes share what they imported (SPEC section 42)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.system.unit import Unit, memory_mb, pss_mb, unit_env, unit_pids

SUPERVISOR_LIMIT_MB = 20.0
UNIT_PSS_LIMIT_MB = 150.0


def dev_env(tmp_path: Path) -> dict[str, str]:
    env = unit_env(tmp_path)
    del env["NODE_ENV"], env["DB_PATH"]  # dev mode chooses them
    return env


def test_doctor_beside_dev_says_nothing_keeps_the_bot_silent(tmp_path: Path) -> None:
    env = dev_env(tmp_path)
    unit = Unit("dev", env, tmp_path)
    try:
        unit.start(wait_for="/dev/chat")
        doctor = subprocess.run([sys.executable, "-m", "tasksvc_run", "doctor"], env=env, cwd=tmp_path,
                                capture_output=True, text=True, timeout=60, check=False)
    finally:
        assert unit.stop() == 0, unit.log()
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "tasksvc dev" in doctor.stdout.splitlines()[0]
    assert doctor.stdout.splitlines()[-1] == "Nothing keeps the bot silent."


@pytest.mark.parametrize("after", [0.4, 1.2, 2.5])
def test_a_ctrl_c_while_dev_starts_ends_it_without_a_traceback(tmp_path: Path, after: float) -> None:
    """The terminal sends SIGINT to the whole foreground process group, as here."""
    dev = subprocess.Popen([sys.executable, "-m", "tasksvc_run", "dev"], env=dev_env(tmp_path), cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(after)
    os.killpg(dev.pid, signal.SIGINT)
    try:
        _, err = dev.communicate(timeout=20)
    except subprocess.TimeoutExpired as late:  # what the unit said is the only account of where it stayed
        os.killpg(dev.pid, signal.SIGKILL)
        dev.communicate(timeout=5)
        said = (late.stderr or b"").decode(errors="replace")
        pytest.fail(f"still running 20 s after Ctrl-C {after} s into its start; it logged:\n{said}")
    finally:
        if dev.poll() is None:
            os.killpg(dev.pid, signal.SIGKILL)
            dev.wait(timeout=5)
    assert "Traceback" not in err.decode(), err.decode()
    assert "KeyboardInterrupt" not in err.decode()
    assert dev.returncode in (0, 130)


def test_the_supervisor_stays_under_20_mb_idle(tmp_path: Path) -> None:
    unit = Unit("run", unit_env(tmp_path), tmp_path)
    try:
        unit.start()
        time.sleep(1.0)
        assert unit.process is not None
        resident, _ = memory_mb(unit.process.pid)
    finally:
        assert unit.stop() == 0, unit.log()
    assert 0 < resident <= SUPERVISOR_LIMIT_MB


def test_the_unit_idles_in_at_most_150_mb_counting_shared_pages_once(tmp_path: Path) -> None:
    unit = Unit("run", unit_env(tmp_path), tmp_path)
    try:
        unit.start()
        time.sleep(2.0)
        pids = unit_pids(unit)
        shares = {name: pss_mb(pid) for name, pid in pids.items()}
    finally:
        assert unit.stop() == 0, unit.log()
    assert set(shares) == {"run", "bot", "web", "proxy"}  # the template is gone once it forked the three
    assert 0 < sum(shares.values()) <= UNIT_PSS_LIMIT_MB, shares
