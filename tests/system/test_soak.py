"""The soak of benchmarks/soak.py as tests: mixed chat and API traffic through the proxy of a real `tasksvc run`
with a fake gateway; no error, memory that levels off, a queue that drains with every message sent once.

The short one (15 s) runs by default; the two-minute one is `slow` (`nox -s soak` runs it and prints the report).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.soak import SoakConfig, soak


async def _soak(tmp_path: Path, config: SoakConfig) -> None:
    result = await soak(tmp_path, config)
    print(result.report())
    assert result.failures() == []
    assert result.requests > config.seconds * (config.chat_rate + config.api_rate) * 0.5  # the load was really there


async def test_fifteen_seconds_of_mixed_traffic_leave_no_error_and_a_drained_queue(tmp_path: Path) -> None:
    await _soak(tmp_path, SoakConfig(seconds=15, drain_within=30, rss_tolerance_mb=4.0))


@pytest.mark.slow
async def test_two_minutes_of_mixed_traffic_keep_memory_flat_and_drain_the_queue(tmp_path: Path) -> None:
    await _soak(tmp_path, SoakConfig(seconds=120))
