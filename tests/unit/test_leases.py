"""Job leases: one instance at a time runs a scheduled job (SPEC section 13)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from taskcore.services.leases import acquire_lease, release_lease
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW

TTL = timedelta(minutes=5)


def test_the_first_owner_gets_the_lease_and_a_second_is_refused(db: Database) -> None:
    assert units.run(db, acquire_lease, name="group_sync", owner="a", now=NOW, ttl=TTL)
    assert not units.run(db, acquire_lease, name="group_sync", owner="b", now=NOW + timedelta(minutes=1), ttl=TTL)


def test_the_holder_renews_its_lease(db: Database) -> None:
    assert units.run(db, acquire_lease, name="group_sync", owner="a", now=NOW, ttl=TTL)
    assert units.run(db, acquire_lease, name="group_sync", owner="a", now=NOW + timedelta(minutes=4), ttl=TTL)
    assert not units.run(db, acquire_lease, name="group_sync", owner="b", now=NOW + timedelta(minutes=6), ttl=TTL)


def test_an_expired_lease_passes_to_another_owner(db: Database) -> None:
    units.run(db, acquire_lease, name="group_sync", owner="a", now=NOW, ttl=TTL)
    assert units.run(db, acquire_lease, name="group_sync", owner="b", now=NOW + TTL, ttl=TTL)


def test_a_released_lease_is_free_at_once_and_only_its_holder_can_release(db: Database) -> None:
    units.run(db, acquire_lease, name="group_sync", owner="a", now=NOW, ttl=TTL)
    units.run(db, release_lease, name="group_sync", owner="b")
    assert not units.run(db, acquire_lease, name="group_sync", owner="b", now=NOW, ttl=TTL)
    units.run(db, release_lease, name="group_sync", owner="a")
    assert units.run(db, acquire_lease, name="group_sync", owner="b", now=NOW, ttl=TTL)


def test_leases_on_different_jobs_are_independent(db: Database) -> None:
    assert units.run(db, acquire_lease, name="group_sync", owner="a", now=NOW, ttl=TTL)
    assert units.run(db, acquire_lease, name="reminders", owner="b", now=NOW, ttl=TTL)


def test_racing_owners_get_exactly_one_lease(db: Database) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda owner: units.run(db, acquire_lease, name="maintenance", owner=owner, now=NOW,
                                                        ttl=TTL), ["a", "b", "c", "d"]))
    assert results.count(True) == 1
