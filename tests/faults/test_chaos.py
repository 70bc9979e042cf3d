"""Nothing acknowledged is lost (SPEC section 17): the bot killed with SIGKILL at random moments under webhook load
through the proxy, with and without a held write lock and with a send hanging at the gateway; every acknowledged
event ends with exactly one task and one reply, and after each restart the first reply leaves within 5 s.

The default run kills three times; the slow version (``nox -s faults``) ten times with 400 events. The figures are
printed (``-s``) for the record: docs/benchmarks.md, "Chaos".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults.chaos import Chaos, Figures

FIRST_REPLY_WITHIN = 5.0


def check(run: Chaos, figures: Figures) -> None:
    print(f"\nchaos: {figures.line()}")
    assert figures.acknowledged == run.events
    assert figures.tasks == run.events
    assert set(run.tasks_per_event.values()) == {1}  # one task per event, none twice
    assert figures.replies == run.events
    assert set(run.replies_per_event.values()) == {1}  # one reply row per event, every one sent
    assert figures.delivered == run.events  # the gateway accepted every reply
    assert figures.unexplained_duplicates == 0  # a reply sent twice only when the bot died right after the gateway
    assert max(figures.first_reply_after_restart) <= FIRST_REPLY_WITHIN, figures.first_reply_after_restart


async def test_three_kills_under_webhook_load_lose_nothing_acknowledged(tmp_path: Path) -> None:
    run = Chaos(tmp_path, events=90, kills=3, seed=16)
    check(run, await run.run())


@pytest.mark.slow
async def test_ten_kills_under_webhook_load_lose_nothing_acknowledged(tmp_path: Path) -> None:
    run = Chaos(tmp_path, events=400, kills=10, seed=1616)
    check(run, await run.run())
