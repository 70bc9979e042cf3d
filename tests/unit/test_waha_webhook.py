"""A WAHA delivery's signature and de-duplication keys (contract section 2): the docs' test vector, a wrong or
missing signature, the request id and the envelope id."""

from __future__ import annotations

import pytest

from taskcore.gateway.waha import webhook

DOCS_BODY = b'{"event":"message","session":"default","engine":"WEBJS"}'
DOCS_KEY = "my-secret-key"
DOCS_HMAC = ("208f8a55dde9e05519e898b10b89bf0d0b3b0fdf11fdbf09b6b90476301b98d8097c462b2b17a6ce93b6b47a136cf2e78a3"
             "3a63f6752c2c1631777076153fa89")


def signed(body: bytes = DOCS_BODY, key: str = DOCS_KEY, **extra: str) -> dict[str, str]:
    return {"X-Webhook-Hmac": webhook.signature(body, key), "X-Webhook-Hmac-Algorithm": "sha512", **extra}


def test_the_docs_test_vector() -> None:
    assert webhook.signature(DOCS_BODY, DOCS_KEY) == DOCS_HMAC


def test_a_delivery_signed_with_the_key_is_accepted() -> None:
    assert webhook.signature_ok(DOCS_BODY, {"X-Webhook-Hmac": DOCS_HMAC, "X-Webhook-Hmac-Algorithm": "sha512"},
                                DOCS_KEY)


def test_header_names_and_the_hex_digits_case_do_not_matter() -> None:
    assert webhook.signature_ok(DOCS_BODY, {"x-webhook-hmac": DOCS_HMAC.upper(), "x-webhook-hmac-algorithm": "SHA512"},
                                DOCS_KEY)


def test_a_signature_without_the_algorithm_header_is_still_sha512() -> None:
    assert webhook.signature_ok(DOCS_BODY, {"X-Webhook-Hmac": DOCS_HMAC}, DOCS_KEY)


@pytest.mark.parametrize(("body", "headers"), [
    (DOCS_BODY, {}),
    (DOCS_BODY, {"X-Webhook-Hmac": ""}),
    (DOCS_BODY, {"X-Webhook-Hmac": DOCS_HMAC[:-1]}),
    (DOCS_BODY, {"X-Webhook-Hmac": "zz" + DOCS_HMAC[2:]}),
    (DOCS_BODY, {"X-Webhook-Hmac": "é" * 128}),
    (DOCS_BODY, signed(key="another-key")),
    (DOCS_BODY + b" ", {"X-Webhook-Hmac": DOCS_HMAC}),
    (b'{"event": "message","session":"default","engine":"WEBJS"}', {"X-Webhook-Hmac": DOCS_HMAC}),
    (DOCS_BODY, {"X-Webhook-Hmac": DOCS_HMAC, "X-Webhook-Hmac-Algorithm": "sha256"}),
    (DOCS_BODY, {"X-Webhook-Secret": DOCS_KEY}),
])
def test_a_wrong_or_missing_signature_is_refused(body: bytes, headers: dict[str, str]) -> None:
    assert not webhook.signature_ok(body, headers, DOCS_KEY)


def test_the_signature_covers_the_raw_bytes_not_the_json() -> None:
    reordered = b'{"session":"default","event":"message","engine":"WEBJS"}'
    assert not webhook.signature_ok(reordered, {"X-Webhook-Hmac": DOCS_HMAC}, DOCS_KEY)
    assert webhook.signature_ok(reordered, signed(reordered), DOCS_KEY)


def test_a_retried_delivery_is_one_event_by_its_envelope_id() -> None:
    payload = {"id": "evt_01k20q5e7r9t1y3u5i7o9p1a3s", "event": "message"}
    first = webhook.dedupe_key({"X-Webhook-Request-Id": "01AAA"}, payload)
    again = webhook.dedupe_key({"X-Webhook-Request-Id": "01BBB"}, payload)
    assert first == again == "event:evt_01k20q5e7r9t1y3u5i7o9p1a3s"


def test_without_an_envelope_id_the_request_id_keys_the_delivery() -> None:
    assert webhook.dedupe_key({"x-webhook-request-id": " 01k20q5e80b2n4m6q8w0e2r4t6 "}, {"event": "message"}) == (
        "request:01k20q5e80b2n4m6q8w0e2r4t6")
    assert webhook.request_id({"X-Webhook-Request-Id": "01k20q5e80b2n4m6q8w0e2r4t6"}) == "01k20q5e80b2n4m6q8w0e2r4t6"


@pytest.mark.parametrize(("headers", "payload"), [
    ({}, {}),
    ({"X-Webhook-Request-Id": ""}, {"id": 12}),
    ({"X-Webhook-Request-Id": "x" * 201}, {"id": "evt\n1"}),
])
def test_a_delivery_without_a_usable_id_has_no_key(headers: dict[str, str], payload: dict[str, object]) -> None:
    assert webhook.dedupe_key(headers, payload) is None
