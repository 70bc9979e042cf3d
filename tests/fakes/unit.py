"""A unit of work made by hand (STYLE habit 21): a plain SQLAlchemy connection on an in-memory SQLite file with the
schema, no ``Database`` handle and no ``SqlUnit``. The use cases run in it as in the service's own, which proves they
need nothing of a unit but ``conn``, ``savepoint`` and ``commit`` (``taskcore.unit``); it counts the commits, which
only whoever opened it makes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, create_engine

from taskcore.storage.schema import metadata


class FakeUnit:
    """``taskcore.unit.UnitOfWork`` over one connection; ``commits`` counts ``commit`` calls."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.commits = 0

    @property
    def conn(self) -> Connection:
        """The connection the storage functions take."""
        return self._conn

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A nested transaction, rolled back alone when its block raises."""
        with self._conn.begin_nested():
            yield

    def commit(self) -> None:
        """Keep what the unit did."""
        self._conn.commit()
        self.commits += 1


@contextmanager
def fake_unit() -> Iterator[FakeUnit]:
    """A fresh in-memory database with the schema, and a unit on it."""
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    try:
        with engine.connect() as conn:
            yield FakeUnit(conn)
    finally:
        engine.dispose()
