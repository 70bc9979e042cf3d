"""A starting bot releases at once the leases of its dead predecessors on this host, and only theirs."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import timedelta

from sqlalchemy import select

from taskcore.gateway.outbound import text_payload
from taskcore.services import queue
from taskcore.services.leases import acquire_lease, lease_holder
from taskcore.services.takeover import take_over_dead_leases
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue as oq
from tasksvc_run import units
from tests.builders import NOW

LEASE = timedelta(minutes=2)


def claim_one(db: Database, chat: str, owner: str) -> int:
    units.run(db, queue.enqueue_message, chat_id=chat, kind="text", payload=text_payload(chat_id=chat, text="hola"),
              max_attempts=6, now=NOW)
    [job] = units.run(db, queue.claim_jobs, owner=owner, now=NOW, lease=LEASE, limit=1)
    return job.id


def jobs(db: Database) -> dict[str, tuple[str, str | None, int]]:
    with db.read() as conn:
        return {r.chat_id: (r.status, r.lease_owner, r.attempts)
                for r in conn.execute(select(oq.c.chat_id, oq.c.status, oq.c.lease_owner, oq.c.attempts))}


def dead_of(*names: str) -> Callable[[Collection[str]], set[str]]:
    def judge(owners: Collection[str]) -> set[str]:
        return {owner for owner in owners if owner in names}

    return judge


def test_the_jobs_and_job_leases_of_dead_owners_are_released_and_the_live_ones_kept(db: Database) -> None:
    claim_one(db, "a@s.whatsapp.net", "dead")
    claim_one(db, "b@s.whatsapp.net", "alive")
    units.run(db, acquire_lease, name="reminders", owner="dead", now=NOW, ttl=LEASE)
    units.run(db, acquire_lease, name="group_sync", owner="alive", now=NOW, ttl=LEASE)
    later = NOW + timedelta(seconds=1)

    taken = units.run(db, take_over_dead_leases, dead=dead_of("dead"), now=later)

    assert (taken.owners, taken.jobs, taken.job_leases) == (frozenset({"dead"}), 1, 1)
    assert jobs(db) == {"a@s.whatsapp.net": ("pending", None, 1), "b@s.whatsapp.net": ("sending", "alive", 1)}
    assert units.run(db, acquire_lease, name="reminders", owner="new", now=later, ttl=LEASE)  # free at once
    assert not units.run(db, acquire_lease, name="group_sync", owner="new", now=later, ttl=LEASE)
    [again] = units.run(db, queue.claim_jobs, owner="new", now=later, lease=LEASE, limit=5)
    assert again.chat_id == "a@s.whatsapp.net"  # due now, not after its lease


def test_nothing_to_take_over_touches_nothing(db: Database) -> None:
    claim_one(db, "a@s.whatsapp.net", "alive")
    taken = units.run(db, take_over_dead_leases, dead=dead_of(), now=NOW)
    assert (taken.owners, taken.jobs, taken.job_leases) == (frozenset(), 0, 0)
    assert jobs(db)["a@s.whatsapp.net"][0] == "sending"


def test_an_expired_job_lease_is_not_counted(db: Database) -> None:
    units.run(db, acquire_lease, name="reminders", owner="dead", now=NOW - LEASE * 2, ttl=LEASE)
    taken = units.run(db, take_over_dead_leases, dead=dead_of("dead"), now=NOW)
    assert taken.job_leases == 0
    assert units.look(db, lease_holder, name="reminders") is not None
