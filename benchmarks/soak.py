"""A bounded soak of the real unit: mixed chat commands and API traffic through the proxy for a fixed time.

`tasksvc run` (NODE_ENV=test, FORCE_SCHEDULERS=false, so only the outbound worker runs in the background) sends to a
fake gateway served by this process. Chat clients post commands at /webhook (create, list, claim, complete, direct
messages); API clients are signed-in people (a real /login link) listing their tasks and groups, claiming and
completing. The resident memory of each process is sampled every second; at the end the traffic stops and the queue
must drain, every row sent exactly once.

Checks: no error (a 5xx, a refused connection, a timeout, an answer outside the expected set, an error in the unit's
log), memory that levels off (the last third's peak within a tolerance of the middle third's), and a drained queue.

``python -m benchmarks.soak [--seconds 120]``: prints the report; exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
from sqlalchemy import select
from tests.fakes.gateway import FakeGateway
from tests.system.unit import Unit, chat_message, gateway_env, memory_mb, unit_env, unit_pids

from benchmarks.report import load_average, machine, record
from taskcore.gateway.evolution import encode
from taskcore.gateway.outbound import outbound_of
from taskcore.services.web_auth import issue_login_token
from taskcore.storage import schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tasksvc_run.devgateway.fake import FakeGateway as AnyGateway

GROUPS = [f"120363900000000{g:03d}@g.us" for g in range(4)]
PEOPLE = [f"3461000{p:04d}" for p in range(12)]
REQUEST_TIMEOUT = aiohttp.ClientTimeout(total=10)
EXPECTED = {"chat": {200}, "list": {200}, "claim": {200, 409}, "complete": {200, 403, 409}}


@dataclass(frozen=True)
class SoakConfig:
    """How long and how hard; the memory tolerance; how long the queue may take to drain afterwards."""

    seconds: float = 120.0
    chat_clients: int = 3
    api_clients: int = 3
    chat_rate: float = 60.0  # commands per second over all chat clients (0: as fast as they can)
    api_rate: float = 60.0  # requests per second over all API clients (0: as fast as they can)
    sample_every: float = 1.0
    drain_within: float = 60.0
    rss_tolerance_mb: float = 3.0
    rss_tolerance_share: float = 0.05


@dataclass
class SoakResult:
    """What the soak saw."""

    config: SoakConfig
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    statuses: collections.Counter[str] = field(default_factory=collections.Counter)
    errors: list[str] = field(default_factory=list)
    rss: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    peak_pending: int = 0
    queue: dict[str, int] = field(default_factory=dict)
    drain_seconds: float = 0.0
    drain_trace: list[tuple[float, int]] = field(default_factory=list)
    delivered: int = 0
    duplicates: int = 0
    undelivered: int = 0
    log_errors: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        """Requests made."""
        return sum(len(v) for v in self.latencies.values())

    def levels(self, name: str) -> tuple[float, float, float]:
        """Peak RSS (MB) of the first, middle and last third of the samples."""
        samples = self.rss[name]
        third = max(1, len(samples) // 3)
        parts = samples[:third], samples[third:-third] or samples[third:], samples[-third:]
        return max(parts[0]), max(parts[1]), max(parts[2])

    def failures(self) -> list[str]:
        """Every check that did not hold, in words; empty when the soak passed."""
        found = [f"{len(self.errors)} request errors, e.g. {self.errors[:3]}"] if self.errors else []
        found += [f"errors in the unit's log: {self.log_errors[:3]}"] if self.log_errors else []
        for name in self.rss:
            _, middle, last = self.levels(name)
            allowed = middle + max(self.config.rss_tolerance_mb, middle * self.config.rss_tolerance_share)
            if last > allowed:
                found.append(f"{name}: memory still growing ({middle:.1f} MB -> {last:.1f} MB, allowed {allowed:.1f})")
        if self.queue.get("pending", 0) or self.queue.get("sending", 0) or self.queue.get("failed", 0):
            found.append(f"the queue did not drain: {self.queue}")
        if self.duplicates or self.undelivered:
            found.append(f"{self.duplicates} messages sent twice, {self.undelivered} rows sent but never received")
        return found

    def report(self) -> str:
        """A human-readable summary (markdown)."""
        every = [ms for values in self.latencies.values() for ms in values]
        offered = (f"offered {self.config.chat_rate:g} commands/s + {self.config.api_rate:g} API requests/s"
                   if self.config.chat_rate and self.config.api_rate else "unpaced")
        lines = [f"Soak: {self.seconds:.0f} s, {self.config.chat_clients} chat + {self.config.api_clients} API clients "
                 f"through the proxy, {offered}; {self.requests} requests, {self.requests / self.seconds:.0f} req/s; "
                 f"p50 {statistics.median(every):.1f} ms, p99 {_p99(every):.1f} ms; errors {len(self.errors)}.", "",
                 "| traffic | requests | p50 ms | p99 ms |", "|---|---:|---:|---:|"]
        for kind, values in sorted(self.latencies.items()):
            lines.append(f"| {kind} | {len(values)} | {statistics.median(values):.1f} | {_p99(values):.1f} |")
        lines += ["", f"Answers: {dict(sorted(self.statuses.items()))}.", "",
                  "| process | RSS MB, first third peak | middle third peak | last third peak |",
                  "|---|---:|---:|---:|"]
        for name in self.rss:
            first, middle, last = self.levels(name)
            lines.append(f"| {'supervisor' if name == 'run' else name} | {first:.1f} | {middle:.1f} | {last:.1f} |")
        drained = "drained" if not self.drain_trace or not self.drain_trace[-1][1] else "NOT drained"
        lines += ["", f"Queue: peak {self.peak_pending} waiting during the run; at the end {self.queue} "
                      f"({drained} {self.drain_seconds:.1f} s after the traffic stopped); the gateway received "
                      f"{self.delivered} messages, {self.duplicates} twice, {self.undelivered} missing.", "",
                  "Verdict: " + ("passed" if not self.failures() else "FAILED: " + "; ".join(self.failures()))]
        return "\n".join(lines)


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else (values[0] if values else 0.0)


class Traffic:
    """The clients: shared counters, the task ids seen so far, and the message ids handed out."""

    def __init__(self, base: str, result: SoakResult, rng: random.Random) -> None:
        self.base, self.result, self.rng = base, result, rng
        self.task_ids: collections.deque[int] = collections.deque(maxlen=200)
        self.serial = 0
        self.stop_at = 0.0

    def pace(self, rate: float, clients: int) -> Pacer:
        """A pacer for one of ``clients`` clients sharing ``rate`` requests per second."""
        return Pacer(clients / rate if rate > 0 else 0.0)

    async def timed(self, http: aiohttp.ClientSession, kind: str, method: str, path: str, **kw: Any) -> Any:
        """One request: its latency and status are recorded; anything unexpected is an error. The JSON body."""
        started = time.perf_counter()
        try:
            async with http.request(method, self.base + path, timeout=REQUEST_TIMEOUT, **kw) as answer:
                raw = await answer.read()
                status = answer.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.result.errors.append(f"{method} {path}: {type(exc).__name__}")
            return None
        self.result.latencies[kind].append((time.perf_counter() - started) * 1000)
        self.result.statuses[f"{kind} {status}"] += 1
        if status not in EXPECTED[kind]:
            self.result.errors.append(f"{method} {path}: {status} {raw[:200]!r}")
            return None
        return json.loads(raw) if raw and status == 200 and kind != "chat" else None

    def command(self) -> tuple[str, str | None]:
        """A chat command and its group (None: a direct message), in the mix of a busy day."""
        roll, group = self.rng.random(), self.rng.choice(GROUPS)
        some_id = self.rng.choice(self.task_ids) if self.task_ids else 1
        if roll < 0.4:
            return f"/t nueva soak {self.serial} {self.rng.choice(['', 'mañana', 'hoy'])}".strip(), group
        if roll < 0.6:
            return "/t ver", group
        if roll < 0.75:
            return f"/t tomar {some_id}", group
        if roll < 0.9:
            return f"/t x {some_id}", group
        return "/t ver", None

    async def chat_client(self, http: aiohttp.ClientSession) -> None:
        """Post commands from random people until the end."""
        pacer = self.pace(self.result.config.chat_rate, self.result.config.chat_clients)
        while time.monotonic() < self.stop_at:
            await pacer.wait()
            text, group = self.command()
            self.serial += 1
            event = chat_message(text, sender=self.rng.choice(PEOPLE), group=group, message_id=f"SOAK{self.serial:09d}")
            await self.timed(http, "chat", "POST", "/webhook", json=event)

    async def api_client(self, http: aiohttp.ClientSession, cookie: str) -> None:
        """A signed-in person: lists, a group's page, claims and completions, until the end."""
        headers = {"Cookie": cookie}
        pacer = self.pace(self.result.config.api_rate, self.result.config.api_clients)
        while time.monotonic() < self.stop_at:
            await pacer.wait()
            roll = self.rng.random()
            if roll < 0.4:
                body = await self.timed(http, "list", "GET", f"/api/me/tasks?page={self.rng.randint(1, 3)}",
                                        headers=headers)
                self.task_ids.extend(item["id"] for item in (body or {}).get("items", []))
            elif roll < 0.55:
                await self.timed(http, "list", "GET", "/api/me/groups", headers=headers)
            elif roll < 0.7:
                group = self.rng.choice(GROUPS)
                body = await self.timed(http, "list", "GET", f"/api/groups/{group}/tasks", headers=headers)
                self.task_ids.extend(item["id"] for item in (body or {}).get("items", []))
            elif self.task_ids:
                action = "claim" if roll < 0.85 else "complete"
                await self.timed(http, action, "POST", f"/api/tasks/{self.rng.choice(self.task_ids)}/{action}",
                                 headers={**headers, "Content-Type": "application/json"})


class Pacer:
    """Spaces one client's requests ``interval`` seconds apart (open loop; a client that fell behind catches up
    at most one second's worth, then starts afresh)."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.next_at = time.monotonic()

    async def wait(self) -> None:
        """Sleep until this client's next request is due (at once when unpaced)."""
        if not self.interval:
            await asyncio.sleep(0)
            return
        now = time.monotonic()
        self.next_at = max(self.next_at + self.interval, now - 1.0)
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)


class Sampler:
    """Samples each process's resident memory and the queue's waiting rows until stopped."""

    def __init__(self, unit: Unit, db: Database, result: SoakResult, every: float) -> None:
        self.unit, self.db, self.result, self.every = unit, db, result, every

    async def run(self, until: float) -> None:
        """Sample every ``every`` seconds up to ``until`` (monotonic)."""
        pids = unit_pids(self.unit)
        while time.monotonic() < until:
            for name, pid in pids.items():
                self.result.rss[name].append(memory_mb(pid)[0])
            counts = await asyncio.to_thread(queue_counts, self.db)
            waiting = counts.get("pending", 0) + counts.get("sending", 0)
            self.result.peak_pending = max(self.result.peak_pending, waiting)
            await asyncio.sleep(self.every)


def queue_counts(db: Database) -> dict[str, int]:
    """outbound_queue rows by status."""
    oq = schema.outbound_queue
    with db.read() as conn:
        return collections.Counter(str(s) for s in conn.execute(select(oq.c.status)).scalars())


def sent_payloads(db: Database) -> list[str]:
    """The canonical JSON of the request body that sends each sent row's payload."""
    oq = schema.outbound_queue
    with db.read() as conn:
        rows = conn.execute(select(oq.c.payload).where(oq.c.status == "sent")).scalars()
        return [json.dumps(encode.body_of(outbound_of(json.loads(p))), sort_keys=True) for p in rows]


async def drain(db: Database, within: float, trace: list[tuple[float, int]] | None = None) -> float:
    """Wait (bounded) until nothing is pending or sending; the seconds it took (``trace``: (s, waiting) samples)."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        counts = await asyncio.to_thread(queue_counts, db)
        waiting = counts.get("pending", 0) + counts.get("sending", 0)
        if trace is not None:
            trace.append((time.monotonic() - started, waiting))
        if not waiting:
            break
        await asyncio.sleep(0.2)
    return time.monotonic() - started


def compare_deliveries(result: SoakResult, rows: list[str], gateway: AnyGateway) -> None:
    """Every sent row reached the gateway exactly once (sendText and sendReaction bodies are the payloads); read once
    the unit has stopped, so that no send is under way."""
    received = collections.Counter(json.dumps(call.body, sort_keys=True) for call in gateway.calls
                                   if call.route in ("sendText", "sendReaction"))
    expected = collections.Counter(rows)
    result.delivered = sum(received.values())
    result.duplicates = sum((received - expected).values())
    result.undelivered = sum((expected - received).values())


async def _sign_in(http: aiohttp.ClientSession, base: str, db: Database, person: str) -> str:
    token = await asyncio.to_thread(units.run, db, issue_login_token, user_id=person, now=datetime.now(UTC))
    async with http.get(f"{base}/login", params={"token": token}, allow_redirects=False) as answer:
        if answer.status != 303:
            raise AssertionError(f"login answered {answer.status}")
        morsel = answer.cookies["tasksvc_session"]
    return f"tasksvc_session={morsel.value}"


async def _warm_up(traffic: Traffic, http: aiohttp.ClientSession) -> None:
    """Everyone says something in every group, so that people and memberships exist before signing in."""
    for person in PEOPLE:
        for group in GROUPS:
            traffic.serial += 1
            event = chat_message(f"/t nueva primera {traffic.serial}", sender=person, group=group,
                                 message_id=f"SOAK{traffic.serial:09d}")
            await traffic.timed(http, "chat", "POST", "/webhook", json=event)
    await asyncio.sleep(1.0)


def _log_errors(unit: Unit) -> list[str]:
    return [line for line in unit.log_path.read_text(errors="replace").splitlines()
            if "level=error" in line or "Traceback" in line]


async def soak(folder: Path, config: SoakConfig, *, seed: int = 1) -> SoakResult:
    """Run the unit, the traffic and the sampler; stop the traffic, wait for the queue, stop the unit; compare what
    the database says was sent with what the gateway received."""
    result = SoakResult(config)
    async with FakeGateway() as gateway:
        env = unit_env(folder, **gateway_env(gateway.url, RATE_LIMIT_PER_MIN="1000000",
                                             SENDS_PER_PERSON_PER_MIN="1000000", REACTIONS_ENABLED="true",
                                             GROUP_GATING_MODE="off"))
        unit = await asyncio.to_thread(Unit("run", env, folder).start)
        db = Database.from_url(sqlite_url(Path(env["DB_PATH"])))
        try:
            try:
                await _run(unit, db, result, seed)
            finally:
                await asyncio.to_thread(unit.stop)
                result.log_errors = _log_errors(unit)
            result.queue = dict(await asyncio.to_thread(queue_counts, db))
            compare_deliveries(result, await asyncio.to_thread(sent_payloads, db), gateway)
        finally:
            db.dispose()
    return result


async def _run(unit: Unit, db: Database, result: SoakResult, seed: int) -> None:
    config = result.config
    traffic = Traffic(unit.url(""), result, random.Random(seed))
    connector = aiohttp.TCPConnector(limit=config.chat_clients + config.api_clients + 2)
    async with aiohttp.ClientSession(connector=connector) as http:
        traffic.stop_at = time.monotonic() + 3600
        await _warm_up(traffic, http)
        cookies = [await _sign_in(http, unit.url(""), db, PEOPLE[i % len(PEOPLE)]) for i in range(config.api_clients)]
        result.latencies.clear()
        result.statuses.clear()
        started = time.monotonic()
        traffic.stop_at = started + config.seconds
        sampler = Sampler(unit, db, result, config.sample_every)
        await asyncio.gather(sampler.run(traffic.stop_at),
                             *(traffic.chat_client(http) for _ in range(config.chat_clients)),
                             *(traffic.api_client(http, cookie) for cookie in cookies))
        result.seconds = time.monotonic() - started
    result.drain_seconds = await drain(db, config.drain_within, result.drain_trace)


def main(argv: list[str] | None = None) -> int:
    """Run the soak in a temporary folder, print the report; 1 when a check failed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--clients", type=int, default=3, help="chat clients, and as many API clients")
    parser.add_argument("--rate", type=float, default=60.0,
                        help="chat commands/s, and as many API requests/s (0: as fast as the clients can)")
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it (database, log) afterwards")
    parser.add_argument("--record", type=Path, help="write the report between the soak markers of this file")
    args = parser.parse_args(argv)
    config = SoakConfig(seconds=args.seconds, chat_clients=args.clients, api_clients=args.clients,
                        chat_rate=args.rate, api_rate=args.rate)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(soak(args.keep.resolve(), config))
    else:
        with tempfile.TemporaryDirectory(prefix="tasksvc-soak-") as folder:
            result = asyncio.run(soak(Path(folder), config))
    given = sys.argv[1:] if argv is None else argv
    block = (f"Machine: {machine()}; load average (1 min) at the end {load_average()}.\n\n"
             f"Command: `nox -s soak{' -- ' + ' '.join(given) if given else ''}`.\n\n{result.report()}")
    print(block, flush=True)
    if args.record:
        record(args.record, block, "soak")
    return 1 if result.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
