"""Sanitising of descriptions to plain text (SPEC section 15)."""

import pytest

from taskcore import InvalidDescription, sanitize_description


def test_tags_are_replaced_by_a_space_and_their_text_kept() -> None:
    assert sanitize_description("<b>Comprar</b>pan") == "Comprar pan"


def test_script_tags_lose_the_markup_but_keep_the_text() -> None:
    assert sanitize_description("<script>alert(1)</script>") == "alert(1)"


def test_comments_and_doctype_count_as_tags() -> None:
    assert sanitize_description("a<!-- x -->b<!DOCTYPE html>c") == "a b c"


def test_a_less_than_sign_before_a_space_is_not_a_tag() -> None:
    assert sanitize_description("a < b > c") == "a < b > c"


def test_an_unclosed_tag_is_left_as_typed() -> None:
    assert sanitize_description("x <b y") == "x <b y"


def test_entities_are_left_as_typed() -> None:
    assert sanitize_description("Tom &amp; Jerry &lt;3") == "Tom &amp; Jerry &lt;3"


def test_every_whitespace_run_collapses_to_one_space() -> None:
    assert sanitize_description(" a\t\tb\r\n c\u00a0\u2003d\u2028e ") == "a b c d e"


@pytest.mark.parametrize("invisible", ["\u200b", "\u200d", "\ufeff", "\u202e", "\u2066", "\x00", "\x07", "\x7f"])
def test_control_zero_width_and_bidi_characters_are_removed(invisible: str) -> None:
    assert sanitize_description(f"ab{invisible}c") == "abc"


def test_removing_an_invisible_character_cannot_smuggle_in_a_tag() -> None:
    assert sanitize_description("<\u200bb>x") == "x"


def test_emoji_and_accents_are_kept() -> None:
    assert sanitize_description("Reunión 🍕 ñandú") == "Reunión 🍕 ñandú"


@pytest.mark.parametrize("text", ["", "   ", "<br>", "\u200b\n\t"])
def test_a_description_that_ends_up_empty_is_rejected(text: str) -> None:
    with pytest.raises(InvalidDescription):
        sanitize_description(text)


def test_exactly_1000_characters_are_accepted() -> None:
    assert len(sanitize_description("x" * 1000)) == 1000


def test_more_than_1000_characters_after_sanitising_are_rejected() -> None:
    with pytest.raises(InvalidDescription) as info:
        sanitize_description("x" * 1001)
    assert info.value.field == "description"


def test_length_is_judged_after_collapsing_whitespace() -> None:
    assert len(sanitize_description("a" + " " * 5000 + "b")) == 3


def test_sanitising_twice_changes_nothing() -> None:
    once = sanitize_description("<i> hola </i>\n\nmundo <x")
    assert sanitize_description(once) == once
