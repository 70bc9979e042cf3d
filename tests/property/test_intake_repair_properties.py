"""Text UTF-8 cannot encode is repaired at intake (SPEC section 28): whatever JSON arrives, the parser never raises
and every text it returns encodes as UTF-8, so no event fails later because of its content."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.text import REPLACEMENT, repaired, repaired_text
from tests.builders import wa_envelope, wa_text
from tests.strategies import odd_json, odd_texts

MANY = settings(max_examples=300, deadline=None)
GROUP = "120363300000000010@g.us"


def texts_in(value: Any) -> list[str]:
    """Every string reachable from a parsed event (dataclass fields, tuples, dicts, keys included)."""
    found: list[str] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.append(node)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            stack.extend(getattr(node, f.name) for f in dataclasses.fields(node))
        elif isinstance(node, dict):
            stack.extend([*node, *node.values()])
        elif isinstance(node, list | tuple):
            stack.extend(node)
    return found


def assert_encodes(event: object) -> None:
    for text in texts_in(event):
        text.encode("utf-8")  # raises on a lone surrogate


@st.composite
def odd_gateway_events(draw: st.DrawFn) -> dict[str, Any]:
    """Well-formed gateway events whose every text field may hold lone surrogates: a message (text, pushName,
    mentions), a group's subject and participants, a participants update."""
    text, name = draw(odd_texts), draw(odd_texts)
    kind = draw(st.sampled_from(["message", "command", "groups", "participants"]))
    if kind in ("message", "command"):
        body = f"/t nueva {text}" if kind == "command" else text
        return wa_text(body, push_name=name, mentioned=(f"34600{draw(odd_texts)}@s.whatsapp.net",))
    if kind == "groups":
        return wa_envelope("groups.upsert", [{"id": GROUP, "subject": name, "participants": [
            {"id": "34600111111@s.whatsapp.net", "admin": draw(odd_texts)}, {"id": f"{text}@lid"}]}])
    return wa_envelope("group-participants.update", {"id": GROUP, "action": text,
                                                      "participants": [f"{name}@s.whatsapp.net"]})


@MANY
@given(payload=odd_json | odd_gateway_events(), path_event=st.none() | odd_texts)
def test_the_parser_never_raises_and_every_text_it_returns_encodes(payload: Any, path_event: str | None) -> None:
    if isinstance(payload, dict):
        assert_encodes(parse_event(payload, path_event=path_event))


@MANY
@given(payload=odd_gateway_events())
def test_an_event_as_the_gateway_sends_it_escaped_in_json_parses_to_text_that_encodes(payload: dict[str, Any]) -> None:
    decoded = json.loads(json.dumps(payload))  # "\ud83d" escaped, as on the wire
    assert_encodes(parse_event(decoded))


@MANY
@given(text=odd_texts)
def test_repair_replaces_each_unencodable_code_point_by_u_fffd_and_keeps_the_rest(text: str) -> None:
    fixed = repaired_text(text)
    assert len(fixed) == len(text)
    for before, after in zip(text, fixed, strict=True):
        assert after == (REPLACEMENT if 0xD800 <= ord(before) <= 0xDFFF else before)
    fixed.encode("utf-8")


@MANY
@given(value=odd_json)
def test_a_repaired_payload_encodes_and_the_input_is_left_as_it_was(value: Any) -> None:
    before = json.dumps(value)
    fixed = repaired(value)
    json.dumps(fixed, ensure_ascii=False).encode("utf-8")
    assert json.dumps(value) == before


@MANY
@given(value=odd_json)
def test_a_payload_with_nothing_to_repair_is_returned_as_it_is(value: Any) -> None:
    clean = repaired(value)
    assert repaired(clean) is clean


def test_a_cut_emoji_in_a_name_and_in_a_command_becomes_u_fffd() -> None:
    event = parse_event(json.loads(json.dumps(wa_text("/t nueva pan \ud83d", push_name="Ana \ud83d"))))
    assert (event.push_name, event.text) == ("Ana \ufffd", "/t nueva pan \ufffd")  # type: ignore[union-attr]
