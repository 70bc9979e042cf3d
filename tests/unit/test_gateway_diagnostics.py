"""The doctor's pure judges: versions, URLs, the webhook row and the secret, never echoing a secret."""

from __future__ import annotations

import pytest

from taskcore.gateway.diagnostics import Verdict, gateway_settings_check, web_base_url_check, webhook_url_check
from taskcore.gateway.evolution.diagnose import failed_call_check, version_check, webhook_checks

EVENTS = ("MESSAGES_UPSERT", "GROUPS_UPSERT")


@pytest.mark.parametrize(("version", "verdict"), [
    ("2.3.7", Verdict.OK), ("v2.3.6", Verdict.OK), ("2.4.0-rc2", Verdict.PROBLEM), ("2.4.0", Verdict.PROBLEM),
    ("3.0.0", Verdict.PROBLEM), ("2.2.3", Verdict.WARN), ("1.8.2", Verdict.WARN), ("latest", Verdict.WARN),
])
def test_versions_from_2_4_on_are_problems_and_older_than_2_3_are_warnings(version: str, verdict: Verdict) -> None:
    assert version_check({"status": 200, "version": version}).verdict is verdict


def test_an_answer_without_a_version_is_a_warning() -> None:
    assert version_check({"status": 200}).verdict is version_check(None).verdict is Verdict.WARN


def test_a_licence_answer_is_named_before_the_status_code() -> None:
    check = failed_call_check("instance", 503, '{"code": "LICENSE_REQUIRED"}', instance="taskbot")
    assert "LICENSE_REQUIRED" in check.detail
    assert failed_call_check("instance", 503, "Service Unavailable", instance="taskbot").detail == (
        "the gateway answered 503 (Service Unavailable)")


@pytest.mark.parametrize("url", ["evo:8080", "/relative", "ftp://evo.example.org"])
def test_a_gateway_url_that_is_not_absolute_http_is_a_problem(url: str) -> None:
    assert gateway_settings_check(url, "taskbot", True).verdict is Verdict.PROBLEM


@pytest.mark.parametrize(("url", "verdict"), [
    ("https://bot.example.org/webhook", Verdict.OK), ("https://bot.example.org/webhook/", Verdict.OK),
    ("http://tasksvc:3000/webhook/messages-upsert", Verdict.OK), ("https://bot.example.org/", Verdict.PROBLEM),
    ("https://bot.example.org/webhooks", Verdict.PROBLEM), ("bot.example.org/webhook", Verdict.PROBLEM),
])
def test_the_webhook_url_must_be_absolute_and_routed_to_the_bot(url: str, verdict: Verdict) -> None:
    assert webhook_url_check(url, "http://evolution-api:8080").verdict is verdict


def test_a_loopback_webhook_url_for_a_remote_gateway_is_a_warning() -> None:
    assert webhook_url_check("http://127.0.0.1:3000/webhook", "https://evo.example.org").verdict is Verdict.WARN
    assert webhook_url_check("http://127.0.0.1:3000/webhook", "http://127.0.0.1:8080").verdict is Verdict.OK


@pytest.mark.parametrize(("url", "verdict"), [
    ("https://tareas.example.org", Verdict.OK), ("https://x.example.org/metrics", Verdict.WARN),
    ("https://x.example.org/webhook/app", Verdict.WARN), ("x.example.org", Verdict.PROBLEM),
])
def test_the_web_base_url_must_be_absolute_and_not_a_bot_route(url: str, verdict: Verdict) -> None:
    assert web_base_url_check(url).verdict is verdict


def test_shown_urls_drop_user_info_and_query() -> None:
    check = webhook_url_check("https://user:pw@bot.example.org/webhook?token=t0k", None)
    assert check.detail == "https://bot.example.org/webhook is routed to the bot"


def test_the_secret_header_name_is_matched_in_any_case_and_the_value_never_shown() -> None:
    row = {"url": "https://b/webhook", "enabled": True, "events": list(EVENTS), "headers": {"x-webhook-secret": "s1"}}
    checks = webhook_checks(row, expected_url="https://b/webhook", secret="s1", events=EVENTS)
    assert [c.verdict for c in checks] == [Verdict.OK] * 4
    [_, _, _, secret] = webhook_checks(row, expected_url="https://b/webhook", secret="s2", events=EVENTS)
    assert secret.verdict is Verdict.PROBLEM
    assert "s1" not in secret.detail + secret.fix
    assert "s2" not in secret.detail + secret.fix


def test_without_webhook_url_a_stored_webhook_on_the_bot_route_passes() -> None:
    row = {"url": "https://b/webhook", "enabled": True, "events": [], "headers": {}}
    [url, *_] = webhook_checks(row, expected_url=None, secret=None, events=EVENTS)
    assert url.verdict is Verdict.OK
