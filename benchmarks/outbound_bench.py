"""Reminder tick over 100k users with preferences in 20 time zones (a simulated day of minute ticks), and the outbound
queue's drain rate against the fake gateway."""

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
from tests.fakes.gateway import FakeGateway

from benchmarks.reminder_dataset import CACHE, START, TZ, build
from taskcore.access import GatingMode
from taskcore.gateway.client import GatewayClient
from taskcore.gateway.wire import send_text_body
from taskcore.reminders.tick import TickResult, reminder_tick
from taskcore.services import queue
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.schema import user_preferences
from tasksvc_run.bot.worker import QueueWorker, WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.metrics import Metrics

T = TypeVar("T")
MODE = GatingMode.OFF
GRACE = 60
MINUTE = timedelta(minutes=1)
DAY_MINUTES = 24 * 60


def _timed(work: Callable[[], T]) -> tuple[float, T]:
    started = time.perf_counter()
    result = work()
    return (time.perf_counter() - started) * 1000, result


def _tick(db: Database, now: datetime) -> TickResult:
    return reminder_tick(db, MODE, now=now, zone=TZ, grace_minutes=GRACE, max_attempts=6)


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


def simulate_day(db: Database) -> DayFigures:
    """Tick every minute of the dataset's day, as the running job does."""
    minutes = []
    for k in range(DAY_MINUTES):
        ms, result = _timed(partial(_tick, db, START + k * MINUTE))
        minutes.append((ms, result.sent + result.late + result.skipped, START + k * MINUTE))
    quiet = [ms for ms, due, _ in minutes if due == 0]
    busiest = max(minutes, key=lambda m: m[1])
    times = sorted(ms for ms, _, _ in minutes)
    return DayFigures(statistics.median(quiet), statistics.median(times), times[int(len(times) * 0.99)], busiest[0],
                      busiest[1], busiest[2], sum(due for _, due, _ in minutes), busiest[0] * 1000 / max(busiest[1], 1))


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


def reminder_rows() -> list[str]:
    """The simulated day's figures at 100k users over 20 zones, then the first tick after the upgrade."""
    db = Database.from_url(sqlite_url(build()))
    try:
        day = simulate_day(db)
    finally:
        db.dispose()
    rows = [_row(measure, value, unit) for measure, value, unit in day.rows()]
    ms, result = first_tick_after_upgrade(build())
    rows.append(_row(f"first tick after the upgrade (every row planned once): {result}", ms, "ms"))
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
            queue.enqueue_message(db, chat_id=chat, kind="text", payload=send_text_body(chat_id=chat, text=f"m{n}"),
                                  max_attempts=6, now=now)
    return db


async def _drain(chats: int, per_chat: int, concurrency: int) -> float:
    db = _queue_db(chats, per_chat)
    async with FakeGateway() as gateway, aiohttp.ClientSession() as session:
        client = GatewayClient(session, base_url=gateway.url, instance="taskbot", api_key="test-api-key",
                               timeout_ms=10_000)
        worker = QueueWorker(db, client, clock=SystemClock(), metrics=Metrics(),
                             config=WorkerConfig(concurrency=concurrency))
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
        rows.append(f"| {chats:>4} chats x {per_chat:>3} msgs, concurrency {concurrency} | {rate:>8.0f} msg/s |")
    return rows


def main() -> None:
    """Print the reminder tick table and the drain-rate table."""
    print(f"| {'reminder tick, 100k users with preferences over 20 zones':<75} | {'value':>16} |")
    print(f"|{'-' * 77}|{'-' * 18}|")
    print("\n".join(reminder_rows()))
    print()
    print("| queue drain against the fake gateway        |        rate |")
    print("|---------------------------------------------|-------------|")
    print("\n".join(drain_rows()))


if __name__ == "__main__":
    main()
