"""GET /api/me/tasks at 100k tasks / 1k groups against a hello-world aiohttp server measured in the same run
(SPEC section 14, PERFORMANCE.md): p50/p99 on one connection; req/s and server CPU per request over 4 and 8
connections; the ratio to hello world; and the idle resident memory of the bot, web and proxy processes.

Servers run in their own processes on 127.0.0.1, pinned to CPU 0 when the machine has two or more; the load comes
from this process on CPU 1 through a lean keep-alive HTTP/1.1 client (one asyncio protocol per connection, a fixed
request, Content-Length framing). aiohttp's own client costs more CPU per request than the hello server it would
measure; this one costs a fraction, so the hello figure is the server's. Throughput runs alternate web and hello for
ROUNDS rounds and report medians, since the machines are shared and noisy: quote the ratio, not the absolute figures.
Server CPU per request (from /proc) is the steadiest figure of all. Every measurement is a fixed number of requests
under a time bound.
"""

from __future__ import annotations

import asyncio
import os
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.common import cpu_seconds, free_port, memory_mb, stop_child

WARMUP = 300
LATENCY_REQUESTS = 3000
THROUGHPUT_REQUESTS = 6000
CONNECTIONS = 4
MANY_CONNECTIONS = 8
ROUNDS = 3
PATH = "/api/me/tasks"
START_TIMEOUT = 60.0
REQUEST_TIMEOUT = 10.0
IDLE_SETTLE = 2.0
SERVER_CPU, CLIENT_CPU = 0, 1
PROCESSES = ("bot", "web", "proxy")


def _dataset_copy() -> Path:
    """A private copy of the cached 100k dataset, so other benchmarks' runs never touch it."""
    from benchmarks.dataset import CACHE, build  # noqa: PLC0415 - the child processes do without SQLAlchemy

    data = build()
    target = CACHE / "web-bench.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(data.path, target)
    return target


def _session_cookie(path: Path) -> str:
    from benchmarks.dataset import BENCH_USER  # noqa: PLC0415
    from taskcore.services.web_auth import issue_login_token, redeem_login_token  # noqa: PLC0415 - not in servers
    from taskcore.storage.db import Database, sqlite_url  # noqa: PLC0415
    from tasksvc_run import units  # noqa: PLC0415

    db = Database.from_url(sqlite_url(path))
    now = datetime.now(UTC)
    session = units.run(db, redeem_login_token, token=units.run(db, issue_login_token, user_id=BENCH_USER, now=now),
                        now=now)
    db.dispose()
    return f"tasksvc_session={session.session_id}"


# --- servers -------------------------------------------------------------------------------------------------------


async def _serve(kind: str, db_path: str) -> None:
    """Child process: the hello-world app or the web app on a free loopback port, until stdin closes."""
    from aiohttp import web  # noqa: PLC0415 - the parent process never serves

    if kind == "hello":
        async def hello(_: web.Request) -> web.Response:
            return web.json_response({"hello": "world"})

        app = web.Application()
        app.router.add_get(PATH, hello)
    else:
        from taskcore.settings import load_settings  # noqa: PLC0415
        from tasksvc_run.web import make_web_app  # noqa: PLC0415

        app = make_web_app(load_settings({"NODE_ENV": "production", "DB_PATH": db_path,
                                          "GROUP_GATING_MODE": "enforce"}))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(f"PORT {runner.addresses[0][1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes stdin
    await runner.cleanup()


def _pinned(command: list[str]) -> list[str]:
    if shutil.which("taskset") and (os.cpu_count() or 1) >= 2:
        return ["taskset", "-c", str(SERVER_CPU), *command]
    return command


class Server:
    """One server process (``hello`` or ``web``) on a loopback port; its CPU time and memory."""

    def __init__(self, kind: str, db_path: Path | None = None) -> None:
        command = _pinned([sys.executable, "-m", "benchmarks.web_bench", "serve", kind, str(db_path or "")])
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        out = self.process.stdout
        ready = out is not None and bool(select.select([out], [], [], START_TIMEOUT)[0])
        line = out.readline() if out is not None and ready else ""
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError(f"{kind} server did not start: {line!r}")
        self.port = int(line.split()[1])

    def cpu_seconds(self) -> float:
        """CPU time the server has used so far."""
        return cpu_seconds(self.process.pid)

    def peak_rss_mb(self) -> float:
        """VmHWM of the server process, in MB."""
        return memory_mb(self.process.pid, "VmHWM")

    def stop(self) -> None:
        """Close its stdin and wait (bounded); kill it if it lingers."""
        stop_child(self.process)


# --- the lean client -----------------------------------------------------------------------------------------------


class _Connection(asyncio.Protocol):
    """One keep-alive connection sending a fixed GET and reading responses framed by Content-Length."""

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.buffer = bytearray()
        self.needed = -1  # bytes of the current response once its head is complete
        self.status = 0
        self.waiter: asyncio.Future[int] | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.needed < 0:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).lower()
            start = head.find(b"\r\ncontent-length:")
            if start < 0:
                self._fail(ConnectionError("response without Content-Length"))
                return
            line_end = head.find(b"\r\n", start + 2)
            self.status = int(head[9:12])
            self.needed = end + 4 + int(head[start + 17:line_end if line_end >= 0 else len(head)])
        if len(self.buffer) >= self.needed and self.waiter is not None and not self.waiter.done():
            del self.buffer[:self.needed]
            self.needed = -1
            self.waiter.set_result(self.status)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(ConnectionError(f"connection lost: {exc}"))

    def _fail(self, error: Exception) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(error)

    async def get(self) -> None:
        """One request and its whole response; RuntimeError unless it is a 200."""
        if self.transport is None:
            raise ConnectionError("not connected")
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(self.request)
        async with asyncio.timeout(REQUEST_TIMEOUT):
            status = await self.waiter
        if status != 200:
            raise RuntimeError(f"GET {PATH}: {status}")


@dataclass
class Pool:
    """The open connections of one measurement."""

    connections: list[_Connection]


async def _measure(port: int, cookie: str, work: Callable[[Pool, str], Awaitable[object]],
                   connections: int) -> object:
    """Open ``connections`` keep-alive connections sending the cookie, run ``work`` over them, close them."""
    request = (f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
               "Accept: application/json\r\n\r\n").encode()
    loop = asyncio.get_running_loop()
    opened = [await loop.create_connection(lambda: _Connection(request), "127.0.0.1", port)
              for _ in range(connections)]
    try:
        return await work(Pool([protocol for _, protocol in opened]), PATH)
    finally:
        for transport, _ in opened:
            transport.close()


async def _latencies(pool: Pool, path: str) -> list[float]:
    """Milliseconds per request, one at a time on the first connection, after WARMUP requests."""
    connection = pool.connections[0]
    for _ in range(WARMUP):
        await connection.get()
    samples = []
    for _ in range(LATENCY_REQUESTS):
        started = time.perf_counter()
        await connection.get()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def _throughput(pool: Pool, path: str) -> float:
    """Requests per second for THROUGHPUT_REQUESTS spread over every connection of the pool."""
    remaining = THROUGHPUT_REQUESTS

    async def worker(connection: _Connection) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            await connection.get()

    started = time.perf_counter()
    await asyncio.gather(*(worker(connection) for connection in pool.connections))
    return THROUGHPUT_REQUESTS / (time.perf_counter() - started)


# --- the table -----------------------------------------------------------------------------------------------------


@dataclass
class Figures:
    """What one server measured: latencies on one connection; per connection count, req/s and CPU µs per request."""

    latencies: list[float]
    rates: dict[int, list[float]]
    cpu_us: dict[int, list[float]]

    def rate(self, connections: int) -> float:
        """Median req/s over the rounds."""
        return statistics.median(self.rates[connections])

    def cpu(self, connections: int) -> float:
        """Median server CPU µs per request over the rounds."""
        return statistics.median(self.cpu_us[connections])


def _load(server: Server, cookie: str, connections: int, figures: Figures) -> None:
    before = server.cpu_seconds()
    rate = asyncio.run(_measure(server.port, cookie, _throughput, connections))
    figures.rates.setdefault(connections, []).append(float(rate))  # type: ignore[arg-type]
    used = server.cpu_seconds() - before
    figures.cpu_us.setdefault(connections, []).append(used / THROUGHPUT_REQUESTS * 1e6)


def _measure_servers(cookie: str, db_path: Path) -> tuple[Figures, Figures, float]:
    servers = {"web": Server("web", db_path), "hello": Server("hello")}
    try:
        figures = {name: Figures(asyncio.run(_measure(server.port, cookie, _latencies, 1)), {}, {})  # type: ignore[arg-type]
                   for name, server in servers.items()}
        for _ in range(ROUNDS):
            for connections in (CONNECTIONS, MANY_CONNECTIONS):
                for name, server in servers.items():
                    _load(server, cookie, connections, figures[name])
        return figures["web"], figures["hello"], servers["web"].peak_rss_mb()
    finally:
        for server in servers.values():
            server.stop()


def _row(name: str, figures: Figures) -> str:
    lat = figures.latencies
    return (f"| {name:<17} | {statistics.median(lat):6.2f} | {statistics.quantiles(lat, n=100)[98]:6.2f} | "
            f"{figures.rate(CONNECTIONS):7.0f} | {figures.rate(MANY_CONNECTIONS):7.0f} | "
            f"{figures.cpu(CONNECTIONS):8.0f} |")


def _print_table(web: Figures, hello: Figures, web_peak: float, idle: Mapping[str, float]) -> None:
    from benchmarks.dataset import BENCH_USER  # noqa: PLC0415

    print(f"GET {PATH} (page 1 of 20, with total) at 100k tasks / 1k groups, user {BENCH_USER}, gating enforce; "
          f"{LATENCY_REQUESTS} sequential requests on one connection, then {THROUGHPUT_REQUESTS} over "
          f"{CONNECTIONS} and over {MANY_CONNECTIONS} connections, median of {ROUNDS} alternating rounds")
    print(f"| server            | p50 ms | p99 ms | req/s {CONNECTIONS} | req/s {MANY_CONNECTIONS} | CPU µs/req |")
    print("|-------------------|--------|--------|---------|---------|------------|")
    print(_row("web /api/me/tasks", web))
    print(_row("aiohttp hello", hello))
    for connections in (CONNECTIONS, MANY_CONNECTIONS):
        print(f"ratio web / hello req/s, {connections} connections: "
              f"{web.rate(connections) / hello.rate(connections):.2f} (target >= 0.30)")
    print(f"web p50 on one connection: {statistics.median(web.latencies):.2f} ms (target <= 0.6 ms); "
          f"web server peak RSS under load {web_peak:.1f} MB")
    print("idle resident memory (VmRSS after start, target <= 55 MB): "
          + ", ".join(f"{name} {mb:.1f} MB" for name, mb in idle.items()))


# --- idle memory of the real processes -----------------------------------------------------------------------------


def _wait_for_port(port: int, process: subprocess.Popen[bytes], within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port} within {within:g} s")


# What `tasksvc proxy` runs (the same imports and app), bound to 127.0.0.1 rather than every address.
_PROXY_ON_LOOPBACK = """
from tasksvc_run import cli
from tasksvc_run.proxy.app import run_proxy
from tasksvc_run import units
run_proxy(cli.load_settings().model_copy(update={"host": "127.0.0.1"}))
"""


def _command(kind: str) -> list[str]:
    if kind == "proxy":
        return _pinned([sys.executable, "-c", _PROXY_ON_LOOPBACK])
    return _pinned([sys.executable, "-m", "tasksvc_run", kind])  # bot and web listen on loopback only


def idle_rss() -> dict[str, float]:
    """VmRSS of the bot, web and proxy processes, IDLE_SETTLE seconds after each answers, on a fresh database."""
    folder = Path(tempfile.mkdtemp(prefix="tasksvc-rss-"))
    ports = {"bot": free_port(), "web": free_port(), "proxy": free_port()}
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(folder), "LANG": "C.UTF-8", "NODE_ENV": "production",
           "WEBHOOK_SECRET": "bench-secret", "METRICS_TOKEN": "bench-token",  # what production requires
           "DB_PATH": str(folder / "tasks.db"), "BOT_PORT": str(ports["bot"]), "WEB_PORT": str(ports["web"]),
           "PORT": str(ports["proxy"]), "PYTHONPATH": os.pathsep.join(sys.path)}
    started: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for kind in PROCESSES:  # the bot first: it migrates, and the web waits for that
            started[kind] = subprocess.Popen(_command(kind), env=env, cwd=folder, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)
            _wait_for_port(ports[kind], started[kind], START_TIMEOUT)
        time.sleep(IDLE_SETTLE)
        return {kind: memory_mb(process.pid) for kind, process in started.items()}
    finally:
        for process in started.values():
            process.terminate()
        for process in started.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Print the table: latency, throughput and CPU of the web against hello world, and idle memory."""
    if (os.cpu_count() or 1) >= 2 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {CLIENT_CPU})  # the client stays off the servers' CPU
    db_path = _dataset_copy()
    cookie = _session_cookie(db_path)
    web, hello, web_peak = _measure_servers(cookie, db_path)
    _print_table(web, hello, web_peak, idle_rss())


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "serve":
        asyncio.run(_serve(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""))
    else:
        main()
