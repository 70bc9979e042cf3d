"""Inbound de-duplication (SPEC section 5): a message id seen before, per gateway instance, is ignored."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

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
