"""A starting bot takes over at once the leases of its own dead predecessors (SPEC section 17).

The outbound jobs a killed process had in flight, and the job leases it held, would otherwise wait for their leases
to run out (2 x GATEWAY_TIMEOUT_MS + 1 s for a send): every later reply to those chats would wait behind them.
Which owners are dead is decided by the caller (``dead``: it alone can ask the host about its processes); leases of
live instances, here or on other hosts, are untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime

from taskcore.storage import leases, queue
from taskcore.unit import UnitOfWork


@dataclass(frozen=True, slots=True)
class Takeover:
    """What was released: the dead owners, their jobs in flight (due again now) and their job leases."""

    owners: frozenset[str]
    jobs: int
    job_leases: int


def take_over_dead_leases(uow: UnitOfWork, *, dead: Callable[[Collection[str]], Collection[str]],
                          now: datetime) -> Takeover:
    """Release, in one transaction, the outbound jobs in flight and the job leases of the owners ``dead`` names."""

    conn = uow.conn
    owners = frozenset(dead(queue.sending_owners(conn) | leases.live_lease_owners(conn, now=now)))
    if not owners:
        return Takeover(owners, 0, 0)
    return Takeover(owners, queue.release_owners(conn, sorted(owners), now=now),
                    leases.release_leases_of(conn, owners, now=now))
