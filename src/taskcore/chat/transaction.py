"""One event, one transaction: the use cases an event calls all run inside the caller's write transaction.

``JoinedDatabase`` stands in for the ``Database`` the use cases take: their reads and writes reuse the open
connection. The event's writes (the message id's first sighting included) commit together or not at all, and the
SQLite write lock is taken once per event instead of once per use case.

The use cases check before they write, so one that raises a domain error has written nothing; the chat still runs
each command inside ``savepoint`` so that a failing command can never leave half its writes behind, except the few
that raise their domain errors before their first write (``chat.tasks.CHECKED_FIRST``: help, list, create), which
save the two statements. The other calls (sightings, identities, memberships, the queue) run without one: a failure
there fails the whole event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy import Connection

from taskcore.storage.db import Database

T = TypeVar("T")


class JoinedDatabase(Database):
    """A Database whose transactions are part of one open write transaction."""

    def __init__(self, conn: Connection) -> None:
        super().__init__(conn.engine, busy_retries=0)
        self.conn = conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """The open connection (reads see the event's own writes)."""
        yield self.conn

    @contextmanager
    def write(self, *, wait_ms: int | None = None) -> Iterator[Connection]:
        """The open connection."""
        yield self.conn

    def transact(self, work: Callable[[Connection], T], *, wait_ms: int | None = None,
                 retries: int | None = None) -> T:
        """Run ``work`` on the open connection (the outer transaction already waited for the database)."""
        return work(self.conn)

    def dispose(self) -> None:
        """The engine belongs to the outer Database; nothing to close here."""


@contextmanager
def savepoint(db: Database) -> Iterator[None]:
    """Inside a JoinedDatabase: a SAVEPOINT, rolled back alone when the block raises; elsewhere nothing."""
    if isinstance(db, JoinedDatabase):
        with db.conn.begin_nested():
            yield
    else:
        yield


def in_one_transaction(db: Database, work: Callable[[Database], T], *, wait_ms: int | None = None,
                       retries: int | None = None) -> T:
    """Run ``work`` with a JoinedDatabase inside one write transaction of ``db`` (retried whole when busy;
    ``wait_ms`` and ``retries`` as in ``Database.transact``)."""
    return db.transact(lambda conn: work(JoinedDatabase(conn)), wait_ms=wait_ms, retries=retries)
