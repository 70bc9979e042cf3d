"""Pure outbound rules: retry backoff, gateway error classification, reaction emoji classes (SPEC section 9)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from taskcore.queue_rules import (
    FailureKind,
    classify_gateway_error,
    emoji_class,
    gateway_error_text,
    gives_up,
    retry_delay,
    truncate_error,
)

ERROR_SAMPLES = Path(__file__).parents[2] / "fixtures" / "gateway" / "outbound_error_responses.json"
BASE_MS, MAX_MS = 1000, 300_000

# n-th retry: min(300000, 1000 * 2^(n-1)) ms before jitter
UNJITTERED_MS = [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000]
RETRIES = list(enumerate(UNJITTERED_MS, start=1))


def delay(attempt: int, jitter: float = 0.0, *, base_ms: int = BASE_MS, max_ms: int = MAX_MS) -> timedelta:
    return retry_delay(attempt, base_ms=base_ms, max_ms=max_ms, jitter=jitter)


def load_error_samples() -> dict[str, Any]:
    samples: dict[str, Any] = json.loads(ERROR_SAMPLES.read_text(encoding="utf-8"))
    return samples


# --- retry_delay ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("attempt", "expected_ms"), RETRIES)
def test_each_retry_doubles_the_wait_until_the_cap(attempt: int, expected_ms: int) -> None:
    assert delay(attempt) == timedelta(milliseconds=expected_ms)


@pytest.mark.parametrize(("attempt", "expected_ms"), RETRIES)
def test_a_jitter_of_minus_twenty_percent_shortens_the_wait_by_a_fifth(attempt: int, expected_ms: int) -> None:
    assert delay(attempt, -0.2) == timedelta(milliseconds=expected_ms * 0.8)


@pytest.mark.parametrize(("attempt", "expected_ms"), RETRIES)
def test_a_jitter_of_plus_twenty_percent_lengthens_the_wait_by_a_fifth(attempt: int, expected_ms: int) -> None:
    assert delay(attempt, 0.2) == timedelta(milliseconds=expected_ms * 1.2)


def test_the_cap_is_applied_before_the_jitter() -> None:
    assert delay(10, 0.2) == timedelta(seconds=360)
    assert delay(10, -0.2) == timedelta(seconds=240)


def test_a_very_late_retry_still_waits_the_capped_time() -> None:
    assert delay(10_000) == timedelta(milliseconds=MAX_MS)


def test_the_cap_follows_the_configured_maximum() -> None:
    assert delay(4, base_ms=500, max_ms=3000) == timedelta(seconds=3)
    assert delay(3, base_ms=500, max_ms=3000) == timedelta(seconds=2)


@pytest.mark.parametrize("attempt", [0, -1])
def test_retries_are_numbered_from_one(attempt: int) -> None:
    with pytest.raises(ValueError, match="numbered from 1"):
        delay(attempt)


@pytest.mark.parametrize("jitter", [-0.21, 0.25, 1.0])
def test_a_jitter_beyond_twenty_percent_is_refused(jitter: float) -> None:
    with pytest.raises(ValueError, match="jitter"):
        delay(1, jitter)


# --- classify_gateway_error ----------------------------------------------------------------------


EXPECTED_KIND = {
    "unknown_instance_404": FailureKind.PERMANENT,
    "missing_or_wrong_apikey_401": FailureKind.PERMANENT,
    "body_schema_violation_400": FailureKind.PERMANENT,
    "group_route_missing_groupJid_400": FailureKind.PERMANENT,
    "fetchAllGroups_missing_getParticipants_400": FailureKind.PERMANENT,
    "number_not_on_whatsapp_400": FailureKind.PERMANENT,
    "send_failed_socket_closed_400": FailureKind.RETRY,
    "send_failed_whatsapp_rate_limit_400_derived": FailureKind.RETRY,
    "send_to_group_metadata_unavailable_400": FailureKind.PERMANENT,
    "findGroupInfos_failed_404": FailureKind.PERMANENT,
    "unhandled_error_500": FailureKind.RETRY,
    "unknown_route_404": FailureKind.PERMANENT,
}


def test_every_error_sample_has_an_expected_classification() -> None:
    assert set(load_error_samples()) == set(EXPECTED_KIND)


@pytest.mark.parametrize(("name", "kind"), sorted(EXPECTED_KIND.items()))
def test_each_gateway_error_sample_is_classified(name: str, kind: FailureKind) -> None:
    body = load_error_samples()[name]
    assert classify_gateway_error(body["status"], gateway_error_text(body)) is kind


def test_a_timeout_or_connection_error_without_status_is_retried() -> None:
    assert classify_gateway_error(None, "") is FailureKind.RETRY
    assert classify_gateway_error(None, "TimeoutError") is FailureKind.RETRY


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_any_server_error_is_retried_whatever_its_text(status: int) -> None:
    assert classify_gateway_error(status, '{"code":"LICENSE_REQUIRED"}') is FailureKind.RETRY


@pytest.mark.parametrize("text", ["error: CONNECTION CLOSED", "Rate-OverLimit", "x rate-overlimit y"])
def test_the_retryable_markers_are_found_in_any_case(text: str) -> None:
    assert classify_gateway_error(400, text) is FailureKind.RETRY


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_client_errors_are_permanent(status: int) -> None:
    assert classify_gateway_error(status, "Bad Request") is FailureKind.PERMANENT


def test_error_text_joins_the_message_list_and_writes_objects_as_json() -> None:
    body = {"status": 400, "response": {"message": ["a", {"jid": "1@s.whatsapp.net", "exists": False}]}}
    assert gateway_error_text(body) == 'a; {"jid": "1@s.whatsapp.net", "exists": false}'


def test_error_text_of_a_plain_string_message_is_that_string() -> None:
    assert gateway_error_text({"response": {"message": "Unauthorized"}}) == "Unauthorized"


def test_error_text_of_an_unexpected_body_is_the_body_itself() -> None:
    assert gateway_error_text("Bad Gateway") == "Bad Gateway"
    assert gateway_error_text({"code": "LICENSE_REQUIRED"}) == '{"code": "LICENSE_REQUIRED"}'


# --- giving up -----------------------------------------------------------------------------------


def test_a_retryable_failure_with_attempts_left_is_retried() -> None:
    assert not gives_up(FailureKind.RETRY, attempts=5, max_attempts=6)


def test_a_retryable_failure_on_the_last_attempt_gives_up() -> None:
    assert gives_up(FailureKind.RETRY, attempts=6, max_attempts=6)


def test_a_permanent_failure_gives_up_at_once() -> None:
    assert gives_up(FailureKind.PERMANENT, attempts=1, max_attempts=6)


def test_stored_errors_are_cut_to_500_characters() -> None:
    assert truncate_error("x" * 501) == "x" * 500
    assert truncate_error("short") == "short"


# --- emoji_class ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("emoji", "label"),
    [("🤖", "robot"), ("⚠️", "warn"), ("⚠", "warn"), ("✅", "check"), ("👍", "other"), ("", "other"), ("✔️", "other")],
)
def test_reaction_emoji_map_to_metric_labels(emoji: str, label: str) -> None:
    assert emoji_class(emoji) == label
