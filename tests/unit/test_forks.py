"""The supervisor holds a process the template forked as it holds one it started (forks.py, SPEC section 42): its
exit status, or minus the signal that ended it, and a bounded wait."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tasksvc_run.forks import Forked


def _child(code: str) -> Forked:
    """A child of this process held as a Forked (started bare: the Forked alone waits for it)."""
    return Forked(os.posix_spawn(sys.executable, [sys.executable, "-c", code], os.environ))


def test_its_exit_status_is_the_one_it_gave() -> None:
    child = _child("import sys; sys.exit(3)")
    assert child.wait(timeout=20) == 3
    assert child.poll() == 3


def test_a_signal_that_ended_it_is_given_as_popen_gives_it() -> None:
    child = _child("import time; time.sleep(30)")
    assert child.poll() is None
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=20) == -signal.SIGTERM


def test_a_wait_is_bounded() -> None:
    child = _child("import time; time.sleep(30)")
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(timeout=0.1)
    child.kill()
    assert child.wait(timeout=20) == -signal.SIGKILL
