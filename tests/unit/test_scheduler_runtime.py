"""The scheduler runtime with a frozen clock and a sleep that moves it: ticks, failures, one run at a time, stop."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.exc import OperationalError

from taskcore.gateway.errors import GatewayError
from tasksvc_run.outage import FatalStop
from tasksvc_run.schedulers.runtime import Job, SchedulerRuntime, Sleep, every, every_minute
from tests.fakes.clock import FrozenClock

START = datetime(2026, 11, 23, 7, 29, 40, tzinfo=UTC)


def moving_sleep(clock: FrozenClock, *, early: float = 0.0) -> Sleep:
    """A sleep that moves the frozen clock (waking ``early`` seconds before the time asked when it can)."""

    async def sleep(seconds: float) -> None:
        clock.advance(timedelta(seconds=seconds - early if seconds > early else seconds))
        await asyncio.sleep(0)

    return sleep


async def wait_until(condition: Callable[[], bool], within: float = 2.0) -> None:
    async with asyncio.timeout(within):
        while True:
            if condition():
                return
            await asyncio.sleep(0.001)


async def test_a_failing_run_is_logged_and_tried_again_at_the_next_tick(caplog: pytest.LogCaptureFixture) -> None:
    clock = FrozenClock(START)
    ran: list[datetime] = []

    async def flaky() -> None:
        ran.append(clock.now())
        if len(ran) == 1:
            raise RuntimeError("gateway down")

    runtime = SchedulerRuntime([Job("flaky", flaky, every(timedelta(seconds=10)), at_start=True)], clock=clock,
                               sleep=moving_sleep(clock), sync_at_start=False)
    runtime.start()
    await wait_until(lambda: len(ran) >= 3)
    await runtime.stop()
    assert ran[:3] == [START, START + timedelta(seconds=10), START + timedelta(seconds=20)]
    assert "scheduled job failed" in caplog.text
    assert "gateway down" in caplog.text


async def test_a_gateway_that_does_not_answer_is_one_warning_line_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FrozenClock(START)
    ran: list[datetime] = []

    async def sync() -> None:
        ran.append(clock.now())
        raise GatewayError(None, "group/fetchAllGroups: ClientConnectorError: Cannot connect", True)

    runtime = SchedulerRuntime([Job("group_sync", sync, every(timedelta(seconds=10)), at_start=True)], clock=clock,
                               sleep=moving_sleep(clock), sync_at_start=False)
    runtime.start()
    await wait_until(lambda: len(ran) >= 2)
    await runtime.stop()
    failed = [r for r in caplog.records if "the gateway did not answer" in r.getMessage()]
    assert failed
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in failed)
    assert "Traceback" not in caplog.text


async def test_minute_ticks_run_at_the_start_of_each_minute_never_early() -> None:
    clock = FrozenClock(START)
    ran: list[datetime] = []

    async def record() -> None:
        ran.append(clock.now())

    runtime = SchedulerRuntime([Job("tick", record, every_minute)], clock=clock,
                               sleep=moving_sleep(clock, early=0.3), sync_at_start=False)
    runtime.start()
    await wait_until(lambda: len(ran) >= 3)
    await runtime.stop()
    minute = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
    assert all(minute + timedelta(minutes=k) <= at < minute + timedelta(minutes=k, seconds=1)
               for k, at in enumerate(ran[:3]))


async def test_a_job_never_runs_twice_at_the_same_time() -> None:
    release = asyncio.Event()
    running, most = 0, 0

    async def slow() -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()
        running -= 1

    runtime = SchedulerRuntime([Job("slow", slow, every(timedelta(hours=1)))], clock=FrozenClock(START),
                               sync_at_start=False)
    runs = [asyncio.ensure_future(runtime.run_job("slow")) for _ in range(3)]
    await asyncio.sleep(0.01)
    release.set()
    assert await asyncio.gather(*runs) == [True, True, True]
    assert most == 1


async def test_stop_lets_a_run_in_progress_finish_and_starts_no_other() -> None:
    clock = FrozenClock(START)
    started, finished = asyncio.Event(), []

    async def job() -> None:
        started.set()
        await asyncio.sleep(0.05)
        finished.append(clock.now())

    runtime = SchedulerRuntime([Job("job", job, every(timedelta(seconds=1)), at_start=True)], clock=clock,
                               sync_at_start=False)
    runtime.start()
    await started.wait()
    await runtime.stop()
    assert finished == [START]


async def test_stop_returns_at_once_while_the_jobs_sleep() -> None:
    async def job() -> None:
        return None

    runtime = SchedulerRuntime([Job("job", job, every(timedelta(days=1)))], clock=FrozenClock(START),
                               sync_at_start=False)
    runtime.start()
    await asyncio.sleep(0.01)
    async with asyncio.timeout(1):
        await runtime.stop()


async def test_request_sync_runs_group_sync_then_member_sync() -> None:
    order: list[str] = []
    member_done = asyncio.Event()

    async def groups() -> None:
        await asyncio.sleep(0.01)
        order.append("group_sync")

    async def members() -> None:
        order.append("member_sync")
        member_done.set()

    day = every(timedelta(days=1))
    runtime = SchedulerRuntime([Job("group_sync", groups, day), Job("member_sync", members, day)],
                               clock=FrozenClock(START), sync_at_start=False)
    runtime.request_sync()
    await asyncio.wait_for(member_done.wait(), 1)
    await runtime.stop()
    assert order == ["group_sync", "member_sync"]


async def test_request_sync_without_sync_jobs_only_logs(caplog: pytest.LogCaptureFixture) -> None:
    runtime = SchedulerRuntime([], clock=FrozenClock(START), sync_at_start=False)
    with caplog.at_level(logging.WARNING):
        runtime.request_sync()
    await runtime.stop()
    assert "no gateway is configured" in caplog.text


async def test_a_database_outage_in_a_job_is_logged_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    clock = FrozenClock(START)
    ran: list[datetime] = []

    async def reminders() -> None:
        ran.append(clock.now())
        if len(ran) <= 4:
            raise OperationalError("SELECT", {}, sqlite3.OperationalError("disk I/O error"))

    runtime = SchedulerRuntime([Job("reminders", reminders, every(timedelta(seconds=10)), at_start=True)],
                               clock=clock, sleep=moving_sleep(clock), sync_at_start=False)
    runtime.start()
    await wait_until(lambda: len(ran) >= 6)
    await runtime.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "tasksvc.database"]
    assert said == ["database unavailable; retrying quietly until it is back", "database available again"]


async def test_a_missing_table_in_a_job_stops_the_process() -> None:
    clock = FrozenClock(START)
    stops: list[str] = []

    async def reminders() -> None:
        raise OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: reminder_deliveries"))

    runtime = SchedulerRuntime([Job("reminders", reminders, every(timedelta(seconds=10)), at_start=True)],
                               clock=clock, sleep=moving_sleep(clock), sync_at_start=False,
                               fatal=FatalStop(lambda: stops.append("stop")))
    runtime.start()
    await wait_until(lambda: bool(stops))
    await runtime.stop()
    assert stops == ["stop"]
