"""Running a use case in a unit of work of its own, as the shells do (STYLE habit 21, SPEC section 37).

A use case takes the unit it runs in (``taskcore.unit``) and never opens one; a request or a scheduled job runs it
here: ``run`` in a write unit, committed, the whole of it tried again when the database is busy; ``look`` in a read
transaction (one snapshot, never waiting for writers); ``run_batched`` a use case too big for one unit, read batch
by batch and written part by part, each part in a unit of its own. The conversation's road opens its units itself,
one for the events that arrived together (``taskcore.services.conversation.road``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.exc import OperationalError

from taskcore.services import Database, is_busy_error
from taskcore.unit import Batched, Reading, UnitOfWork

T = TypeVar("T")
P = ParamSpec("P")
Part = TypeVar("Part")
Cursor = TypeVar("Cursor")
Outcome = TypeVar("Outcome")
Result = TypeVar("Result")
MAX_BATCHES = 100_000  # reads of one batched use case at most: a bound on its loop


def run(db: Database, use_case: Callable[Concatenate[UnitOfWork, P], T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``use_case(unit, *args, **kwargs)`` in a unit of work of its own, committed; the whole of it is tried again
    when the database is busy (``db.busy_retries`` times, waiting 10 ms, then 20, 40...)."""
    for attempt in range(db.busy_retries + 1):
        try:
            with db.unit() as unit:
                done = use_case(unit, *args, **kwargs)
                unit.commit()
                return done
        except OperationalError as exc:
            if not is_busy_error(exc) or attempt == db.busy_retries:
                raise
            time.sleep(0.01 * 2**attempt)
    raise AssertionError("unreachable")  # pragma: no cover


def look(db: Database, use_case: Callable[Concatenate[Reading, P], T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``use_case(reading, *args, **kwargs)`` in a read transaction of its own (one snapshot; deferred on SQLite, so
    it never waits for writers in WAL mode)."""
    with db.reading() as unit:
        return use_case(unit, *args, **kwargs)


def look_prepared(db: Database, use_case: Callable[Concatenate[Reading, P], T], /, *args: P.args,
                  **kwargs: P.kwargs) -> T:
    """``look`` for a use case that runs ``storage.prepared`` statements only (a third of a short read's CPU)."""
    with db.reading(prepared=True) as unit:
        return use_case(unit, *args, **kwargs)


def run_batched(db: Database, use_case: Batched[Part, Cursor, Outcome, Result], *,
                max_batches: int = MAX_BATCHES) -> Result:
    """A batched use case: each batch read by ``look``, each of its parts written by ``run`` (a unit of its own, so
    that no other writer waits long for the lock); what it did (its ``result`` of the outcomes, in order)."""
    outcomes: list[Outcome] = []
    after: Cursor | None = None
    for _ in range(max_batches):
        batch = look(db, use_case.read, after)
        for part in batch.parts:
            outcomes.append(run(db, use_case.write, part, tuple(outcomes)))
        if batch.after is None:
            break
        after = batch.after
    return use_case.result(outcomes)
