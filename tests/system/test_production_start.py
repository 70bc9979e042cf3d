"""Safe by default in production (SPEC section 16): no unauthenticated webhook unless the operator says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasksvc_run import exits
from tests.system.unit import Unit, unit_env

ONE_MINUTE = 60


@pytest.mark.parametrize("command", ["bot", "run"])
def test_production_without_a_webhook_secret_refuses_to_start_naming_it_and_the_way_out(
    tmp_path: Path, command: str
) -> None:
    env = unit_env(tmp_path, NODE_ENV="production")
    unit = Unit(command, env, tmp_path).start(wait_for=None)
    assert unit.process is not None
    try:
        assert unit.process.wait(timeout=ONE_MINUTE) == exits.CONFIG
    finally:
        unit.stop()
    (line,) = [line for line in unit.log().splitlines() if "configuration error" in line]
    assert line.startswith("tasksvc: configuration error: WEBHOOK_SECRET: required in production")
    assert "WEBHOOK_AUTH=none" in line
    assert not Path(env["DB_PATH"]).exists()  # refused before anything was opened or started


def test_webhook_auth_none_starts_without_a_secret_and_warns_at_every_start(tmp_path: Path) -> None:
    env = unit_env(tmp_path, NODE_ENV="production", WEBHOOK_AUTH="none")
    for _ in range(2):
        bot = Unit("bot", {**env, "PORT": env["BOT_PORT"]}, tmp_path)
        try:
            bot.start(wait_for="/metrics")
        finally:
            assert bot.stop() == 0
    whole = bot.log_path.read_text(errors="replace")  # both starts: log() keeps only the tail
    warnings = [line for line in whole.splitlines() if "level=warning" in line and "WEBHOOK_AUTH=none" in line]
    assert len(warnings) == 2, bot.log()
    assert "anyone who can reach it can post chat events" in warnings[0]


def test_development_and_test_start_without_a_webhook_secret(tmp_path: Path) -> None:
    env = unit_env(tmp_path, NODE_ENV="development", DEV_AUTOSEED_DB="false")
    bot = Unit("bot", {**env, "PORT": env["BOT_PORT"]}, tmp_path)
    try:
        bot.start(wait_for="/metrics")
    finally:
        assert bot.stop() == 0
    assert not [line for line in bot.log().splitlines() if "level=warning" in line and "WEBHOOK" in line]
