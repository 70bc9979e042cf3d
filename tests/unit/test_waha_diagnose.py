"""What `tasksvc doctor` says of WAHA (SPEC section 36, "a doctor line"): the gateway in use, the release and engine
against the pin, the session, ignore.groups, the webhook and its HMAC key, and failed calls in WAHA's words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taskcore.gateway.diagnostics import Check, Verdict
from taskcore.gateway.port import WebhookPlan
from taskcore.gateway.waha.diagnose import (
    PINNED_VERSION,
    failed_call_check,
    ignore_check,
    session_check,
    version_check,
    webhook_checks,
)
from taskcore.settings import load_settings
from tasksvc_run.doctor import gateway_checks

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures/gateway/waha/outbound_session_get_response_200.json"
SECRET = "replace-with-random-secret"


def session() -> dict[str, Any]:
    loaded = json.loads(SAMPLE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


@pytest.mark.parametrize(("version", "engine", "verdict"), [
    (PINNED_VERSION, "GOWS", Verdict.OK), ("2026.7.2", "GOWS", Verdict.OK), ("2026.8.1", "GOWS", Verdict.WARN),
    ("2026.5.3", "GOWS", Verdict.WARN), (PINNED_VERSION, "WEBJS", Verdict.WARN), (None, None, Verdict.WARN),
])
def test_the_release_and_engine_are_judged_against_the_pin(version: str | None, engine: str | None,
                                                           verdict: Verdict) -> None:
    check = version_check({"version": version, "engine": engine})
    assert check.verdict is verdict
    assert check.verdict is Verdict.OK or f"devlikeapro/waha:gows-{PINNED_VERSION}" in check.fix


def test_only_a_working_session_is_connected_and_a_qr_code_says_how_to_pair() -> None:
    assert session_check(session()).verdict is Verdict.OK
    waiting = session_check({**session(), "status": "SCAN_QR_CODE"})
    assert waiting.verdict is Verdict.PROBLEM
    assert "dashboard" in waiting.fix


def test_groups_ignored_is_a_problem() -> None:
    config = session()["config"]
    assert ignore_check(config).verdict is Verdict.OK
    assert ignore_check({**config, "ignore": {"groups": True}}).verdict is Verdict.PROBLEM


def test_the_webhook_is_judged_against_webhook_url_and_the_hmac_key_never_shown() -> None:
    config = session()["config"]
    url = config["webhooks"][0]["url"]
    found = webhook_checks(config, WebhookPlan(url, SECRET))
    assert [check.verdict for check in found] == [Verdict.OK] * 3
    wrong = webhook_checks(config, WebhookPlan(url, "another-secret"))
    assert wrong[-1].verdict is Verdict.PROBLEM
    assert all(SECRET not in f"{check.detail} {check.fix}" for check in [*found, *wrong])
    assert webhook_checks(config, WebhookPlan("http://tasksvc:3000/webhook", SECRET))[0].verdict is Verdict.PROBLEM


def test_a_failed_call_is_told_in_waha_s_words() -> None:
    unknown = failed_call_check("session", 404, "Session not found", session="taskbot")
    assert unknown.detail == 'WAHA has no session "taskbot" (404)'
    assert "WHATSAPP_START_SESSION" in unknown.fix
    assert "WAHA_API_KEY" in failed_call_check("gateway", 401, "Unauthorized", session="taskbot").fix
    assert failed_call_check("session", 500, "boom", session="taskbot").detail == "the gateway answered 500 (boom)"
    assert failed_call_check("gateway", None, "refused", session="taskbot").verdict is Verdict.PROBLEM


class Named:
    """A gateway as the doctor sees it: its name and its own checks."""

    name = "waha"

    async def checks(self, plan: WebhookPlan) -> list[Check]:
        return [version_check({"version": PINNED_VERSION, "engine": "GOWS"})]


async def test_the_doctor_names_the_gateway_in_use_and_where() -> None:
    settings = load_settings({"NODE_ENV": "test", "GATEWAY_KIND": "waha", "GATEWAY_API_URL": "http://waha:3000",
                              "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": "k"})
    named, version = await gateway_checks(Named(), settings)  # type: ignore[arg-type]
    assert (named.name, named.verdict, named.detail) == ("gateway kind", Verdict.OK,
                                                         "waha (GATEWAY_KIND) at http://waha:3000")
    assert version.detail == f"WAHA {PINNED_VERSION} (GOWS)"
