"""The chaos run with two units on one PostgreSQL database behind a round-robin balancer (SPEC section 26): the load
and the gateway's echoes reach the units through the balancer; one unit's bot at a time is killed with SIGKILL and
the unit started again, while the other keeps serving. Counted as in ``chaos``: duplicates, and how many in-doubt
jobs were settled each way.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from aiohttp import web

from taskcore.storage.db import Database
from tests.faults.chaos import Chaos, Figures, Load, StampedGateway, first_reply, settled_in, started_at, until
from tests.system.unit import Unit, free_ports, gateway_env, unit_env, unit_pids

FORWARD_TIMEOUT = aiohttp.ClientTimeout(total=10)
_HOP = frozenset({"host", "content-length", "transfer-encoding", "connection"})


@dataclass
class Balancer:
    """Round-robin over the units' public ports; a unit that does not answer gets the request's 502."""

    ports: list[int]
    port: int = field(default_factory=lambda: free_ports(1)[0])
    _turn: itertools.count[int] = field(default_factory=itertools.count)
    _runner: web.AppRunner | None = None
    _http: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        """Listen on 127.0.0.1:port."""
        self._http = aiohttp.ClientSession()
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def close(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._http is not None
        port = self.ports[next(self._turn) % len(self.ports)]
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        try:
            async with self._http.request(request.method, f"http://127.0.0.1:{port}{request.rel_url}",
                                          data=await request.read(), headers=headers,
                                          timeout=FORWARD_TIMEOUT) as answer:
                return web.Response(status=answer.status, body=await answer.read(),
                                    content_type=answer.content_type)
        except (aiohttp.ClientError, TimeoutError):
            return web.Response(status=502, text="unit down")


@dataclass
class TwoUnitChaos(Chaos):
    """One run: two units, their shared database, the balancer, the gateway and the load (waiting for the queue and
    counting as the one-unit run does)."""

    database_url: str = ""

    async def run(self) -> Figures:
        """The whole run; the figures (asserted by the caller)."""
        gateway = StampedGateway(port=free_ports(1)[0], send_delay=0.01)
        await gateway.start()
        envs = [self._env(gateway.url, name) for name in ("a", "b")]
        balancer = Balancer([int(env["PORT"]) for env in envs])
        for env in envs:
            env["WEBHOOK_URL"] = f"http://127.0.0.1:{balancer.port}/webhook"
        await balancer.start()
        units = [await asyncio.to_thread(Unit("run", env, Path(env["UNIT_DIR"])).start) for env in envs]
        db = Database.from_url(self.database_url)
        load = Load(balancer.port, self.events, clients=16, rate=self.rate)
        kill_times: list[float] = []
        try:
            posting = asyncio.create_task(load.run(within=60 + self.kills * 30))
            rng = random.Random(self.seed)
            for k in range(self.kills):
                await until(lambda k=k: len(load.acknowledged) >= self.events * (k + 1) // (self.kills + 2), 120,
                            "the load goes on")
                await asyncio.sleep(rng.uniform(0.0, 0.5))
                which, lost = k % 2, k % 4 < 2  # a and b with an answer lost (while the load is on), then plainly
                units[which] = await self._kill_unit(units[which], envs[which], gateway, kill_times, lost=lost)
                self.figures.kills.append(f"unit {'ab'[which]}{' answer lost' if lost else ''}")
            await posting
            await self._settled(db)
            self._count(db, gateway, load, kill_times)
            for unit in units:
                self.figures.settled += settled_in(unit.log_path)
        finally:
            for unit in units:
                await asyncio.to_thread(unit.stop)
            db.dispose()
            await balancer.close()
            await gateway.close()
        return self.figures

    def _env(self, gateway_url: str, name: str) -> dict[str, str]:
        unit_dir = self.tmp / name
        unit_dir.mkdir()
        env = unit_env(unit_dir, **gateway_env(
            gateway_url, RATE_LIMIT_PER_MIN="100000", SENDS_PER_PERSON_PER_MIN="100000", GROUP_GATING_MODE="off",
            GATEWAY_TIMEOUT_MS="60000",
            RQ_BACKOFF_BASE_MS="50", RQ_BACKOFF_MAX_MS="500", RQ_MAX_ATTEMPTS="1000", LOG_FORMAT="kv"))
        env.pop("DB_PATH")
        return env | {"DATABASE_URL": self.database_url, "UNIT_DIR": str(unit_dir)}

    async def _kill_unit(self, unit: Unit, env: dict[str, str], gateway: StampedGateway,
                         kill_times: list[float], *, lost: bool) -> Unit:
        if lost:
            gateway.stall_answers()
            stalled = gateway.stalled
            await until(lambda: gateway.stalled >= stalled + 2, 20, "sends accepted, their answers held back")
        os.kill(unit_pids(unit)["bot"], signal.SIGKILL)
        kill_times.append(time.time())
        assert unit.process is not None
        await asyncio.to_thread(unit.process.wait, 20)  # the supervisor stops the unit when its bot dies
        gateway.release()
        accepted = len(gateway.accepted_at)
        restarted_at = time.time()
        unit = await asyncio.to_thread(Unit("run", env, Path(env["UNIT_DIR"])).start)
        bot_started = started_at(unit_pids(unit)["bot"])
        replied_at = await first_reply(unit, gateway, accepted)
        self.figures.first_reply_after_restart.append(max(0.0, replied_at - bot_started))
        self.figures.first_reply_after_unit_restart.append(replied_at - restarted_at)
        return unit
