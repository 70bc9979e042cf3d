"""Properties of names typed instead of mentions (SPEC section 23): a member's own first name, in any case and with
or without its accents, always names them; a name no member has names no one; no one but members is ever named."""

from __future__ import annotations

import unicodedata

from hypothesis import assume, given
from hypothesis import strategies as st

from taskcore.names import match_members, name_keys, plain_name_tokens
from taskcore.words import key

LETTERS = st.characters(categories=["Lu", "Ll"], max_codepoint=0x24F)  # Latin, accented letters included
WORDS = st.text(LETTERS, min_size=1, max_size=8)
NAMES = st.lists(WORDS, min_size=1, max_size=3).map(" ".join) | st.none() | st.text(max_size=12)
MEMBERS = st.lists(st.tuples(st.integers(1, 30).map(str), NAMES), max_size=8)


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def same_letter(ch: str) -> list[str]:
    """``ch`` and its cases that fold back to it (not the Turkish ``ı`` to ``I``: folding makes that an ``i``)."""
    return [ch, *(case(ch) for case in (str.upper, str.lower) if key(case(ch)) == key(ch))]


@st.composite
def spelled(draw: st.DrawFn, word: str) -> str:
    """``word`` as someone may type it: any case, accents kept or dropped, ``@`` and a comma or not."""
    if draw(st.booleans()):
        word = strip_accents(word)
    word = "".join(draw(st.sampled_from(same_letter(ch))) for ch in word)
    return draw(st.sampled_from(["@", ""])) + word + draw(st.sampled_from(["", ",", ".", "!"]))


@given(MEMBERS, st.data())
def test_a_member_s_first_name_in_any_case_and_accents_names_them(members: list[tuple[str, str | None]],
                                                                   data: st.DataObject) -> None:
    named = [(user, name) for user, name in members if name and name.split() and name.split()[0].isalpha()]
    assume(named)
    user, name = data.draw(st.sampled_from(named))
    typed = data.draw(spelled(name.split()[0]))
    assume(key(typed.strip("@,.!")).isalpha())  # a letter whose case or accents change it into no letter
    assert user in match_members(typed, members)


@given(MEMBERS, WORDS)
def test_a_name_no_member_has_names_no_one(members: list[tuple[str, str | None]], word: str) -> None:
    # nobody's first name or whole name, nor a name of symbols written exactly (``@🌸🌸``: SPEC section 30)
    assume(all(key(word) not in name_keys(name) and key(name) != key(word.rstrip(",.;:!?"))
               for _, name in members if name is not None))
    assert match_members("@" + word, members) == []


@given(MEMBERS, st.text(max_size=20))
def test_only_members_are_named_each_once_in_members_order(members: list[tuple[str, str | None]], word: str) -> None:
    unique: dict[str, str | None] = {}
    for user, name in members:  # a group lists each member once
        unique.setdefault(user, name)
    members = list(unique.items())
    found = match_members(word, members)
    ids = [user for user, _ in members]
    assert len(found) == len(set(found))
    assert set(found) <= set(ids)
    assert found == sorted(found, key=ids.index)


@given(st.lists(st.tuples(WORDS | st.integers(0, 10**6).map(str), st.booleans(), st.booleans()), max_size=8))
def test_the_plain_names_are_the_at_and_letters_words_outside_quotes(pieces: list[tuple[str, bool, bool]]) -> None:
    text = " ".join(f'“@{word}”' if quoted else f"@{word}," if at else word for word, at, quoted in pieces)
    expected = [f"@{word}" for word, at, quoted in pieces if at and not quoted and word.isalpha()]
    assert plain_name_tokens(text) == [unicodedata.normalize("NFC", token) for token in expected]
