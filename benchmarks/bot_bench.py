"""Webhook "create task" events end to end: acknowledged, processed, reply queued (SPEC section 14).

The bot runs in a child process pinned to core 0 with a SQLite file (or a fresh schema of BOT_BENCH_DATABASE_URL,
PostgreSQL), set up as ``tasksvc bot`` sets it up; this process, on core 1, posts ``/t nueva`` commands from 200
people in 50 groups with a bare HTTP/1.1 client and polls the queue until every reply is there. Two passes:
saturated (a fixed number of connections, each sending as soon as its answer is in) gives events/s and the bot's
CPU per event, which is the figure least disturbed by neighbours on a shared machine; paced (PERFORMANCE.md's 2,000
events/s offered, open loop) gives the acknowledgement latency at that rate, counted from each request's scheduled
time. A hello-world aiohttp server measured the same ways in the same run gives the ratio and the machine's latency
floor (absolute figures vary a lot between runs on shared machines). Resident memory is read from /proc.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from sqlalchemy import func, select, text

from benchmarks.common import cpu_seconds, free_port, memory_mb, pin
from benchmarks.loadgen import exchange, load, post_json
from taskcore.settings import load_settings
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.schema import outbound_queue
from tasksvc_run.bot.app import make_bot_app, tune_process

EVENTS = 3000
WARMUP = 300
CONNECTIONS = 32
GROUPS = 50
PEOPLE = 200
RATE = 2000  # events/s offered in the paced run: PERFORMANCE.md's target
PACED_EVENTS = 6000
PACED_CONNECTIONS = 64
POST_LIMIT = 120.0  # seconds any one pass may take


def serve_bot(env: dict[str, str], port: int) -> None:
    """The bot app on ``port``, pinned to core 0, set up as ``tasksvc bot`` sets it up, with ``env`` besides."""
    pin(0)
    settings = load_settings({"NODE_ENV": "test", "RATE_LIMIT_PER_MIN": "1000000",
                              "SENDS_PER_PERSON_PER_MIN": "1000000", "REACTIONS_ENABLED": "false",
                              **env})
    app = make_bot_app(settings)
    tune_process(app)  # as `tasksvc bot` does
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


def _serve_hello(port: int) -> None:
    pin(0)

    async def hello(_: web.Request) -> web.Response:
        return web.json_response({"status": "accepted"})

    app = web.Application()
    app.router.add_post("/webhook", hello)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


def event(i: int) -> bytes:
    """One ``/t nueva`` messages.upsert from person i % PEOPLE in group i % GROUPS."""
    key = {"remoteJid": f"1203633{i % GROUPS:011d}@g.us", "fromMe": False, "id": f"BENCH{i:08d}",
           "participant": f"{34600000000 + i % PEOPLE}@s.whatsapp.net"}
    data = {"key": key, "pushName": f"P{i % PEOPLE}", "message": {"conversation": f"/t nueva tarea {i} mañana"},
            "messageType": "conversation", "messageTimestamp": 1767003303}
    return json.dumps({"event": "messages.upsert", "instance": "bench", "data": data}).encode()


async def _post_all(url: str, bodies: list[bytes]) -> tuple[list[float], float]:
    """Post every body over CONNECTIONS kept-alive connections, each sending as soon as its answer is in (closed
    loop, benchmarks.loadgen); (ack latencies in ms, seconds taken)."""
    port = urlsplit(url).port or 80
    run = await load(port, [post_json(urlsplit(url).path, body) for body in bodies], CONNECTIONS)
    return run.latencies, run.seconds


async def _post_paced(url: str, bodies: list[bytes], rate: float) -> tuple[list[float], float]:
    """Post body i at ``i / rate`` s after the start (open loop) over up to PACED_CONNECTIONS connections; (ack
    latencies in ms, counted from each request's scheduled time so a stalled server cannot hide, and the seconds
    from the start to the last answer)."""
    latencies: list[float] = []
    schedule = iter(enumerate(bodies))
    started = time.perf_counter()

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", urlsplit(url).port or 80)
        try:
            for i, body in schedule:
                due = started + i / rate
                if (wait := due - time.perf_counter()) > 0:
                    await asyncio.sleep(wait)
                if (status := await exchange(reader, writer, post_json(urlsplit(url).path, body))) != 200:
                    raise RuntimeError(f"webhook answered {status}")
                latencies.append((time.perf_counter() - due) * 1000)
        finally:
            writer.close()

    async with asyncio.timeout(POST_LIMIT):
        await asyncio.gather(*(client() for _ in range(PACED_CONNECTIONS)))
    return latencies, time.perf_counter() - started


def wait_ready(port: int, deadline: float = 30.0) -> None:
    """Until ``port`` takes a connection (RuntimeError after ``deadline`` s)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start")


def _replies(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(outbound_queue)).scalar_one())


def _until_replies(db: Database, wanted: int, limit: float = 120.0) -> float:
    """Poll until ``wanted`` replies are queued; the time it took (bounded)."""
    started = time.perf_counter()
    while _replies(db) < wanted:
        if time.perf_counter() - started > limit:
            raise RuntimeError(f"only {_replies(db)} of {wanted} replies after {limit} s")
        time.sleep(0.01)
    return time.perf_counter() - started


def run_server(target: Any, *args: Any) -> multiprocessing.Process:
    """``target(*args)`` in a spawned daemon process."""
    process = multiprocessing.get_context("spawn").Process(target=target, args=args, daemon=True)
    process.start()
    return process


def _hello_rate() -> float:
    return _hello()[0]


def _hello() -> tuple[float, float]:
    """Hello-world POST: req/s when saturated, and ack p99 in ms when offered RATE req/s (the machine's floor)."""
    port = free_port()
    process = run_server(_serve_hello, port)
    url = f"http://127.0.0.1:{port}/webhook"
    try:
        wait_ready(port)
        asyncio.run(_post_all(url, [b"{}"] * WARMUP))
        _, seconds = asyncio.run(_post_all(url, [b"{}"] * EVENTS))
        latencies, _ = asyncio.run(_post_paced(url, [b"{}"] * PACED_EVENTS, RATE))
    finally:
        process.terminate()
        process.join(5)
    return EVENTS / seconds, statistics.quantiles(latencies, n=100)[98]


def database(folder: Path) -> tuple[Database, dict[str, str], Any]:
    """The bot's database: a SQLite file, or a fresh schema of BOT_BENCH_DATABASE_URL (PostgreSQL); its env and a
    clean-up."""
    url = os.environ.get("BOT_BENCH_DATABASE_URL")
    if not url:
        db = Database.from_url(sqlite_url(folder / "tasks.db"))
        return db, {"DB_PATH": str(folder / "tasks.db")}, lambda: None
    schema = f"bot_bench_{os.getpid()}"
    admin = Database.from_url(url)
    with admin.write() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    scoped = f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"

    def drop() -> None:
        with admin.write() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return Database.from_url(scoped), {"DATABASE_URL": scoped}, drop


def _paced_pass(db: Database, url: str, first: int) -> dict[str, float]:
    """PACED_EVENTS events offered at RATE/s: ack p50/p99 and how fast the replies were queued."""
    before = _replies(db)
    latencies, _ = asyncio.run(_post_paced(url, [event(i) for i in range(first, first + PACED_EVENTS)], RATE))
    offered = PACED_EVENTS / RATE
    started = time.perf_counter() - offered  # close enough: the pass started ~offered seconds before its last send
    _until_replies(db, before + PACED_EVENTS)
    total = time.perf_counter() - started
    q = statistics.quantiles(latencies, n=100)
    return {"paced_done_per_s": PACED_EVENTS / total, "paced_p50": statistics.median(latencies), "paced_p99": q[98],
            "paced_max": max(latencies)}


def _bot_run() -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="bot-bench-"))
    db, env, drop = database(folder)
    migrator.migrate(db)
    port = free_port()
    process = run_server(serve_bot, env, port)
    try:
        wait_ready(port)
        time.sleep(1.0)
        idle_before = memory_mb(process.pid or 0)
        url = f"http://127.0.0.1:{port}/webhook"
        asyncio.run(_post_all(url, [event(i) for i in range(WARMUP)]))
        _until_replies(db, WARMUP)
        cpu = cpu_seconds(process.pid or 0)
        latencies, ack_seconds = asyncio.run(_post_all(url, [event(i) for i in range(WARMUP, WARMUP + EVENTS)]))
        started = time.perf_counter() - ack_seconds
        _until_replies(db, WARMUP + EVENTS)
        total = time.perf_counter() - started
        cpu = cpu_seconds(process.pid or 0) - cpu
        paced = _paced_pass(db, url, WARMUP + EVENTS)
        time.sleep(1.0)
        idle_after, peak = memory_mb(process.pid or 0), memory_mb(process.pid or 0, "VmHWM")
    finally:
        process.terminate()
        process.join(5)
        db.dispose()
        drop()
    q = statistics.quantiles(latencies, n=100)
    return {"acked_per_s": EVENTS / ack_seconds, "done_per_s": EVENTS / total, "p50": statistics.median(latencies),
            "p99": q[98], "cpu_us": cpu / EVENTS * 1e6, **paced, "rss_idle": idle_before, "rss_after": idle_after,
            "rss_peak": peak}


def main() -> None:
    """Print the bot's events/s (acknowledged; and end to end with the reply queued), ack p50/p99 when saturated
    and when offered RATE events/s, the ratio to hello-world, and the bot's resident memory."""
    pin(1)
    hello, hello_p99 = _hello()
    bot = _bot_run()
    where = "PostgreSQL" if os.environ.get("BOT_BENCH_DATABASE_URL") else "SQLite file"
    print(f"'/t nueva' events, {GROUPS} groups, {PEOPLE} people; bot pinned to core 0, {where}, client on core 1")
    print("| measure                                                      |     value |")
    print("|--------------------------------------------------------------|-----------|")
    rows = [
        ("hello-world POST, req/s (same run, same client)", hello, ".0f"),
        (f"saturated ({EVENTS} events, {CONNECTIONS} connections): acknowledged/s", bot["acked_per_s"], ".0f"),
        ("saturated: end to end (task created, reply queued)/s", bot["done_per_s"], ".0f"),
        ("saturated: end to end / hello-world", bot["done_per_s"] / hello, ".2f"),
        ("saturated: bot CPU per event (HTTP + processing), µs", bot["cpu_us"], ".0f"),
        ("saturated: events/s one core could take at that CPU cost", 1e6 / bot["cpu_us"], ".0f"),
        ("saturated: ack p50, ms", bot["p50"], ".2f"),
        ("saturated: ack p99, ms", bot["p99"], ".2f"),
        (f"offered {RATE}/s ({PACED_EVENTS} events, open loop): end to end/s", bot["paced_done_per_s"], ".0f"),
        (f"offered {RATE}/s: ack p50, ms (from the scheduled send)", bot["paced_p50"], ".2f"),
        (f"offered {RATE}/s: ack p99, ms", bot["paced_p99"], ".2f"),
        (f"offered {RATE}/s: ack max, ms", bot["paced_max"], ".2f"),
        (f"hello-world offered {RATE}/s: ack p99, ms (the machine's floor)", hello_p99, ".2f"),
        ("bot resident memory idle after start, MB", bot["rss_idle"], ".1f"),
        ("bot resident memory idle after the load, MB", bot["rss_after"], ".1f"),
        ("bot peak resident memory, MB", bot["rss_peak"], ".1f"),
    ]
    for label, value, shape in rows:
        print(f"| {label:<60} | {value:>9{shape}} |")


if __name__ == "__main__":
    main()
