"""Inbound de-duplication: a message id is new only the first time it is seen, per gateway instance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from taskcore.services.sightings import first_sighting
from taskcore.storage import sightings
from taskcore.storage.db import Database
from taskcore.storage.schema import inbound_messages

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def test_a_message_id_is_new_only_the_first_time(db: Database) -> None:
    assert first_sighting(db, instance="main", message_id="ABC", now=NOW) is True
    assert first_sighting(db, instance="main", message_id="ABC", now=NOW + DAY) is False


def test_the_same_message_id_in_another_instance_is_new(db: Database) -> None:
    first_sighting(db, instance="main", message_id="ABC", now=NOW)
    assert first_sighting(db, instance="other", message_id="ABC", now=NOW) is True


def test_a_sighting_can_join_the_callers_transaction(db: Database) -> None:
    with db.write() as conn:
        assert sightings.first_sighting(conn, instance="main", message_id="ABC", now=NOW) is True
        assert sightings.first_sighting(conn, instance="main", message_id="ABC", now=NOW) is False
    with db.read() as conn:
        assert conn.execute(select(inbound_messages.c.seen_at)).scalar_one() == NOW
