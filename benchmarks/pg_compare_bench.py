"""SQLite against PostgreSQL in one run (SPEC section 13): webhook "create task" events/s and GET /api/me/tasks
p50/p99 at 100k tasks / 1k groups, each server in a child process pinned to core 0, the client on core 1.

PostgreSQL: TASKSVC_BENCH_DATABASE_URL, else TASKSVC_TEST_DATABASE_URL, else postgres on 127.0.0.1:5432/test; each
measure gets a fresh schema, dropped afterwards. Without a PostgreSQL that answers, the module says so and returns.
The two backends are measured alternately, ROUNDS times, so that a noisy neighbour hits both alike.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
from aiohttp import web
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError

from benchmarks.bot_bench import event  # the same '/t nueva' events as the bot benchmark
from benchmarks.common import free_port, pin
from benchmarks.dataset import BENCH_USER, build
from benchmarks.loadgen import load, post_json
from taskcore.services.web_auth import issue_login_token, redeem_login_token
from taskcore.settings import load_settings
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tasksvc_run.bot.app import make_bot_app
from tasksvc_run.web import make_web_app

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
ROUNDS = 2
EVENTS, EVENT_WARMUP, EVENT_CONNECTIONS = 3000, 300, 32  # events from bot_bench: 200 people in 50 groups
API_WARMUP, API_REQUESTS = 200, 2000
LIMIT_SECONDS = 120.0  # any one pass
COPY_CHUNK = 20_000
BACKENDS = ("sqlite", "pg", "pg-ssd")
DATASET_TABLES = (schema.users, schema.groups, schema.allowed_groups, schema.group_members, schema.tasks,
                  schema.task_assignments)


def _pg_base() -> str | None:
    url = os.environ.get("TASKSVC_BENCH_DATABASE_URL") or os.environ.get("TASKSVC_TEST_DATABASE_URL") or DEFAULT_PG
    probe = Database.from_url(url)
    try:
        with probe.read() as conn:
            conn.execute(text("SELECT 1"))
    except OperationalError:
        return None
    finally:
        probe.dispose()
    return url


@contextmanager
def _database(backend: str, pg: str | None) -> Iterator[tuple[Database, dict[str, str]]]:
    """A fresh, migrated database and the environment that points a process at it; backend ``pg-ssd`` is PostgreSQL
    with random_page_cost=1.1 on its connections (the usual setting for SSDs; the default 4 assumes spinning disks)."""
    if backend == "sqlite":
        path = Path(tempfile.mkdtemp(prefix="pg-compare-")) / "tasks.db"
        db = Database.from_url(sqlite_url(path))
        env = {"DB_PATH": str(path)}

        def drop() -> None:
            """The temporary folder is left to the OS."""
    else:
        name = f"bench_{uuid.uuid4().hex[:10]}"
        admin = Database.from_url(pg or DEFAULT_PG)
        with admin.write() as conn:
            conn.execute(text(f'CREATE SCHEMA "{name}"'))
        base = pg or DEFAULT_PG
        tuning = "%20-crandom_page_cost%3D1.1" if backend == "pg-ssd" else ""
        scoped = f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{name}{tuning}"
        db, env = Database.from_url(scoped), {"DATABASE_URL": scoped}

        def drop() -> None:
            with admin.write() as conn:
                conn.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
            admin.dispose()

    migrator.migrate(db)
    try:
        yield db, env
    finally:
        db.dispose()
        drop()


def _serve(kind: str, env: dict[str, str], port: int) -> None:
    pin(0)
    if kind == "bot":
        settings = load_settings({"NODE_ENV": "test", "RATE_LIMIT_PER_MIN": "1000000",
                                  "SENDS_PER_PERSON_PER_MIN": "1000000", **env})
        app = make_bot_app(settings)
    else:
        settings = load_settings({"NODE_ENV": "production", "GROUP_GATING_MODE": "enforce",
                                  "RATE_LIMIT_PER_MIN": "1000000", "SENDS_PER_PERSON_PER_MIN": "1000000", **env})
        app = make_web_app(settings)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


@contextmanager
def _server(kind: str, env: dict[str, str]) -> Iterator[int]:
    port = free_port()
    process = multiprocessing.get_context("spawn").Process(target=_serve, args=(kind, env, port), daemon=True)
    process.start()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or not process.is_alive():
                    raise RuntimeError(f"{kind} server did not start") from None
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.join(10)


# --- webhook events -------------------------------------------------------------------------------------------------

async def _post_all(port: int, bodies: list[bytes]) -> tuple[list[float], float]:
    """Closed loop over EVENT_CONNECTIONS kept-alive connections (benchmarks.loadgen); (ack ms, seconds)."""
    run = await load(port, [post_json("/webhook", body) for body in bodies], EVENT_CONNECTIONS)
    return run.latencies, run.seconds


def _until_queued(db: Database, wanted: int) -> None:
    deadline = time.monotonic() + LIMIT_SECONDS
    while True:
        with db.read() as conn:
            if conn.execute(select(func.count()).select_from(schema.outbound_queue)).scalar_one() >= wanted:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"fewer than {wanted} replies queued after {LIMIT_SECONDS} s")
        time.sleep(0.01)


def webhook_pass(backend: str, pg: str | None) -> dict[str, float]:
    """EVENTS '/t nueva' events: acknowledged/s, end to end (task created, reply queued)/s, ack p50/p99."""
    with _database(backend, pg) as (db, env), _server("bot", env) as port:
        asyncio.run(_post_all(port, [event(i) for i in range(EVENT_WARMUP)]))
        _until_queued(db, EVENT_WARMUP)
        latencies, acked = asyncio.run(_post_all(port, [event(i) for i in range(EVENT_WARMUP, EVENT_WARMUP + EVENTS)]))
        started = time.perf_counter() - acked
        _until_queued(db, EVENT_WARMUP + EVENTS)
        done = time.perf_counter() - started
    q = statistics.quantiles(latencies, n=100)
    return {"acked/s": EVENTS / acked, "done/s": EVENTS / done, "ack p50": statistics.median(latencies),
            "ack p99": q[98]}


# --- GET /api/me/tasks -----------------------------------------------------------------------------------------------

def _copy_dataset(source: Database, target: Database) -> None:
    """Every dataset row from the SQLite master into ``target``, then fresh statistics."""
    for table in DATASET_TABLES:
        with source.read() as conn:
            rows = [dict(row._mapping) for row in conn.execute(select(table))]
        for start in range(0, len(rows), COPY_CHUNK):
            with target.write() as conn:
                conn.execute(table.insert(), rows[start : start + COPY_CHUNK])
    with target.write() as conn:
        if target.dialect == "postgresql":
            conn.execute(text("SELECT setval(pg_get_serial_sequence('tasks', 'id'), (SELECT max(id) FROM tasks))"))
        conn.execute(text("ANALYZE"))


def _cookie(db: Database) -> str:
    now = datetime.now(UTC)
    session = units.run(db, redeem_login_token, token=units.run(db, issue_login_token, user_id=BENCH_USER, now=now),
                        now=now)
    return f"tasksvc_session={session.session_id}"


async def _api_latencies(port: int, cookie: str) -> list[float]:
    url = f"http://127.0.0.1:{port}/api/me/tasks"
    samples = []
    async with aiohttp.ClientSession(headers={"Cookie": cookie}) as session:
        for n in range(API_WARMUP + API_REQUESTS):
            started = time.perf_counter()
            async with session.get(url) as response:
                await response.read()
                if response.status != 200:
                    raise RuntimeError(f"GET /api/me/tasks: {response.status}")
            if n >= API_WARMUP:
                samples.append((time.perf_counter() - started) * 1000)
    return samples


def api_pass(backend: str, pg: str | None, master: Database) -> dict[str, float]:
    """API_REQUESTS sequential GET /api/me/tasks (page 1 with total) on one connection: p50, p99, req/s."""
    with _database(backend, pg) as (db, env):
        _copy_dataset(master, db)
        cookie = _cookie(db)
        with _server("web", env) as port:
            samples = asyncio.run(_api_latencies(port, cookie))
    q = statistics.quantiles(samples, n=100)
    return {"p50": statistics.median(samples), "p99": q[98], "req/s": 1000 / statistics.mean(samples)}


def _median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> None:
    """Print SQLite and PostgreSQL side by side, medians of ROUNDS alternating passes, with the ratios."""
    pg = _pg_base()
    if pg is None:
        print("PostgreSQL does not answer (TASKSVC_BENCH_DATABASE_URL / 127.0.0.1:5432): comparison skipped")
        return
    pin(1)
    master = Database.from_url(build().url)
    results: dict[str, dict[str, list[dict[str, float]]]] = {b: {"hook": [], "api": []} for b in BACKENDS}
    for _ in range(ROUNDS):
        for backend in BACKENDS:
            results[backend]["hook"].append(webhook_pass(backend, pg))
            results[backend]["api"].append(api_pass(backend, pg, master))
    master.dispose()
    table: list[tuple[str, str, str]] = [
        ("webhook '/t nueva', acknowledged/s", "hook", "acked/s"),
        ("webhook end to end (reply queued)/s", "hook", "done/s"),
        ("webhook ack p50, ms", "hook", "ack p50"), ("webhook ack p99, ms", "hook", "ack p99"),
        ("GET /api/me/tasks p50, ms (one connection)", "api", "p50"), ("GET /api/me/tasks p99, ms", "api", "p99"),
        ("GET /api/me/tasks req/s (one connection)", "api", "req/s"),
    ]
    medians: dict[str, dict[str, dict[str, float]]] = {
        b: {kind: _median_of(runs) for kind, runs in by_kind.items()} for b, by_kind in results.items()}
    print(f"SQLite file vs PostgreSQL ({pg.split('@')[-1]}), server on core 0, client on core 1; medians of {ROUNDS} "
          f"alternating rounds; webhook: {EVENTS} events over {EVENT_CONNECTIONS} connections; API: 100k tasks / "
          f"1k groups, {API_REQUESTS} sequential requests")
    print("PG: PostgreSQL as installed; PG ssd: the same with random_page_cost=1.1 on the connections")
    print("| measure                                    |   SQLite |       PG | PG / SQLite |   PG ssd | ssd / SQLite |"
          "\n|--------------------------------------------|----------|----------|-------------|----------|--------------|")
    for label, kind, key in table:
        lite, post, ssd = (medians[b][kind][key] for b in BACKENDS)
        print(f"| {label:<42} | {lite:8.2f} | {post:8.2f} | {post / lite:11.2f} | {ssd:8.2f} | {ssd / lite:12.2f} |")


if __name__ == "__main__":
    main()
