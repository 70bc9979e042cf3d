"""Hypothesis strategies shared by several property modules (STYLE habit 10)."""

from __future__ import annotations

from hypothesis import strategies as st

LONE_SURROGATES = st.characters(categories=["Cs"])
"""A code point UTF-8 cannot encode: half of a UTF-16 pair, as JSON's ``\\ud83d`` escape decodes to."""

odd_texts = st.text(st.characters(exclude_categories=()) | LONE_SURROGATES, max_size=30) | st.builds(
    lambda head, cut, tail: head + cut + tail, st.text(max_size=10), LONE_SURROGATES, st.text(max_size=10))
"""Any text, lone surrogates included and often present (an emoji cut in half in a name or a message)."""

odd_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | odd_texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_texts, inner, max_size=5), max_leaves=25)
"""Any JSON value whose strings (keys included) may hold lone surrogates."""
