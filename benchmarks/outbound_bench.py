"""Reminder tick over 100k users with preferences, and the outbound queue's drain rate against the fake gateway."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import aiohttp
from tests.fakes.gateway import FakeGateway

from benchmarks.reminder_dataset import CACHE, TODAY, build
from taskcore.access import GatingMode
from taskcore.gateway.client import GatewayClient
from taskcore.gateway.wire import send_text_body
from taskcore.reminders.tick import due_reminders, reminder_tick
from taskcore.services import queue
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run.bot.worker import QueueWorker, WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.metrics import Metrics

MADRID = ZoneInfo("Europe/Madrid")
MODE = GatingMode.OFF
GRACE = 60
RUNS = 15


def _local(hour: int, minute: int) -> datetime:
    return datetime(TODAY.year, TODAY.month, TODAY.day, hour, minute, tzinfo=MADRID).astimezone(UTC)


def _timed(work: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return (time.perf_counter() - started) * 1000, result


def _median_ms(work: Callable[[], object], runs: int = RUNS) -> float:
    return statistics.median(_timed(work)[0] for _ in range(runs))


def _tick(db: Database, at: tuple[int, int], since: tuple[int, int] | None) -> object:
    return reminder_tick(db, MODE, now=_local(*at), zone=MADRID, grace_minutes=GRACE, max_attempts=6,
                         since=None if since is None else _local(*since))


def _row(label: str, ms: float, extra: str = "") -> str:
    return f"| {label:<62} | {ms:>9.1f} ms | {extra}"


def reminder_rows() -> list[str]:
    """Tick timings at 100k users, in the order a running bot meets them on a Monday morning."""
    db = Database.from_url(sqlite_url(build()))
    rows = [_row("03:17, running (only slots due since 03:16): nothing due",
                 _median_ms(lambda: _tick(db, (3, 17), (3, 16)))),
            _row("03:17, first tick after a start (whole grace window)", _median_ms(lambda: _tick(db, (3, 17), None)))]
    ms, result = _timed(lambda: _tick(db, (8, 29), None))
    rows.append(_row(f"08:29, start with the last hour unsent: {result}", ms))
    plan = _median_ms(lambda: due_reminders(db, now=_local(8, 30), zone=MADRID, grace_minutes=GRACE,
                                            since=_local(8, 29)))
    due = len(due_reminders(db, now=_local(8, 30), zone=MADRID, grace_minutes=GRACE, since=_local(8, 29)))
    rows.append(_row(f"08:30 plan only: {due} users due (the 20% at 08:30)", plan))
    ms, result = _timed(lambda: _tick(db, (8, 30), (8, 29)))
    rows.append(_row(f"08:30 whole tick: {result}", ms, f"{ms * 1000 / max(due, 1):.0f} µs per user"))
    _tick(db, (8, 45), (8, 44))
    rows.append(_row("08:45, running, its own slots already recorded", _median_ms(lambda: _tick(db, (8, 45), (8, 44)))))
    rows.append(_row("08:45, first tick after a start (checks ~26k recorded slots)",
                     _median_ms(lambda: _tick(db, (8, 45), None))))
    ms, result = _timed(lambda: _tick(db, (9, 0), (8, 59)))
    rows.append(_row(f"09:00, running: {result}", ms))
    db.dispose()
    return rows


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
    print(f"| {'reminder tick, 100k users with preferences':<62} | {'time':>12} |")
    print(f"|{'-' * 64}|{'-' * 14}|")
    print("\n".join(reminder_rows()))
    print()
    print("| queue drain against the fake gateway        |        rate |")
    print("|---------------------------------------------|-------------|")
    print("\n".join(drain_rows()))


if __name__ == "__main__":
    main()
