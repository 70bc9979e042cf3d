"""Names typed instead of mentions (SPEC section 23): which ``@Name`` words a message holds, and whom they name."""

from __future__ import annotations

import pytest

from taskcore.names import match_members, name_keys, plain_name_tokens

MEMBERS = [
    ("346001", "Ana María López"),
    ("346002", "José"),
    ("346003", "ana"),
    ("346004", None),
    ("346005", "Zoë 🌸"),
    ("346006", "María-José Pérez"),
]


@pytest.mark.parametrize(("word", "ids"), [
    ("@Ana", ["346001", "346003"]),
    ("@ANA,", ["346001", "346003"]),
    ("@jose", ["346002"]),
    ("@José.", ["346002"]),
    ("@Jose\u0301", ["346002"]),
    ("@AnaMariaLopez", ["346001"]),
    ("@zoe", ["346005"]),
    ("@MariaJose", ["346006"]),
    ("José", ["346002"]),
])
def test_a_typed_name_is_a_member_s_whole_first_name_or_whole_name(word: str, ids: list[str]) -> None:
    assert match_members(word, MEMBERS) == ids


@pytest.mark.parametrize("word", ["@An", "@María", "@Lopez", "@Pedro", "@Jose2", "@346002", "@", "", "@Ana María"])
def test_a_part_of_a_name_a_name_no_one_has_or_not_letters_names_no_one(word: str) -> None:
    assert match_members(word, MEMBERS) == []


def test_a_member_listed_twice_is_returned_once() -> None:
    assert match_members("@jose", [("1", "José"), ("2", "Ana"), ("1", "Jose")]) == ["1"]


def test_the_keys_of_a_name_are_its_first_word_and_its_words_joined() -> None:
    assert name_keys("Ana María López") == {"ana", "anamarialopez"}
    assert name_keys("🌸") == frozenset()
    assert name_keys("") == frozenset()


def test_plain_names_are_found_and_real_mentions_are_not() -> None:
    assert plain_name_tokens("/t nueva comprar pan @Ana @346001 @José, y @Luis.") == ["@Ana", "@José", "@Luis"]


@pytest.mark.parametrize("text", [
    "ana@example.com", "@Ana2", "@Ana_b", "@@Ana", "@Ana-María", "@", "@ 346001", "sin nombres",
])
def test_what_is_not_at_and_letters_as_a_whole_word_is_no_plain_name(text: str) -> None:
    assert plain_name_tokens(text) == []


def test_text_between_double_quotes_stays_literal() -> None:
    assert plain_name_tokens('"escribir a @Ana" @Luis “para @Pepe” @Eva') == ["@Luis", "@Eva"]


def test_a_quote_left_open_runs_to_the_end() -> None:
    assert plain_name_tokens('@Luis "escribir a @Ana') == ["@Luis"]


def test_decomposed_accents_are_read_composed() -> None:
    assert plain_name_tokens("@Jose\u0301 ya") == ["@José"]
