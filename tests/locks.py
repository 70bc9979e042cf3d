"""A SQLite write lock held by another program, for tests of what waits on it and what does not."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from taskcore.storage.db import Database


@contextmanager
def write_lock_held(db: Database) -> Iterator[threading.Event]:
    """Another program holds the SQLite write lock until the yielded event is set."""
    path = db.engine.url.database
    assert path is not None
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10)
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(10)
        conn.execute("COMMIT")
        conn.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    try:
        yield release
    finally:
        release.set()
        holder.join(10)
