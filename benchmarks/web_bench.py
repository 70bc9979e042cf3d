"""GET /api/me/tasks over HTTP at 100k tasks / 1k groups: p50/p99 on one connection, req/s with a few connections,
and a hello-world aiohttp server's req/s measured in the same run for the ratio (SPEC section 14, PERFORMANCE.md).

Each server runs in its own process on 127.0.0.1 (port 0), pinned to CPU 0 when the machine has two or more; the
aiohttp client runs here, on another CPU. Every measurement is a fixed number of requests.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
from aiohttp import web

from benchmarks.dataset import BENCH_USER, CACHE, build
from taskcore.services.web_auth import issue_login_token, redeem_login_token
from taskcore.settings import load_settings
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run.web import make_web_app

WARMUP = 300
LATENCY_REQUESTS = 3000
THROUGHPUT_REQUESTS = 6000
CONNECTIONS = 4
PATH = "/api/me/tasks"
START_TIMEOUT = 30.0


def _dataset_copy() -> Path:
    """A private copy of the cached 100k dataset, so other benchmarks' runs never touch it."""
    data = build()
    target = CACHE / "web-bench.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(data.path, target)
    return target


def _session_cookie(path: Path) -> str:
    db = Database.from_url(sqlite_url(path))
    now = datetime.now(UTC)
    session = redeem_login_token(db, token=issue_login_token(db, user_id=BENCH_USER, now=now), now=now)
    db.dispose()
    return f"tasksvc_session={session.session_id}"


def _hello_app() -> web.Application:
    async def hello(_: web.Request) -> web.Response:
        return web.json_response({"hello": "world"})

    app = web.Application()
    app.router.add_get(PATH, hello)
    return app


def _web_app(db_path: str) -> web.Application:
    settings = load_settings({"NODE_ENV": "production", "DB_PATH": db_path, "GROUP_GATING_MODE": "enforce"})
    return make_web_app(settings)


async def _serve(kind: str, db_path: str) -> None:
    runner = web.AppRunner(_hello_app() if kind == "hello" else _web_app(db_path), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(f"PORT {runner.addresses[0][1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes stdin
    await runner.cleanup()


class Server:
    """One server process; its port, and its peak resident memory at the end."""

    def __init__(self, kind: str, db_path: Path | None = None) -> None:
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") and (os.cpu_count() or 1) >= 2 else []
        command = [*pin, sys.executable, "-m", "benchmarks.web_bench", "serve", kind, str(db_path or "")]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + START_TIMEOUT
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line.startswith("PORT ") or time.monotonic() > deadline:
            self.stop()
            raise RuntimeError(f"{kind} server did not start: {line!r}")
        self.port = int(line.split()[1])

    def peak_rss_mb(self) -> float:
        """VmHWM of the server process, in MB (0 where /proc is absent)."""
        status = Path(f"/proc/{self.process.pid}/status")
        for line in status.read_text().splitlines() if status.exists() else []:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        """Close its stdin and wait (bounded); kill it if it lingers."""
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


async def _get(session: aiohttp.ClientSession, url: str) -> None:
    async with session.get(url) as response:
        await response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {url}: {response.status}")


async def _latencies(session: aiohttp.ClientSession, url: str) -> list[float]:
    for _ in range(WARMUP):
        await _get(session, url)
    samples = []
    for _ in range(LATENCY_REQUESTS):
        started = time.perf_counter()
        await _get(session, url)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def _throughput(session: aiohttp.ClientSession, url: str) -> float:
    remaining = THROUGHPUT_REQUESTS

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            await _get(session, url)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CONNECTIONS)))
    return THROUGHPUT_REQUESTS / (time.perf_counter() - started)


async def _measure(port: int, cookie: str, work: Callable[[aiohttp.ClientSession, str], Awaitable[object]],
                   connections: int) -> object:
    connector = aiohttp.TCPConnector(limit=connections)
    async with aiohttp.ClientSession(connector=connector, headers={"Cookie": cookie}) as session:
        return await work(session, f"http://127.0.0.1:{port}{PATH}")


def _run(kind: str, cookie: str, db_path: Path | None) -> tuple[list[float], float, float]:
    server = Server(kind, db_path)
    try:
        latencies = asyncio.run(_measure(server.port, cookie, _latencies, 1))
        rate = asyncio.run(_measure(server.port, cookie, _throughput, CONNECTIONS))
        return latencies, rate, server.peak_rss_mb()  # type: ignore[return-value]
    finally:
        server.stop()


def main() -> None:
    """Print the table: p50/p99 on one connection and req/s on a few, for the web and for hello world."""
    if (os.cpu_count() or 1) >= 2 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})  # the client stays off the servers' CPU
    db_path = _dataset_copy()
    cookie = _session_cookie(db_path)
    web_lat, web_rate, web_rss = _run("web", cookie, db_path)
    hello_lat, hello_rate, _ = _run("hello", cookie, None)
    q = statistics.quantiles
    print(f"GET {PATH} (page 1 of 20, with total) at 100k tasks / 1k groups, user {BENCH_USER}; "
          f"{LATENCY_REQUESTS} sequential requests, then {THROUGHPUT_REQUESTS} over {CONNECTIONS} connections")
    print("| server            | p50 ms | p99 ms |  req/s | peak RSS MB |")
    print("|-------------------|--------|--------|--------|-------------|")
    print(f"| web /api/me/tasks | {statistics.median(web_lat):6.2f} | {q(web_lat, n=100)[98]:6.2f} | "
          f"{web_rate:6.0f} | {web_rss:11.1f} |")
    print(f"| aiohttp hello     | {statistics.median(hello_lat):6.2f} | {q(hello_lat, n=100)[98]:6.2f} | "
          f"{hello_rate:6.0f} |             |")
    print(f"ratio web / hello req/s: {web_rate / hello_rate:.2f} (target >= 0.30); "
          f"the Python client may bound the hello figure, which flatters this ratio")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "serve":
        asyncio.run(_serve(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""))
    else:
        main()
