"""A gateway slower than GATEWAY_TIMEOUT_MS: each send times out and is retried later, and nothing piles up.

The stated bound: at every moment at most WORKER_CONCURRENCY sends are in flight (rows in ``sending``), the rows
waiting never exceed the rows the commands created, and the bot's memory stays within a few MB; when the gateway is
fast again everything is delivered, each message once (the fake drops a send whose caller timed out and left).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.faults.harness import PEOPLE, Live, assert_each_delivered_once, live_unit
from tests.system.unit import memory_mb, unit_pids

WORKER_CONCURRENCY = 4  # WorkerConfig.from_settings default
SLOW = {"GATEWAY_TIMEOUT_MS": "300", "RQ_BACKOFF_BASE_MS": "100", "RQ_BACKOFF_MAX_MS": "500", "RQ_MAX_ATTEMPTS": "500",
        "REACTIONS_ENABLED": "false"}
MEMORY_SLACK_MB = 10.0


class Watch:
    """Samples the queue (and the bot's memory) while the gateway is slow; remembers the worst."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self.most_sending = 0
        self.most_waiting = 0
        self.bot = unit_pids(live.unit)["bot"]
        self.rss_before = memory_mb(self.bot)[0]
        self.rss_most = self.rss_before

    async def run(self, until: float) -> None:
        """Sample every 50 ms until ``until`` (monotonic)."""
        while time.monotonic() < until:
            counts = await self.live.counts()
            self.most_sending = max(self.most_sending, counts.get("sending", 0))
            self.most_waiting = max(self.most_waiting, counts.get("pending", 0) + counts.get("sending", 0))
            self.rss_most = max(self.rss_most, memory_mb(self.bot)[0])
            await asyncio.sleep(0.05)


async def _post(live: Live, commands: int, seconds: float) -> None:
    """Commands from three people in the group and in their direct chats (several chats, so sends overlap)."""
    for n in range(commands):
        group = None if n % 2 else "120363900000000001@g.us"
        assert await live.say(f"/t nueva lenta {n}", sender=PEOPLE[n % len(PEOPLE)], group=group) == 200
        await asyncio.sleep(seconds / commands)


async def _slow_spell(tmp_path: Path, *, seconds: float, commands: int) -> None:
    async with live_unit(tmp_path, **SLOW) as live:
        live.gateway.send_delay = 1.0  # every send outlasts GATEWAY_TIMEOUT_MS (0.3 s)
        watch = Watch(live)
        until = time.monotonic() + seconds
        await asyncio.gather(watch.run(until), _post(live, commands, seconds * 0.8))
        await live.queued_at_least(commands)
        live.gateway.send_delay = 0.0
        await live.drained(within=30)

        assert watch.most_sending <= WORKER_CONCURRENCY
        assert watch.most_waiting <= commands
        assert watch.rss_most <= watch.rss_before + MEMORY_SLACK_MB
        assert live.gateway.dropped, "no send outlasted the timeout"
        assert set(await live.counts()) == {"sent"}
        assert await asyncio.to_thread(assert_each_delivered_once, live.db, live.gateway) == commands
        assert live.log_lines("retry=True")
        assert not live.log_lines("level=error")


async def test_sends_slower_than_the_timeout_are_retried_and_never_pile_up(tmp_path: Path) -> None:
    await _slow_spell(tmp_path, seconds=6, commands=12)


@pytest.mark.slow
async def test_a_gateway_slow_for_half_a_minute_keeps_the_queue_bounded_and_sends_each_message_once(
    tmp_path: Path,
) -> None:
    await _slow_spell(tmp_path, seconds=30, commands=60)
