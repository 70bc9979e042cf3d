"""Webhook "create task" events end to end: acknowledged, processed, reply queued (SPEC section 14).

The bot runs in a child process pinned to one core with a SQLite file; this process (on the other core) posts
``/t nueva`` commands from 200 people in 50 groups with a fixed number of connections, times every acknowledgement,
and polls the queue until every reply is there. A hello-world aiohttp server measured the same way in the same run
gives the ratio that PERFORMANCE.md asks for (absolute figures vary a lot between runs on shared machines).
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

import aiohttp
from aiohttp import web
from sqlalchemy import func, select

from taskcore.settings import load_settings
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.schema import outbound_queue
from tasksvc_run.bot.app import make_bot_app

EVENTS = 3000
WARMUP = 300
CONNECTIONS = 32
GROUPS = 50
PEOPLE = 200


def _pin(core: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {core})


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_bot(db_path: str, port: int) -> None:
    _pin(0)
    settings = load_settings({"NODE_ENV": "test", "DB_PATH": db_path, "RATE_LIMIT_PER_MIN": "1000000",
                              "REACTIONS_ENABLED": "false"})
    web.run_app(make_bot_app(settings), host="127.0.0.1", port=port, print=None, access_log=None)


def _serve_hello(port: int) -> None:
    _pin(0)

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
    """Post every body over CONNECTIONS connections; (ack latencies in ms, seconds taken)."""
    latencies: list[float] = []
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(connector=connector, headers={"Content-Type": "application/json"}) as http:

        async def client() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                started = time.perf_counter()
                async with http.post(url, data=body) as response:
                    await response.read()
                    if response.status != 200:
                        raise RuntimeError(f"webhook answered {response.status}")
                latencies.append((time.perf_counter() - started) * 1000)

        started = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(CONNECTIONS)))
    return latencies, time.perf_counter() - started


def _wait_ready(port: int, deadline: float = 30.0) -> None:
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


def _run_server(target: Any, *args: Any) -> multiprocessing.Process:
    process = multiprocessing.get_context("spawn").Process(target=target, args=args, daemon=True)
    process.start()
    return process


def _hello_rate() -> float:
    port = _free_port()
    process = _run_server(_serve_hello, port)
    try:
        _wait_ready(port)
        asyncio.run(_post_all(f"http://127.0.0.1:{port}/webhook", [b"{}"] * WARMUP))
        _, seconds = asyncio.run(_post_all(f"http://127.0.0.1:{port}/webhook", [b"{}"] * EVENTS))
    finally:
        process.terminate()
        process.join(5)
    return EVENTS / seconds


def _bot_run() -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="bot-bench-"))
    db = Database.from_url(sqlite_url(folder / "tasks.db"))
    migrator.migrate(db)
    port = _free_port()
    process = _run_server(_serve_bot, str(folder / "tasks.db"), port)
    try:
        _wait_ready(port)
        url = f"http://127.0.0.1:{port}/webhook"
        asyncio.run(_post_all(url, [event(i) for i in range(WARMUP)]))
        _until_replies(db, WARMUP)
        latencies, ack_seconds = asyncio.run(_post_all(url, [event(i) for i in range(WARMUP, WARMUP + EVENTS)]))
        started = time.perf_counter() - ack_seconds
        _until_replies(db, WARMUP + EVENTS)
        total = time.perf_counter() - started
    finally:
        process.terminate()
        process.join(5)
        db.dispose()
    q = statistics.quantiles(latencies, n=100)
    return {"acked_per_s": EVENTS / ack_seconds, "done_per_s": EVENTS / total, "p50": statistics.median(latencies),
            "p99": q[98]}


def main() -> None:
    """Print the bot's events/s (acknowledged; and end to end with the reply queued), ack p50/p99, and the ratio."""
    _pin(1)
    hello = _hello_rate()
    bot = _bot_run()
    print(f"{EVENTS} '/t nueva' events after {WARMUP} warm-up, {CONNECTIONS} connections, {GROUPS} groups, "
          f"{PEOPLE} people; bot pinned to one core, SQLite file")
    print("| measure                                   |     value |")
    print("|-------------------------------------------|-----------|")
    print(f"| hello-world POST, req/s (same run)        | {hello:>9.0f} |")
    print(f"| webhook acknowledged, events/s            | {bot['acked_per_s']:>9.0f} |")
    print(f"| end to end (task created, reply queued)/s | {bot['done_per_s']:>9.0f} |")
    print(f"| end to end / hello-world                  | {bot['done_per_s'] / hello:>9.2f} |")
    print(f"| ack latency p50, ms                       | {bot['p50']:>9.2f} |")
    print(f"| ack latency p99, ms                       | {bot['p99']:>9.2f} |")


if __name__ == "__main__":
    main()
