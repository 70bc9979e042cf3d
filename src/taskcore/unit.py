"""The unit of work (STYLE habit 21): what a use case runs in, apart from the database handle that opens it.

Every use case takes the unit it runs in as its first parameter, ``uow``, and never opens a transaction of its own:
one that only reads takes a ``Reading`` (a read transaction's snapshot), one that writes a ``UnitOfWork``. Whoever
handles a request or an event opens the unit, runs the use cases in it and commits it: the shells through
``tasksvc_run.units`` (``run``, ``look``), the conversation's road through ``Database.unit`` for all the events that
arrived together. A use case called by another runs in its caller's unit, so what an event does commits together or
not at all, and the SQLite write lock is taken once per unit.

A use case too big for one unit (a tick over every due row) is ``Batched``: it reads in one unit and writes part by
part, each part in a unit of its own, so that no other writer waits long for the lock; ``tasksvc_run.units.
run_batched`` runs it.

The repositories are ``taskcore.storage``'s modules: typed functions of the unit's connection (``uow.conn``), one
per statement or small group of statements; the SQL unit is ``taskcore.storage.unit.SqlUnit``. ``tests/fakes/unit.py``
makes one by hand on a plain connection, and ``tests/unit/test_unit_of_work.py`` runs use cases in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from sqlalchemy import Connection

__all__ = ["Batch", "Batched", "Reading", "UnitOfWork"]

Part = TypeVar("Part")
Cursor = TypeVar("Cursor")
Outcome = TypeVar("Outcome")
Result_co = TypeVar("Result_co", covariant=True)


class Reading(Protocol):
    """A read transaction: every statement a read-only use case runs sees one snapshot."""

    @property
    def conn(self) -> Connection:
        """The transaction's connection, which ``taskcore.storage``'s functions take."""
        ...


class UnitOfWork(Reading, Protocol):
    """One write transaction that every use case of one request or event shares; its reads see its own writes."""

    def savepoint(self) -> AbstractContextManager[None]:
        """A part of the unit rolled back alone when its block raises (a chat command that fails halfway)."""
        ...

    def commit(self) -> None:
        """Keep everything the unit did; a unit left without a commit is rolled back whole."""
        ...


@dataclass(frozen=True, slots=True)
class Batch(Generic[Part, Cursor]):
    """What one read of a batched use case found: the parts to write, each in a unit of its own, and where the next
    read starts (None: this read found the last of them)."""

    parts: Sequence[Part]
    after: Cursor | None = None


class Batched(Protocol[Part, Cursor, Outcome, Result_co]):
    """A use case read in batches and written part by part (``Database.run_batched``), and what it did."""

    def read(self, uow: Reading, after: Cursor | None) -> Batch[Part, Cursor]:
        """The next batch, from ``after`` (None: the first)."""
        ...

    def write(self, uow: UnitOfWork, part: Part, before: Sequence[Outcome]) -> Outcome:
        """Write one part; ``before`` holds the outcomes of the parts written before it in this run."""
        ...

    def result(self, outcomes: Sequence[Outcome]) -> Result_co:
        """What the use case did, from the outcomes of every part written, in order."""
        ...
