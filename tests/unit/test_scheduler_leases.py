"""Scheduled jobs shared by several bot instances through job leases (SPEC section 13): a tick runs in one instance,
the others skip it and look again when its hold ends; a run asked for waits while another instance runs the job."""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from taskcore.services.leases import lease_holder
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.schedulers.leases import DatabaseLeases, Sleep, process_owner
from tasksvc_run.schedulers.runtime import FOLLOW_SLACK, Job, SchedulerRuntime, every, every_minute
from tests.builders import NOW
from tests.fakes.clock import FrozenClock

TTL = timedelta(minutes=2)


def leases(db: Database, owner: str, clock: FrozenClock, sleep: Sleep = asyncio.sleep) -> DatabaseLeases:
    return DatabaseLeases(db, owner=owner, clock=clock, sleep=sleep)


def moving_sleep(clock: FrozenClock, asked: list[float] | None = None) -> Sleep:
    """A sleep that moves the frozen clock by the time asked (and records it)."""

    async def sleep(seconds: float) -> None:
        if asked is not None:
            asked.append(seconds)
        clock.advance(timedelta(seconds=seconds))
        await asyncio.sleep(0)

    return sleep


async def sleep_forever(_: float) -> None:
    await asyncio.Event().wait()


async def wait_until(condition: Callable[[], bool], within: float = 5.0) -> None:
    async with asyncio.timeout(within):
        while True:
            if condition():
                return
            await asyncio.sleep(0.005)


class Runs:
    """A job that records when it ran, by the clock."""

    def __init__(self, clock: FrozenClock) -> None:
        self.clock = clock
        self.at: list[datetime] = []

    async def __call__(self) -> None:
        self.at.append(self.clock.now())


def test_the_lease_owner_names_the_host_the_process_its_start_and_a_random_part() -> None:
    owner = process_owner()
    assert re.fullmatch(rf".+:{os.getpid()}:[0-9]+:[0-9a-f]{{8}}", owner)
    assert process_owner() != owner
    assert process_owner().rsplit(":", 1)[0] == owner.rsplit(":", 1)[0]  # one process, one start


async def test_a_tick_taken_by_one_instance_is_refused_to_another_until_it_ends(db: Database) -> None:
    clock = FrozenClock(NOW)
    first, second = leases(db, "host:1:aa", clock), leases(db, "host:2:bb", clock)
    assert await first.take_tick("reminders", now=NOW, until=NOW + timedelta(minutes=1)) is None
    assert await second.take_tick("reminders", now=NOW, until=NOW + timedelta(minutes=1)) == NOW + timedelta(minutes=1)
    later = NOW + timedelta(minutes=1)
    assert await second.take_tick("reminders", now=later, until=later + timedelta(minutes=1)) is None


async def test_the_holder_of_a_tick_keeps_the_next_one(db: Database) -> None:
    clock = FrozenClock(NOW)
    first, second = leases(db, "host:1:aa", clock), leases(db, "host:2:bb", clock)
    await first.take_tick("reminders", now=NOW, until=NOW + timedelta(minutes=1))
    assert await first.take_tick("reminders", now=NOW + timedelta(seconds=59), until=NOW + timedelta(minutes=2)) is None
    assert await second.take_tick("reminders", now=NOW + timedelta(seconds=61), until=NOW + timedelta(minutes=3)) == (
        NOW + timedelta(minutes=2))


async def test_a_run_lease_is_refused_while_another_instance_runs_the_job_and_free_after(db: Database) -> None:
    clock = FrozenClock(NOW)
    first, second = leases(db, "host:1:aa", clock), leases(db, "host:2:bb", clock)
    async with first.hold("group_sync", ttl=TTL) as held:
        assert held
        async with second.hold("group_sync", ttl=TTL) as also:
            assert not also
    async with second.hold("group_sync", ttl=TTL) as held:
        assert held


async def test_a_run_lease_is_renewed_while_the_run_lasts(db: Database) -> None:
    clock = FrozenClock(NOW)
    first = leases(db, "host:1:aa", clock, sleep=moving_sleep(clock))
    async with first.hold("maintenance", ttl=TTL) as held:
        assert held
        await wait_until(lambda: units.look(db, lease_holder,
                                            name="maintenance")[1] > NOW + 2 * TTL)  # type: ignore[index]
        async with leases(db, "host:2:bb", clock).hold("maintenance", ttl=TTL) as also:
            assert not also  # long past the first TTL, the run still holds its lease


async def test_a_failed_run_gives_its_lease_back(db: Database) -> None:
    clock = FrozenClock(NOW)

    async def failing() -> None:
        raise RuntimeError("gateway down")

    runtime = SchedulerRuntime([Job("group_sync", failing, every(timedelta(hours=1)))], clock=clock,
                               sync_at_start=False, leases=leases(db, "host:1:aa", clock))
    assert not await runtime.run_job("group_sync")
    async with leases(db, "host:2:bb", clock).hold("group_sync", ttl=TTL) as held:
        assert held


async def test_an_asked_run_waits_while_another_instance_runs_the_job(db: Database) -> None:
    clock = FrozenClock(NOW)
    runs, slept = Runs(clock), []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await asyncio.sleep(0.01)

    runtime = SchedulerRuntime([Job("group_sync", runs, every(timedelta(hours=1)))], clock=clock, sleep=sleep,
                               sync_at_start=False, leases=leases(db, "host:2:bb", clock))
    async with leases(db, "host:1:aa", clock).hold("group_sync", ttl=TTL):
        asked = asyncio.ensure_future(runtime.run_job("group_sync"))
        await wait_until(lambda: len(slept) >= 2)
        assert runs.at == []
    assert await asyncio.wait_for(asked, 5)
    assert runs.at == [NOW]


async def test_an_asked_run_gives_up_when_the_other_instance_keeps_running_it(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FrozenClock(NOW)
    runs = Runs(clock)
    job = Job("group_sync", runs, every(timedelta(hours=1)), lease_ttl=timedelta(seconds=3))
    runtime = SchedulerRuntime([job], clock=clock, sleep=moving_sleep(clock), sync_at_start=False,
                               leases=leases(db, "host:2:bb", clock))
    async with leases(db, "host:1:aa", clock).hold("group_sync", ttl=timedelta(hours=1)):
        with caplog.at_level(logging.WARNING):
            assert not await runtime.run_job("group_sync")
    assert runs.at == []
    assert "another instance kept running it" in caplog.text


async def test_a_scheduled_tick_runs_in_one_of_two_instances_and_the_other_waits_for_its_end(db: Database) -> None:
    clock = FrozenClock(NOW)
    runs, asked = Runs(clock), []
    sleeps = [sleep_forever, moving_sleep(FrozenClock(NOW), asked)]  # the second only records what it was asked
    runtimes = [SchedulerRuntime([Job("reminders", runs, every_minute, at_start=True)], clock=clock, sleep=sleep,
                                 sync_at_start=False, leases=leases(db, f"host:{n}:aa", clock))
                for n, sleep in enumerate(sleeps)]
    runtimes[0].start()
    await wait_until(lambda: len(runs.at) == 1)
    runtimes[1].start()
    await wait_until(lambda: len(asked) >= 1)
    for runtime in runtimes:
        await runtime.stop()
    assert runs.at == [NOW]
    next_minute = NOW.replace(second=0) + timedelta(minutes=1)
    assert asked[0] == (next_minute + FOLLOW_SLACK - NOW).total_seconds()


async def test_another_instance_takes_the_tick_over_when_the_holder_stops_renewing_it(db: Database) -> None:
    clock = FrozenClock(NOW)
    runs = Runs(clock)
    held_until = NOW + timedelta(minutes=10)
    await leases(db, "gone:1:aa", clock).take_tick("maintenance", now=NOW, until=held_until)
    runtime = SchedulerRuntime([Job("maintenance", runs, every(timedelta(days=1)), at_start=True)], clock=clock,
                               sleep=moving_sleep(clock), sync_at_start=False, leases=leases(db, "host:2:bb", clock))
    runtime.start()
    await wait_until(lambda: len(runs.at) >= 1)
    await runtime.stop()
    assert runs.at[0] == held_until + FOLLOW_SLACK


def test_a_lease_never_taken_has_no_holder_and_a_taken_one_names_its_owner(db: Database) -> None:
    assert units.look(db, lease_holder, name="reminders:tick") is None
    asyncio.run(leases(db, "host:1:aa", FrozenClock(NOW)).take_tick("reminders", now=NOW, until=NOW + TTL))
    assert units.look(db, lease_holder, name="reminders:tick") == ("host:1:aa", NOW + TTL)
