"""Reminder tick over 100k users with preferences in 20 time zones (a simulated day of minute ticks), the 08:30 peak
under the send rate (time to queue, and when the last digest leaves), and the outbound queue's drain rate against the
fake gateway."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TypeVar

import aiohttp
from sqlalchemy import func, select
from tests.fakes.gateway import FakeGateway

from benchmarks.reminder_dataset import CACHE, START, TZ, build
from benchmarks.scheduler_minute import Config, Minute, MinuteFigures, figures_of, run_minute
from taskcore.access import GatingMode
from taskcore.gateway.outbound import text_payload
from taskcore.pacing import DEFAULT_MAX_SENDS_PER_MIN, digest_due, last_departure
from taskcore.queue_rules import DIGEST_LABEL
from taskcore.services import queue
from taskcore.services.reminder_tick import ReminderTick, TickResult
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.schema import outbound_queue, user_preferences
from tasksvc_run import units
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics

T = TypeVar("T")
MODE = GatingMode.OFF
GRACE = 60
MINUTE = timedelta(minutes=1)
DAY_MINUTES = 24 * 60
ISSUE_PEAK = 21_169  # the 08:30 peak issue 20 measured (an earlier dataset); the last departure is computed for it
DRAIN_RATE = 600_000  # GATEWAY_MAX_SENDS_PER_MIN for the drain: raised out of the way (10,000 a second)


def _timed(work: Callable[[], T]) -> tuple[float, T]:
    started = time.perf_counter()
    result = work()
    return (time.perf_counter() - started) * 1000, result


def _tick(db: Database, now: datetime) -> TickResult:
    return units.run_batched(db, ReminderTick(MODE, now=now, zone=TZ, grace_minutes=GRACE, max_attempts=6))


@dataclass(frozen=True)
class DayFigures:
    """One simulated day of minute ticks over the reminder dataset (a running bot: each row planned)."""

    quiet_ms: float  # median of the minutes with nothing due
    running_ms: float  # median of every minute
    p99_ms: float
    busiest_ms: float  # the minute with the most users due
    busiest_due: int
    busiest_at: datetime
    due: int  # slots handled over the day
    per_user_us: float  # the busiest minute's time per user due

    def rows(self) -> list[tuple[str, float, str]]:
        """(measure, value, unit) for the tables."""
        at = f"{self.busiest_at:%H:%M} UTC"
        return [("a running minute with nothing due (median)", self.quiet_ms, "ms"),
                ("a running minute, any (median of the day's 1,440)", self.running_ms, "ms"),
                ("a running minute, p99 of the day", self.p99_ms, "ms"),
                (f"the busiest minute ({at}): {self.busiest_due:,} users due, digests queued", self.busiest_ms, "ms"),
                ("the busiest minute, per user due", self.per_user_us, "µs"),
                ("slots handled over the day", float(self.due), "slots")]


@dataclass(frozen=True)
class SimulatedDay:
    """The day's figures: the reminder tick's alone, and the whole scheduler minute's (issue 29)."""

    reminders: DayFigures
    minute: MinuteFigures


def simulate_day(db: Database) -> SimulatedDay:
    """Run every minute of the dataset's day as the running scheduler does: the reminder tick and section 25's
    ticks, each timed."""
    minutes = [run_minute(db, START + k * MINUTE, Config()) for k in range(DAY_MINUTES)]
    return SimulatedDay(_reminder_figures(minutes), figures_of(minutes))


def _reminder_figures(minutes: list[Minute]) -> DayFigures:
    """The reminder tick's part of each minute: a quiet minute, any minute, the busiest one."""
    ticks = [(m.ms["reminders"], _handled(m.results["reminders"]), m.at) for m in minutes]
    quiet = [ms for ms, due, _ in ticks if due == 0]
    busiest = max(ticks, key=lambda m: m[1])
    times = sorted(ms for ms, _, _ in ticks)
    return DayFigures(statistics.median(quiet), statistics.median(times), times[int(len(times) * 0.99)], busiest[0],
                      busiest[1], busiest[2], sum(due for _, due, _ in ticks), busiest[0] * 1000 / max(busiest[1], 1))


def _handled(result: TickResult) -> int:
    return result.sent + result.late + result.skipped


def first_tick_after_upgrade(path: Path) -> tuple[float, TickResult]:
    """The first tick after migration 0004 on a database whose rows were never planned (next look at the epoch)."""
    db = Database.from_url(sqlite_url(path))
    try:
        with db.write() as conn:
            conn.execute(user_preferences.update().where(user_preferences.c.freq != "off").values(
                next_due_at=datetime(1970, 1, 1, tzinfo=UTC)))
        return _timed(partial(_tick, db, START + 8 * 60 * MINUTE))
    finally:
        db.dispose()


@dataclass(frozen=True)
class PeakFigures:
    """The 08:30 peak with digests spread at a send rate: how long the tick takes to queue them and when the last
    of them (and of those queued before it that day) leaves at that rate."""

    per_min: int
    at: datetime
    queued: int
    queue_ms: float
    last_leaves_min: float  # minutes after the peak's slot
    issue_peak_min: float  # the same for ISSUE_PEAK digests queued at once, from their due times

    def rows(self) -> list[tuple[str, float, str]]:
        """(measure, value, unit) for the tables."""
        at = f"{self.at:%H:%M} UTC peak at GATEWAY_MAX_SENDS_PER_MIN={self.per_min}"
        return [(f"{at}: {self.queued:,} digests queued, time to queue", self.queue_ms, "ms"),
                (f"{at}: the last digest leaves, after the slot", self.last_leaves_min, "min"),
                (f"{ISSUE_PEAK:,} digests at once (issue 20's 08:30 peak): the last leaves, after the slot",
                 self.issue_peak_min, "min")]


def peak_under_rate(per_min: int = DEFAULT_MAX_SENDS_PER_MIN) -> PeakFigures:
    """Tick every minute from the dataset's start to the 08:30 peak with digests spread at ``per_min``; the peak
    tick's time, and when the last digest queued so far leaves at that rate (from the due times, sent in due order
    one spacing apart, as the paced worker does with nothing else to send)."""
    db = Database.from_url(sqlite_url(build()))
    try:
        peak = _busiest_look(db)
        minute = START
        while minute < peak:
            units.run_batched(db, ReminderTick(MODE, now=minute, zone=TZ, grace_minutes=GRACE, max_attempts=6,
                                               sends_per_min=per_min))
            minute += MINUTE
        ms, result = _timed(partial(units.run_batched, db, ReminderTick(MODE, now=peak, zone=TZ, grace_minutes=GRACE,
                                                                        max_attempts=6, sends_per_min=per_min)))
        with db.read() as conn:
            due = conn.execute(outbound_queue.select().with_only_columns(outbound_queue.c.next_attempt_at)
                               .where(outbound_queue.c.label == DIGEST_LABEL)).scalars().all()
    finally:
        db.dispose()
    last = last_departure(due, per_min=per_min) or peak
    window = peak + timedelta(minutes=GRACE)
    issue = last_departure((digest_due(peak, index=n, window_end=window, per_min=per_min) for n in range(ISSUE_PEAK)),
                           per_min=per_min) or peak
    return PeakFigures(per_min, peak, result.queued, ms, (last - peak).total_seconds() / 60,
                       (issue - peak).total_seconds() / 60)


def _busiest_look(db: Database) -> datetime:
    """The minute the most preferences are next looked at: the day's peak."""
    look = user_preferences.c.next_due_at
    with db.read() as conn:
        found = conn.execute(select(look).where(look.is_not(None)).group_by(look)
                             .order_by(func.count().desc()).limit(1)).scalar_one()
    return found.replace(tzinfo=UTC) if found.tzinfo is None else found


def reminder_rows() -> list[str]:
    """The simulated day's figures at 100k users over 20 zones (the reminder tick's, then the whole scheduler
    minute's), then the first tick after the upgrade."""
    db = Database.from_url(sqlite_url(build()))
    try:
        day = simulate_day(db)
    finally:
        db.dispose()
    rows = [_row(measure, value, unit) for measure, value, unit in day.reminders.rows()]
    rows += [_row(measure, value, unit) for measure, value, unit in day.minute.rows()]
    ms, result = first_tick_after_upgrade(build())
    rows.append(_row(f"first tick after the upgrade (every row planned once): {result}", ms, "ms"))
    rows += [_row(measure, value, unit) for measure, value, unit in peak_under_rate().rows()]
    return rows


def _row(label: str, value: float, unit: str) -> str:
    return f"| {label:<75} | {value:>10.1f} {unit:<5} |"


def _queue_db(chats: int, per_chat: int) -> Database:
    path = CACHE / "drain.db"
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    db = Database.from_url(sqlite_url(path))
    migrator.migrate(db)
    now = datetime.now(UTC) - timedelta(seconds=1)
    for n in range(per_chat):
        for c in range(chats):
            chat = f"3461{c:07d}"
            units.run(db, queue.enqueue_message, chat_id=chat, kind="text",
                      payload=text_payload(chat_id=chat, text=f"m{n}"), max_attempts=6, now=now)
    return db


async def _drain(chats: int, per_chat: int, concurrency: int, per_min: int | None = DRAIN_RATE) -> float:
    db = _queue_db(chats, per_chat)
    async with FakeGateway() as gateway, aiohttp.ClientSession() as session:
        client = EvolutionGateway(session, base_url=gateway.url, instance="taskbot", api_key="test-api-key",
                               timeout_ms=10_000)
        worker = QueueWorker(db, client, clock=SystemClock(), metrics=Metrics(),
                             config=WorkerConfig(concurrency=concurrency, max_sends_per_min=per_min))
        started = time.perf_counter()
        worker.start()
        async with asyncio.timeout(120):
            while True:
                if len(gateway.calls) >= chats * per_chat:
                    break
                await asyncio.sleep(0.01)
        elapsed = time.perf_counter() - started
        await worker.stop()
    db.dispose()
    return chats * per_chat / elapsed


def drain_rows() -> list[str]:
    """Messages per second from a full queue to the fake gateway (same process, loopback)."""
    rows = []
    for chats, per_chat, concurrency in ((200, 10, 4), (200, 10, 8), (1, 500, 4)):
        rate = asyncio.run(_drain(chats, per_chat, concurrency))
        rows.append(f"| {chats:>4} chats x {per_chat:>3} msgs, concurrency {concurrency}, rate raised | {rate:>8.0f} "
                    "msg/s |")
    return rows


def main() -> None:
    """Print the reminder tick table and the drain-rate table."""
    print(f"| {'reminder tick, 100k users with preferences over 20 zones':<75} | {'value':>16} |")
    print(f"|{'-' * 77}|{'-' * 18}|")
    print("\n".join(reminder_rows()))
    print()
    print(f"| queue drain against the fake gateway (GATEWAY_MAX_SENDS_PER_MIN={DRAIN_RATE:,}) |        rate |")
    print("|----------------------------------------------------------------|-------------|")
    print("\n".join(drain_rows()))


if __name__ == "__main__":
    main()
