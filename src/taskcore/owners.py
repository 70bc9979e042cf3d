"""Who holds a lease (SPEC section 17): the host, the process and when it started, so that a restarted bot can tell
its own dead predecessors' leases from those of instances that still run.

An owner is written ``<host>:<pid>:<start>:<nonce>``: ``start`` is the process's start time as the host reports it
(a pid reused by a later process has another one), ``nonce`` tells apart several holders inside one process. Pure:
whether a process runs, and when it started, is asked of the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

UNKNOWN_START = "?"  # a process that runs, on a host that does not say when it started


@dataclass(frozen=True, slots=True)
class LeaseOwner:
    """A lease holder: host name, process id, process start and a nonce."""

    host: str
    pid: int
    start: str
    nonce: str

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.start}:{self.nonce}"


def parse_owner(text: str) -> LeaseOwner | None:
    """The owner a lease row names; None for anything else (an older release's format, a hand-written value)."""
    parts = text.rsplit(":", 3)
    if len(parts) != 4 or not parts[0] or not parts[1].isascii() or not parts[1].isdigit() or not parts[2]:
        return None
    return LeaseOwner(parts[0], int(parts[1]), parts[2], parts[3])


def same_process(owner: LeaseOwner, start_now: str | None) -> bool:
    """Whether the process that has ``owner``'s pid now (started at ``start_now``; None: no such process, ``?``:
    running, start unknown) is the owner itself."""
    return start_now is not None and start_now in (owner.start, UNKNOWN_START)


def dead_predecessors(owners: Iterable[str], *, host: str, start_of: Callable[[int], str | None]) -> set[str]:
    """The owners among ``owners`` that ran on ``host`` and whose process is gone: no process has their pid now
    (``start_of`` gives None), or the one that has it started at another time. Owners of other hosts, and those
    that cannot be read, are live as far as this host can tell: their leases are left to expire."""
    dead = set()
    for text in owners:
        owner = parse_owner(text)
        if owner is not None and owner.host == host and not same_process(owner, start_of(owner.pid)):
            dead.add(text)
    return dead
