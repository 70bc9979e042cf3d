"""The chaos run of SPEC section 17: webhook load through the proxy of the real unit while its bot is killed with
SIGKILL at random moments, plainly, while another program holds SQLite's write lock, or while a send hangs at the
gateway; the unit is started again after each kill, as its container would be.

Clients post ``/t nueva caos <n> fin`` events as the gateway does: an event answered 200 is acknowledged; anything
else (503, the proxy's 502 while the bot is down, a refused connection) is delivered again a moment later. At the end
the run counts what the issue asks: events posted and acknowledged, tasks and reply rows per event, the replies the
gateway accepted (and the copies it accepted twice), and the time from each restart to the first reply it sent.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import random
import re
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from sqlalchemy import select
from typing_extensions import override

from taskcore.services.inbox import inbox_stats
from taskcore.storage import schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tasksvc_run.owner import process_start
from tests.fakes.gateway import FakeGateway, GatewayCall
from tests.faults.harness import queue_counts
from tests.faults.test_sqlite_lock import LockHolder
from tests.system.unit import Unit, chat_message, free_ports, gateway_env, unit_env, unit_pids

GROUPS = [f"12036390000000{g:04d}@g.us" for g in range(4)]
PEOPLE = [f"3461000{p:04d}" for p in range(8)]
MODES = ("plain", "write lock held", "send hanging", "answer lost")
REDELIVER_AFTER = 0.2  # the gateway waits 5 s and more; shorter here, so the run stays short
POST_TIMEOUT = aiohttp.ClientTimeout(total=10)
IN_FLIGHT_SLACK = 0.5  # seconds after a kill the fake gateway may still accept a send the dead bot had made
RECORD_WINDOW = 3.0  # seconds an accepted send may take to be recorded on this loaded machine (a held lock: 0.8 s)


class StampedGateway(FakeGateway):
    """The fake gateway, remembering when it accepted each call (monotonic time)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.accepted_at: list[float] = []  # wall-clock time (the bot's start is known as one)
        self.stalled = 0
        self._answers = asyncio.Event()
        self._answers.set()

    @override
    def record(self, call: GatewayCall) -> None:
        self.accepted_at.append(time.time())
        super().record(call)

    def stall_answers(self) -> None:
        """From now on a send is carried out (stored, echoed) but its answer waits until ``release()``: a bot killed
        meanwhile never learns that the gateway accepted it (the window SPEC section 26 closes)."""
        self._answers.clear()

    def release(self) -> None:
        """Let held sends and stalled answers go on."""
        self._answers.set()
        super().release()

    async def _serve(self, route: str, request: web.Request) -> web.StreamResponse:
        response = await super()._serve(route, request)
        if route == "sendText" and response.status == 201 and not self._answers.is_set():
            self.stalled += 1
            await self._answers.wait()
        return response


@dataclass
class Figures:
    """What a run counted (see the module docstring)."""

    posted: int = 0
    acknowledged: int = 0
    tasks: int = 0
    replies: int = 0
    delivered: int = 0
    duplicates: int = 0
    unexplained_duplicates: int = 0
    first_reply_after_restart: list[float] = field(default_factory=list)  # from the restarted bot's start
    first_reply_after_unit_restart: list[float] = field(default_factory=list)  # from `tasksvc run` again
    duplicate_offsets: list[float] = field(default_factory=list)  # seconds from the first copy to the kill
    kills: list[str] = field(default_factory=list)
    settled: collections.Counter[str] = field(default_factory=collections.Counter)  # in-doubt jobs, by how

    def line(self) -> str:
        """One line for the report."""
        worst = max(self.first_reply_after_restart, default=0.0)
        return (f"kills={len(self.kills)} ({', '.join(self.kills)}) posted={self.posted} "
                f"acknowledged={self.acknowledged} tasks={self.tasks} replies={self.replies} "
                f"delivered={self.delivered} duplicates={self.duplicates} "
                f"(unexplained {self.unexplained_duplicates}) in_doubt_settled={dict(sorted(self.settled.items()))} "
                f"worst_first_reply_after_restart_s={worst:.2f} "
                f"first_replies_s={[round(t, 2) for t in self.first_reply_after_restart]} "
                f"from_unit_restart_s={[round(t, 2) for t in self.first_reply_after_unit_restart]} "
                f"duplicates_accepted_before_kill_s={[round(t, 3) for t in self.duplicate_offsets]}")


def event(n: int) -> dict[str, object]:
    """Event n: a task command from one of eight people in one of four groups."""
    return chat_message(f"/t nueva caos {n} fin", sender=PEOPLE[n % len(PEOPLE)], group=GROUPS[n % len(GROUPS)],
                        message_id=f"CHAOS{n:06d}")


class Load:
    """Clients posting every event until it is acknowledged, at about ``rate`` events per second in all."""

    def __init__(self, port: int, events: int, *, clients: int, rate: float) -> None:
        self.url = f"http://127.0.0.1:{port}/webhook"
        self.waiting: collections.deque[int] = collections.deque(range(events))
        self.acknowledged: set[int] = set()
        self.posts = collections.Counter[int]()
        self.clients, self.gap = clients, clients / rate
        self.events = events

    async def run(self, within: float) -> None:
        """Post until every event is acknowledged; AssertionError after ``within`` seconds."""
        async with aiohttp.ClientSession() as http, asyncio.timeout(within):
            await asyncio.gather(*(self._client(http) for _ in range(self.clients)))

    async def _client(self, http: aiohttp.ClientSession) -> None:
        while len(self.acknowledged) < self.events:
            if not self.waiting:
                await asyncio.sleep(0.05)
                continue
            n = self.waiting.popleft()
            self.posts[n] += 1
            try:
                async with http.post(self.url, json=event(n), timeout=POST_TIMEOUT) as answer:
                    await answer.read()
                    ok = answer.status == 200
            except (aiohttp.ClientError, TimeoutError):
                ok = False
            if ok:
                self.acknowledged.add(n)
                await asyncio.sleep(self.gap)
            else:
                await asyncio.sleep(REDELIVER_AFTER)
                self.waiting.append(n)


SETTLED = re.compile(r"in-doubt job settled.*\bhow=(\w+)")


def settled_in(log: Path) -> collections.Counter[str]:
    """How many in-doubt jobs a unit's log says it settled, by how (echo, gateway, not_sent)."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return collections.Counter(match.group(1) for match in SETTLED.finditer(text))


def started_at(pid: int) -> float:
    """When process ``pid`` started, in wall-clock seconds (Linux /proc)."""
    start = process_start(pid)
    assert start is not None
    return int(start) / os.sysconf("SC_CLK_TCK")


async def first_reply(unit: Unit, gateway: StampedGateway, accepted: int) -> float:
    """When the gateway accepted its first send after the ``accepted`` ones before a restart of ``unit``; the unit is
    stopped when none comes (bounded), so that a failed run leaves no process behind."""
    try:
        await until(lambda: len(gateway.accepted_at) > accepted, 30, "a reply after the restart")
    except BaseException:
        await asyncio.to_thread(unit.stop)
        raise
    return gateway.accepted_at[accepted]


async def until(check: Callable[[], bool], within: float, what: str) -> None:
    """Poll ``check`` every 20 ms; AssertionError naming ``what`` after ``within`` seconds."""
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, f"not within {within} s: {what}"
        await asyncio.sleep(0.02)


@dataclass
class Chaos:
    """One run: the unit, its database, the gateway and the load."""

    tmp: Path
    events: int
    kills: int
    seed: int
    rate: float = 40.0
    figures: Figures = field(default_factory=Figures)

    async def run(self) -> Figures:
        """The whole run; the figures (asserted by the caller)."""
        gateway = StampedGateway(port=free_ports(1)[0], send_delay=0.01)
        await gateway.start()
        env = unit_env(self.tmp, **gateway_env(
            gateway.url, RATE_LIMIT_PER_MIN="100000", SENDS_PER_PERSON_PER_MIN="100000", GROUP_GATING_MODE="off",
            GATEWAY_TIMEOUT_MS="60000",
            RQ_BACKOFF_BASE_MS="50", RQ_BACKOFF_MAX_MS="500", RQ_MAX_ATTEMPTS="1000", LOG_FORMAT="kv"))
        env["WEBHOOK_URL"] = f"http://127.0.0.1:{env['PORT']}/webhook"  # echoes come back through the proxy
        unit = await asyncio.to_thread(Unit("run", env, self.tmp).start)
        db = Database.from_url(sqlite_url(Path(env["DB_PATH"])))
        load = Load(unit.port, self.events, clients=16, rate=self.rate)
        kill_times: list[float] = []
        try:
            posting = asyncio.create_task(load.run(within=60 + self.kills * 30))
            rng = random.Random(self.seed)
            for k in range(self.kills):  # spread over the load, so that work is under way at every kill
                await until(lambda k=k: len(load.acknowledged) >= self.events * (k + 1) // (self.kills + 2), 120,
                            "the load goes on")
                await asyncio.sleep(rng.uniform(0.0, 0.5))
                mode = MODES[k % len(MODES)]
                unit = await self._kill_and_restart(unit, env, gateway, mode, kill_times)
                self.figures.kills.append(mode)
            await posting
            await self._settled(db)
            self._count(db, gateway, load, kill_times)
            self.figures.settled = settled_in(unit.log_path)
        finally:
            await asyncio.to_thread(unit.stop)
            db.dispose()
            await gateway.close()
        return self.figures

    async def _kill_and_restart(self, unit: Unit, env: dict[str, str], gateway: StampedGateway, mode: str,
                                kill_times: list[float]) -> Unit:
        bot = unit_pids(unit)["bot"]
        if mode == "send hanging":
            gateway.hold()
            await until(lambda: gateway.held >= 1, 20, "a send hangs at the gateway")
        if mode == "answer lost":
            gateway.stall_answers()
            await until(lambda: gateway.stalled >= 1, 20, "a send accepted, its answer held back")
        if mode == "write lock held":
            async with LockHolder(Path(env["DB_PATH"]), 0.8):
                await asyncio.sleep(0.3)
                os.kill(bot, signal.SIGKILL)
                kill_times.append(time.time())
        else:
            os.kill(bot, signal.SIGKILL)
            kill_times.append(time.time())
        assert unit.process is not None
        await asyncio.to_thread(unit.process.wait, 20)  # the supervisor stops the unit when its bot dies
        gateway.release()
        accepted = len(gateway.accepted_at)
        restarted_at = time.time()
        unit = await asyncio.to_thread(Unit("run", env, self.tmp).start)
        bot_started = started_at(unit_pids(unit)["bot"])
        replied_at = await first_reply(unit, gateway, accepted)
        self.figures.first_reply_after_restart.append(replied_at - bot_started)
        self.figures.first_reply_after_unit_restart.append(replied_at - restarted_at)
        return unit

    async def _settled(self, db: Database, within: float = 60.0) -> None:
        """Wait until the inbox and the queue hold nothing pending."""
        deadline = time.monotonic() + within
        while True:
            counts = await asyncio.to_thread(queue_counts, db)
            pending = (await asyncio.to_thread(units.look, db, inbox_stats))["pending"]
            if not pending and not counts.get("pending") and not counts.get("sending"):
                return
            assert time.monotonic() < deadline, f"not settled: inbox {pending}, queue {counts}"
            await asyncio.sleep(0.1)

    def _count(self, db: Database, gateway: StampedGateway, load: Load, kill_times: list[float]) -> None:
        figures = self.figures
        figures.posted = sum(load.posts.values())
        figures.acknowledged = len(load.acknowledged)
        with db.read() as conn:
            descriptions = list(conn.execute(select(schema.tasks.c.description)).scalars())
            payloads = list(conn.execute(select(schema.outbound_queue.c.payload)
                                         .where(schema.outbound_queue.c.status == "sent")).scalars())
        self.tasks_per_event = collections.Counter(descriptions)
        self.replies_per_event = collections.Counter(json.loads(p)["text"].split("creada: ", 1)[-1].split(".")[0]
                                                     for p in payloads)
        figures.tasks, figures.replies = len(descriptions), len(payloads)
        texts = [call.body["text"] for call in gateway.calls if call.route == "sendText"]
        stamps = [at for at, call in zip(gateway.accepted_at, gateway.calls, strict=True) if call.route == "sendText"]
        figures.delivered = len(set(texts))
        seen: dict[str, float] = {}
        for text, at in zip(texts, stamps, strict=True):
            if text in seen:
                figures.duplicates += 1
                # The one window left: the gateway accepted the first copy and the bot died before recording it
                # (within RECORD_WINDOW); the copy went out after that kill. Any other copy is a bug.
                # (the fake may notice the dead caller only after the kill: it accepts a send already in flight)
                kills = [kill for kill in kill_times if seen[text] - IN_FLIGHT_SLACK <= kill <= at]
                offset = kills[0] - seen[text] if kills else float("nan")
                figures.duplicate_offsets.append(offset)
                if not kills or offset > RECORD_WINDOW:
                    figures.unexplained_duplicates += 1
            else:
                seen[text] = at
