"""GATEWAY_MAX_SENDS_PER_MIN (issue 20): its default, its validation, the production warning above 60, and the
worker and development mode that read it."""

from __future__ import annotations

import pytest

from taskcore.config_warnings import startup_warnings
from taskcore.settings import ConfigError, load_settings
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.devmode import apply_dev_environment

QUIET = {"WEBHOOK_SECRET": "s", "METRICS_TOKEN": "t"}  # production with nothing else to warn about


def test_the_default_rate_is_twenty_a_minute() -> None:
    assert load_settings({}).gateway_max_sends_per_min == 20


@pytest.mark.parametrize(("value", "line"), [
    ("0", "GATEWAY_MAX_SENDS_PER_MIN: invalid value '0'; accepted: an integer >= 1"),
    ("-3", "GATEWAY_MAX_SENDS_PER_MIN: invalid value '-3'; accepted: an integer >= 1"),
    ("fast", "GATEWAY_MAX_SENDS_PER_MIN: invalid value 'fast'; accepted: an integer >= 1"),
])
def test_a_bad_rate_stops_the_start_with_one_line_naming_the_variable(value: str, line: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({"GATEWAY_MAX_SENDS_PER_MIN": value})
    assert caught.value.lines == [line]


def test_a_rate_above_sixty_a_minute_is_warned_about_in_production() -> None:
    settings = load_settings({**QUIET, "GATEWAY_MAX_SENDS_PER_MIN": "61"})
    assert startup_warnings(settings) == [
        "GATEWAY_MAX_SENDS_PER_MIN=61 is above 60 a minute: a WhatsApp number that sends this fast risks being "
        "flagged as spam and banned (default 20)"]


@pytest.mark.parametrize("env", [{"GATEWAY_MAX_SENDS_PER_MIN": "60"},
                                 {"GATEWAY_MAX_SENDS_PER_MIN": "6000", "NODE_ENV": "development"},
                                 {"GATEWAY_MAX_SENDS_PER_MIN": "6000", "NODE_ENV": "test"}])
def test_sixty_a_minute_or_a_rate_outside_production_is_not_warned_about(env: dict[str, str]) -> None:
    assert startup_warnings(load_settings({**QUIET, **env})) == []


def test_the_worker_takes_its_rate_from_the_settings() -> None:
    assert WorkerConfig.from_settings(load_settings({"GATEWAY_MAX_SENDS_PER_MIN": "30"})).max_sends_per_min == 30
    assert WorkerConfig().max_sends_per_min is None


def test_development_with_the_local_gateway_does_not_pace_the_simulator() -> None:
    environ: dict[str, str] = {}
    apply_dev_environment(environ)
    assert load_settings(environ).gateway_max_sends_per_min == 6000


def test_development_against_a_real_gateway_keeps_the_default_rate() -> None:
    environ = {"GATEWAY_API_URL": "http://127.0.0.1:8080"}
    apply_dev_environment(environ)
    assert "GATEWAY_MAX_SENDS_PER_MIN" not in environ
