"""The supervisor's side of the template process (template.py, SPEC section 42): start it, ask it for bot, web and
proxy, and hold each forked process as it held the processes it started itself.

The supervisor becomes the unit's subreaper (Linux's ``PR_SET_CHILD_SUBREAPER``): a process the template forks twice
is adopted by it, so it waits for it, signals it and reads its exit status directly. Where that is not possible
(another system, a template that does not start), the supervisor starts each process itself, as before.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

PR_SET_CHILD_SUBREAPER = 36
POLL = 0.01


class Forked:
    """A process forked by the template and adopted by this one: the part of ``subprocess.Popen`` the supervisor
    uses (``poll``, ``wait``, ``send_signal``, ``kill``, ``pid``, ``returncode``)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit status once it has exited (minus the signal that ended it, as Popen says), else None."""
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # not (or no longer) this process's child: gone
                self.returncode = 1
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until it exits (subprocess.TimeoutExpired after ``timeout`` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            time.sleep(POLL)
        return code

    def send_signal(self, signum: int) -> None:
        """Signal it while it runs (an exited one not yet waited for keeps its id: no other process has it)."""
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)


def become_subreaper() -> bool:
    """Adopt the orphans among this process's descendants (Linux); False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # noqa: PLC0415 - only the supervisor, once

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


class Template:
    """The template process (`tasksvc _template`), started at once: it imports while the supervisor goes on."""

    def __init__(self, command: Sequence[str], env: dict[str, str]) -> None:
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()
        try:
            self.process = subprocess.Popen([*command, "_template", str(commands_read), str(answers_write)],  # noqa: S603
                                            env=env, pass_fds=(commands_read, answers_write), process_group=0)
        finally:
            os.close(commands_read)
            os.close(answers_write)
        self._pending = b""

    def fork(self, name: str, timeout: float) -> Forked | None:
        """``name`` forked by the template (None when it cannot: it exited, or did not answer within ``timeout``)."""
        try:
            os.write(self._commands, f"{name}\n".encode())
        except OSError:  # the template is gone
            return None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                return None
            chunk = os.read(self._answers, 64)
            if not chunk:
                return None
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        pid = int(line or 0)
        return Forked(pid) if pid > 0 else None

    def close(self, timeout: float = 5.0) -> None:
        """End the template (its commands end), bounded; it holds nothing the unit needs."""
        for fd in (self._commands, self._answers):
            try:
                os.close(fd)
            except OSError:
                continue
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=2)
