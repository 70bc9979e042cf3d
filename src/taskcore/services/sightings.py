"""Inbound de-duplication (SPEC section 5): a message id seen before, per gateway instance, is acted on once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from taskcore.storage import sightings as q
from taskcore.storage.db import Database


def first_sighting(db: Database, *, instance: str, message_id: str, now: datetime) -> bool:
    """Record the message id; True the first time (instance, message_id) is seen, False for a redelivery."""
    return db.transact(lambda conn: q.first_sighting(conn, instance=instance, message_id=message_id, now=now))


def first_sightings(db: Database, sightings: Sequence[tuple[str, str, datetime]]) -> list[bool]:
    """``first_sighting`` of each (instance, message_id, now), in order, in one transaction (a pair given twice is
    seen first once)."""
    if not sightings:
        return []
    return db.transact(lambda conn: q.first_sightings(conn, sightings))
