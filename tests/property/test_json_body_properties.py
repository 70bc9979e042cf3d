"""API bodies are written by orjson: byte for byte what compact ``json.dumps(ensure_ascii=False)`` would write."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tasksvc_run.web.api import ok

# What the renderers put in a body: text (any character a database can hold), 64-bit integers, booleans, null.
_text = st.text(st.characters(exclude_categories=("Cs",)))
_scalars = st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | _text
_bodies = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
                       max_leaves=20)


@given(body=st.dictionaries(_text, _bodies, max_size=6))
def test_an_api_body_is_the_compact_utf8_json_the_standard_library_writes(body: dict[str, Any]) -> None:
    expected = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    response = ok(body)
    assert response.body == expected
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
