"""SIGTERM while a send hangs at the gateway and events wait in the inbox: the unit is down within the supervisor's
10 s, nothing acknowledged is lost, and the next start delivers every reply (SPEC sections 2 and 17)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from taskcore.services.inbox import inbox_stats
from tasksvc_run import units
from tests.faults.harness import live_unit
from tests.system.unit import Unit

SUPERVISOR_BUDGET = 10.0


async def test_a_unit_stopped_with_a_send_hanging_and_events_waiting_is_down_within_10_s_and_loses_nothing(
    tmp_path: Path,
) -> None:
    async with live_unit(tmp_path, GATEWAY_TIMEOUT_MS="60000", REACTIONS_ENABLED="false") as live:
        live.gateway.hold()  # every send hangs, as a gateway that stopped answering
        for n in range(12):
            assert await live.say(f"/t nueva antes de parar {n}") == 200
        await live.wait_until(lambda: live.gateway.held >= 1, 20, "a send hangs at the gateway")
        started = time.monotonic()
        status = await asyncio.to_thread(live.unit.stop)
        stopped_in = time.monotonic() - started
        assert stopped_in < SUPERVISOR_BUDGET, live.unit.log()
        assert status == 0, live.unit.log()
        assert not live.log_lines("killing")  # nothing needed the supervisor's SIGKILL
        live.gateway.release()
        assert not live.gateway.sent_texts()  # the hanging sends were never carried out

        again = await asyncio.to_thread(Unit("run", live.unit.env, live.unit.cwd).start)
        try:
            await live.queued_at_least(12)
            await live.drained(within=30)  # the job the stopped bot held is sent again at once, not after 121 s
        finally:
            await asyncio.to_thread(again.stop)
        assert sorted(t.split("creada: ")[1].split(".")[0] for t in live.gateway.sent_texts()) == sorted(
            f"antes de parar {n}" for n in range(12))
        assert units.look(live.db, inbox_stats)["pending"] == 0
