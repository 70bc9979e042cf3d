"""Inbound de-duplication (SPEC section 5): a message id seen before, per gateway instance, is ignored."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam

from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import inbound_messages

im = inbound_messages


# The webhook runs it for every message: prepared (storage/prepared.py).
_SIGHTING = Prepared(lambda dialect: dialect_insert(dialect, im).on_conflict_do_nothing(
    index_elements=["instance", "message_id"]).returning(im.c.message_id), ["instance", "message_id", "seen_at"])


def first_sighting(conn: Connection, *, instance: str, message_id: str, now: datetime) -> bool:
    """True the first time (instance, message_id) is seen; False for a redelivery."""
    row = {"instance": instance, "message_id": message_id, "seen_at": now}
    return _SIGHTING.first(conn, row) is not None


# Rows per statement: one statement per size, so a few cover any count (15 = 8 + 4 + 2 + 1) and the driver's cache
# of prepared statements (128 a connection) keeps them all.
_SIZES = (32, 16, 8, 4, 2, 1)
_MANY: dict[int, Prepared] = {}


def _many(rows: int) -> Prepared:
    """``_SIGHTING`` for ``rows`` rows at once (parameters ``instance_<n>``, ``message_id_<n>``, ``seen_at_<n>``)."""
    found = _MANY.get(rows)
    if found is None:
        names = [(f"instance_{n}", f"message_id_{n}", f"seen_at_{n}") for n in range(rows)]
        values = [{"instance": bindparam(instance), "message_id": bindparam(message_id),
                   "seen_at": bindparam(seen_at, type_=im.c.seen_at.type)} for instance, message_id, seen_at in names]
        found = _MANY[rows] = Prepared(
            lambda dialect: dialect_insert(dialect, im).values(values).on_conflict_do_nothing(
                index_elements=["instance", "message_id"]).returning(im.c.instance, im.c.message_id),
            [name for row in names for name in row])
    return found


def first_sightings(conn: Connection, sightings: Sequence[tuple[str, str, datetime]]) -> list[bool]:
    """``first_sighting`` of each (instance, message_id, now), in order, in a few statements (``_SIZES``): a pair given
    twice is seen first once, as one at a time would have it."""
    new: set[tuple[str, str]] = set()
    at = 0
    while at < len(sightings):
        size = next(size for size in _SIZES if size <= len(sightings) - at)
        chunk, at = sightings[at:at + size], at + size
        params: dict[str, Any] = {}
        for n, (instance, message_id, now) in enumerate(chunk):
            params[f"instance_{n}"], params[f"message_id_{n}"], params[f"seen_at_{n}"] = instance, message_id, now
        new.update((instance, message_id) for instance, message_id in _many(len(chunk)).all(conn, params))
    firsts = []
    for instance, message_id, _ in sightings:
        firsts.append((instance, message_id) in new)
        new.discard((instance, message_id))
    return firsts
