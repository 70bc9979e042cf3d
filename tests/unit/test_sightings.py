"""Inbound de-duplication: a message id is new only the first time it is seen, per gateway instance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from taskcore.storage import sightings
from taskcore.storage.db import Database
from taskcore.storage.schema import inbound_messages


def first_sighting(db: Database, *, instance: str, message_id: str, now: datetime) -> bool:
    """One sighting in its own transaction."""
    return db.transact(lambda conn: sightings.first_sighting(conn, instance=instance, message_id=message_id, now=now))


def first_sightings(db: Database, pairs: list[tuple[str, str, datetime]]) -> list[bool]:
    """Sightings recorded together in their own transaction."""
    return db.transact(lambda conn: sightings.first_sightings(conn, pairs))

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


def test_several_message_ids_are_sighted_in_order_as_one_at_a_time_would(db: Database) -> None:
    first_sighting(db, instance="main", message_id="OLD", now=NOW)
    given = [("main", "A", NOW), ("main", "OLD", NOW), ("other", "A", NOW + DAY), ("main", "A", NOW),
             ("main", "B", NOW)]
    assert first_sightings(db, given) == [True, False, True, False, True]
    with db.read() as conn:
        rows = conn.execute(select(inbound_messages.c.instance, inbound_messages.c.message_id,
                                   inbound_messages.c.seen_at).order_by(inbound_messages.c.message_id,
                                                                        inbound_messages.c.instance)).all()
    assert [tuple(r) for r in rows] == [("main", "A", NOW), ("other", "A", NOW + DAY), ("main", "B", NOW),
                                        ("main", "OLD", NOW)]


def test_more_message_ids_than_one_statement_takes_are_all_sighted(db: Database) -> None:
    given = [("main", f"M{n % 40}", NOW) for n in range(80)]
    assert first_sightings(db, given) == [True] * 40 + [False] * 40
    assert first_sightings(db, []) == []
