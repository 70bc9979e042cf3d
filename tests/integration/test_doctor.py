"""`tasksvc doctor` against the fake gateway on loopback: each reason a bot stays silent, and a healthy setup."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from taskcore.gateway.diagnostics import Check, Verdict, exit_status
from taskcore.gateway.evolution.encode import WEBHOOK_EVENTS
from taskcore.settings import load_settings
from tasksvc_run.bot.background import register_webhook
from tasksvc_run.doctor import diagnose, render
from tasksvc_run.gateways.evolution import EvolutionGateway
from tests.fakes.gateway import FakeGateway

SECRET = "s3cret-webhook-value-never-printed"
KEY = "k-gateway-key-never-printed"
HOOK = "http://tasksvc:3000/webhook"


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    async with FakeGateway(api_key=KEY) as gw:
        gw.store_webhook(HOOK, events=list(WEBHOOK_EVENTS), headers={"X-Webhook-Secret": SECRET})
        yield gw


def process_env(**values: str) -> dict[str, str]:
    """Only the given variables (no stray TASKSVC or gateway settings of the machine), plus what Python needs."""
    kept = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")}
    return {**kept, **values}


def env_for(gateway: FakeGateway, **extra: str) -> dict[str, str]:
    return {"NODE_ENV": "production", "GATEWAY_API_URL": gateway.url, "GATEWAY_API_INSTANCE": "taskbot",
            "GATEWAY_API_KEY": KEY, "WEBHOOK_URL": HOOK, "WEBHOOK_SECRET": SECRET,
            "WEB_BASE_URL": "https://tareas.example.org", "GATEWAY_TIMEOUT_MS": "2000",
            "GROUP_GATING_MODE": "discover", "ADMIN_USERS": "34600112233", "METRICS_TOKEN": "doctor-metrics", **extra}


async def doctor(gateway: FakeGateway, **extra: str) -> tuple[int, dict[str, Check], str]:
    checks = await diagnose(load_settings(env_for(gateway, **extra)))
    report = render(checks)
    assert SECRET not in report
    assert KEY not in report
    return exit_status(checks), {check.name: check for check in checks}, report


def problems(checks: dict[str, Check]) -> dict[str, str]:
    return {name: check.detail for name, check in checks.items() if check.verdict is Verdict.PROBLEM}


async def test_a_healthy_setup_passes_every_check_and_exits_zero(gateway: FakeGateway) -> None:
    status, checks, report = await doctor(gateway)
    assert status == 0, report
    assert {check.verdict for check in checks.values()} == {Verdict.OK}
    assert set(checks) >= {"gateway version", "connection", "groupsIgnore", "webhook URL", "webhook enabled",
                           "webhook events", "webhook secret"}
    assert report.endswith("Nothing keeps the bot silent.\n")


async def test_the_webhook_the_bot_registers_at_start_is_what_doctor_expects() -> None:
    async with FakeGateway(api_key=KEY) as gateway:
        settings = load_settings(env_for(gateway))
        async with aiohttp.ClientSession() as session:
            assert await register_webhook(EvolutionGateway.from_settings(session, settings), settings)
        status, _, report = await doctor(gateway)
    assert status == 0, report


@pytest.mark.parametrize("state", ["close", "connecting", "refused"])
async def test_an_instance_that_is_not_connected_is_a_problem(gateway: FakeGateway, state: str) -> None:
    gateway.state = state
    status, checks, _ = await doctor(gateway)
    assert status == 1
    assert problems(checks) == {"connection": checks["connection"].detail}
    assert state in checks["connection"].detail
    assert "QR" in checks["connection"].fix


async def test_groups_ignored_by_the_gateway_is_a_problem(gateway: FakeGateway) -> None:
    gateway.groups_ignore = True
    status, checks, _ = await doctor(gateway)
    assert status == 1
    assert set(problems(checks)) == {"groupsIgnore"}
    assert "groupsIgnore false" in checks["groupsIgnore"].fix


async def test_an_instance_without_settings_does_not_ignore_groups(gateway: FakeGateway) -> None:
    gateway.groups_ignore = None  # /settings/find answers null
    status, checks, _ = await doctor(gateway)
    assert (status, checks["groupsIgnore"].verdict) == (0, Verdict.OK)


async def test_a_missing_webhook_is_a_problem(gateway: FakeGateway) -> None:
    gateway.webhook_row = None
    status, checks, _ = await doctor(gateway)
    assert status == 1
    assert set(problems(checks)) == {"webhook"}
    assert "restart the bot" in checks["webhook"].fix


async def test_a_webhook_pointing_elsewhere_is_a_problem(gateway: FakeGateway) -> None:
    gateway.store_webhook("https://old.example.org/hook?token=abc", events=list(WEBHOOK_EVENTS),
                          headers={"X-Webhook-Secret": SECRET})
    status, checks, report = await doctor(gateway)
    assert status == 1
    assert set(problems(checks)) == {"webhook URL"}
    assert "https://old.example.org/hook" in checks["webhook URL"].detail
    assert "token=abc" not in report


async def test_a_disabled_webhook_is_a_problem(gateway: FakeGateway) -> None:
    gateway.store_webhook(HOOK, enabled=False, events=list(WEBHOOK_EVENTS), headers={"X-Webhook-Secret": SECRET})
    status, checks, _ = await doctor(gateway)
    assert (status, set(problems(checks))) == (1, {"webhook enabled"})


async def test_a_webhook_missing_events_the_bot_handles_names_them(gateway: FakeGateway) -> None:
    gateway.store_webhook(HOOK, events=["GROUPS_UPSERT", "CONNECTION_UPDATE"], headers={"X-Webhook-Secret": SECRET})
    status, checks, _ = await doctor(gateway)
    assert (status, set(problems(checks))) == (1, {"webhook events"})
    assert checks["webhook events"].detail == ("missing MESSAGES_UPSERT, GROUP_PARTICIPANTS_UPDATE, SEND_MESSAGE, "
                                               "MESSAGES_UPDATE")


async def test_a_webhook_subscribed_to_every_event_passes(gateway: FakeGateway) -> None:
    gateway.store_webhook(HOOK, events=[], headers={"X-Webhook-Secret": SECRET})
    status, checks, _ = await doctor(gateway)
    assert (status, checks["webhook events"].verdict) == (0, Verdict.OK)


async def test_a_different_secret_is_a_problem_and_neither_secret_is_printed(gateway: FakeGateway) -> None:
    gateway.store_webhook(HOOK, events=list(WEBHOOK_EVENTS), headers={"X-Webhook-Secret": "old-secret-value"})
    status, checks, report = await doctor(gateway)
    assert (status, set(problems(checks))) == (1, {"webhook secret"})
    assert "differs" in checks["webhook secret"].detail
    assert "old-secret-value" not in report


async def test_a_webhook_without_the_secret_header_is_a_problem(gateway: FakeGateway) -> None:
    gateway.store_webhook(HOOK, events=list(WEBHOOK_EVENTS))
    status, checks, _ = await doctor(gateway)
    assert (status, set(problems(checks))) == (1, {"webhook secret"})


async def test_a_2_4_gateway_asking_for_a_licence_is_reported_as_such(gateway: FakeGateway) -> None:
    gateway.version, gateway.license_required = "2.4.0", True
    status, checks, _ = await doctor(gateway)
    assert status == 1
    assert "2.4" in checks["gateway version"].detail
    assert "LICENSE_REQUIRED" in checks["instance"].detail
    assert "v2.3.7" in checks["instance"].fix


async def test_a_2_4_gateway_is_flagged_even_once_activated(gateway: FakeGateway) -> None:
    gateway.version = "2.4.1"
    status, checks, _ = await doctor(gateway)
    assert (status, set(problems(checks))) == (1, {"gateway version"})
    assert "licence" in checks["gateway version"].detail


async def test_a_gateway_that_reports_no_version_is_only_a_warning(gateway: FakeGateway) -> None:
    gateway.version = None
    status, checks, _ = await doctor(gateway)
    assert (status, checks["gateway version"].verdict) == (0, Verdict.WARN)


async def test_an_unknown_instance_is_named(gateway: FakeGateway) -> None:
    status, checks, _ = await doctor(gateway, GATEWAY_API_INSTANCE="tasbkot")
    assert status == 1
    assert checks["instance"].detail == 'the gateway has no instance "tasbkot" (404)'
    assert "GATEWAY_API_INSTANCE" in checks["instance"].fix


async def test_a_wrong_api_key_is_reported_without_printing_it(gateway: FakeGateway) -> None:
    status, checks, report = await doctor(gateway, GATEWAY_API_KEY="wrong-key-value")
    assert status == 1
    assert "refuses the API key (401)" in checks["instance"].detail
    assert "wrong-key-value" not in report


async def test_an_unreachable_gateway_is_reported_once() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, not listening: connections are refused
        checks = await diagnose(load_settings({"NODE_ENV": "test", "GATEWAY_API_URL": f"http://127.0.0.1:{port}",
                                               "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": KEY,
                                               "GATEWAY_TIMEOUT_MS": "2000"}))
    [gateway_check] = [check for check in checks if check.name == "gateway"]
    assert gateway_check.verdict is Verdict.PROBLEM
    assert gateway_check.detail.startswith("no answer from the gateway (info: ClientConnectorError")
    assert exit_status(checks) == 1


async def test_a_gateway_slower_than_the_timeout_is_reported_unreachable(gateway: FakeGateway) -> None:
    gateway.hang_next(seconds=1.0, route="connectionState")
    status, checks, _ = await doctor(gateway, GATEWAY_TIMEOUT_MS="100")
    assert status == 1
    assert checks["instance"].detail == "no answer from the gateway (instance/connectionState: timed out)"


async def test_a_webhook_url_off_the_proxys_bot_route_is_a_problem(gateway: FakeGateway) -> None:
    status, checks, _ = await doctor(gateway, WEBHOOK_URL="https://bot.example.org/hooks/evolution")
    assert status == 1
    assert "not routed to the bot" in checks["WEBHOOK_URL"].detail


async def test_a_web_base_url_under_a_bot_route_is_flagged(gateway: FakeGateway) -> None:
    _, checks, _ = await doctor(gateway, WEB_BASE_URL="https://bot.example.org/metrics")
    assert checks["WEB_BASE_URL"].verdict is Verdict.WARN


async def test_gating_that_no_one_can_ever_open_is_a_problem(gateway: FakeGateway) -> None:
    status, checks, _ = await doctor(gateway, GROUP_GATING_MODE="enforce", ADMIN_USERS="")
    assert (status, set(problems(checks))) == (1, {"group gating"})
    assert "ADMIN_USERS" in checks["group gating"].fix


async def test_doctor_runs_as_a_process_prints_each_check_and_exits_non_zero_on_a_problem(
    gateway: FakeGateway, tmp_path: Path
) -> None:
    gateway.groups_ignore = True
    env = process_env(**env_for(gateway))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tasksvc_run", "doctor", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    text = out.decode()
    assert process.returncode == 1, (text, err.decode())
    assert "problem  groupsIgnore" in text
    assert "ok       connection" in text
    assert text.endswith("1 problem(s) keep the bot silent.\n")
    assert SECRET not in text + err.decode()
    assert KEY not in text + err.decode()


async def test_doctor_as_a_process_reports_invalid_configuration_one_line_each(tmp_path: Path) -> None:
    env = process_env(PORT="nope", TZ="Mars/Base")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tasksvc_run", "doctor", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    lines = [line for line in out.decode().splitlines() if line.startswith("problem")]
    assert process.returncode == 2
    assert [line.split()[2].rstrip(":") for line in lines] == ["PORT", "TZ"]


async def test_production_without_a_webhook_secret_is_a_problem_doctor_names(gateway: FakeGateway) -> None:
    code, checks, report = await doctor(gateway, WEBHOOK_SECRET="")
    assert code != 0
    assert "WEBHOOK_SECRET" in problems(checks)["configuration"]
    assert "WEBHOOK_AUTH=none" in report
