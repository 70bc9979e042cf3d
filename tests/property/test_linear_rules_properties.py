"""The linear-time scanners (SPEC section 16) do exactly what the regular expressions and loops they replaced did on
ordinary text, so SPEC section 15's ``sanitize_description`` contract is unchanged."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from taskcore import InvalidDescription, sanitize_description
from taskcore.chat import grammar as heads
from taskcore.text import MAX_DESCRIPTION, _drop_invisible, strip_tags

# The rules as they were before the scanners (quadratic on hostile input, fine on these short texts).
OLD_TAG = re.compile(r"<[A-Za-z/!][^>]*>")
OLD_WHITESPACE_RUN = re.compile(r"\s+")
OLD_MENTION = re.compile(r"@([0-9]+)")


def old_sanitize(text: str) -> str:
    cleaned = OLD_WHITESPACE_RUN.sub(" ", OLD_TAG.sub(" ", _drop_invisible(text))).strip()
    if not cleaned or len(cleaned) > MAX_DESCRIPTION:
        raise InvalidDescription("rejected", field="description")
    return cleaned


def old_head(text: str) -> tuple[str, str]:
    def split_first(rest: str) -> tuple[str, str]:
        parts = rest.split(maxsplit=1)
        return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")

    head, rest = split_first(text)
    while OLD_MENTION.fullmatch(head):
        head, rest = split_first(rest)
    return head, rest


# Text dense in what the rules look at: angle brackets, tag starts, mentions, digits, many kinds of space.
MARKUP = st.text(alphabet=st.sampled_from(list("<>/!@aZ19 é-\"\t\n\u00a0\u2003\u200b\x00")) | st.characters(),
                 max_size=300)


@given(MARKUP)
@example("a < b > c")
@example("<a<b>c>")
@example("x <b y")
@example("<\u200bb>x")
@example("<>")
@example("<<a>>")
@example("a<")
def test_stripping_tags_equals_the_old_pattern(text: str) -> None:
    assert strip_tags(text) == OLD_TAG.sub(" ", text)


@given(MARKUP)
def test_sanitize_description_equals_the_old_behaviour(text: str) -> None:
    try:
        expected: str | None = old_sanitize(text)
    except InvalidDescription:
        expected = None
    try:
        got: str | None = sanitize_description(text)
    except InvalidDescription:
        got = None
    assert got == expected


@given(MARKUP)
@example("@1 @22 /t ver")
@example("@ /t")
@example("@12x /t")
@example("  @1\u2003@2\n/tarea nueva x")
@example("@١٢ /t")
def test_the_first_word_after_leading_mentions_is_the_one_found_before(text: str) -> None:
    assert heads.head(text) == old_head(text)
