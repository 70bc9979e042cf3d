"""`tasksvc _template`: the unit's template process (SPEC section 42). It imports what bot, web and proxy run once,
then forks each of them when the supervisor asks, as servers that preload do: the three share the pages of the
modules (code, constants, the libraries' tables) instead of holding a copy each.

The supervisor (its `forks.py`) starts it with two pipes: it writes a command's name (``bot``, ``web``, ``proxy``)
on the first and reads the forked process's id on the second. Each process is forked twice so that it is not the
template's child but the supervisor's (the supervisor is the unit's subreaper): the supervisor waits for it, signals
it and reads its exit status as it did for the processes it started itself. The forked process names itself
``tasksvc-<command>`` (``/proc/<pid>/comm``: its command line is the template's), takes a process group of its own
(as the supervisor's children always did), and runs `tasksvc <command>` as that command always ran. When the
supervisor closes the pipe the template exits: the unit is the supervisor and its three processes again.

The template holds no thread, no database connection and no socket when it forks: it only imports. The objects made
by the imports are frozen out of the garbage collector's reach before the first fork, so that a collection in a
forked process does not write into (and so copy) the pages it shares.
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

COMMAND = "_template"
COMMANDS = frozenset({"bot", "web", "proxy"})
# What the three run: their commands' modules, and what those import when they build their apps.
PRELOAD = (
    "taskcore.settings", "taskcore.config_warnings", "tasksvc_run.places", "taskcore.storage.migrator",
    "tasksvc_run.bot.serve", "tasksvc_run.bot.app", "tasksvc_run.bot.background",
    "tasksvc_run.web.serve", "tasksvc_run.web.app",
    "tasksvc_run.proxy.app",
)


def preload(modules: tuple[str, ...] = PRELOAD) -> None:
    """Import ``modules`` (one missing is left to the process that needs it), then freeze what they made."""
    for name in modules:
        try:
            import_module(name)
        except ImportError:
            continue
    gc.collect()
    gc.freeze()


def serve(commands_fd: int, answers_fd: int, run: Callable[[str], int]) -> int:
    """The template's loop: for each command read, fork a process that runs ``run(command)`` and answer its id.
    Returns ``run``'s status in each forked process; the template itself exits once the commands end."""
    preload()
    with os.fdopen(commands_fd, "r") as commands, os.fdopen(answers_fd, "w") as answers:
        for line in commands:
            name = line.strip()
            if name not in COMMANDS or threading.active_count() != 1:  # forking with threads is unsafe
                answers.write("0\n")
                answers.flush()
                continue
            pid = _fork_twice()
            if pid == 0:  # the forked process: the pipes are the template's, not its own
                commands.close()
                answers.close()
                return _become(name, run)
            answers.write(f"{pid}\n")
            answers.flush()
    os._exit(0)  # at once: tearing down every module it imported would only keep the supervisor waiting


def _fork_twice() -> int:
    """Fork a grandchild; 0 in it, its id in the template (once the child between has exited, so the grandchild
    already belongs to the supervisor)."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read_end)
        grandchild = os.fork()
        if grandchild == 0:
            os.close(write_end)
            return 0
        os.write(write_end, str(grandchild).encode())
        os._exit(0)  # no cleanup in the fork between: the template's objects are not its own
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        found = pipe.read()
    os.waitpid(child, 0)
    return int(found or 0)


def _become(name: str, run: Callable[[str], int]) -> int:
    """In the forked process: its own process group and name, then the command."""
    os.setpgid(0, 0)
    with contextlib.suppress(OSError):  # no /proc: the name is only for people reading the process list
        Path("/proc/self/comm").write_text(f"tasksvc-{name}", encoding="ascii")
    return run(name)  # what the template froze stays frozen: a collection never writes into the shared pages
