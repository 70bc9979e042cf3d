"""SPEC section 30: every reply phrase of the lexicons, with any surrounding punctuation or emoji and in any case,
means the same; and every weekday and month word of every language reads as its day or month."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from taskcore.conversation import ConversationAction, classify_reply_word
from taskcore.words import TABLES, lookup
from taskcore.words.read import month, weekday

REPLY_PHRASES = sorted((word, name.partition(".")[2]) for table in TABLES.values() for name, words in table.items()
                       if name.startswith("reply.") for word in words if word.isascii() or word[0].isalpha())
AROUND = st.text(alphabet="¡!¿?.,;:«»\"'()… 🎉👍🙂", max_size=4)


def cased(text: str, pattern: list[bool]) -> str:
    upper = (pattern + [False] * len(text))[:len(text)]
    return "".join(ch.upper() if up else ch.lower() for ch, up in zip(text, upper, strict=True))


@given(st.sampled_from(REPLY_PHRASES), AROUND, AROUND, st.lists(st.booleans(), max_size=20))
def test_a_reply_phrase_means_the_same_whatever_surrounds_it(phrase: tuple[str, str], before: str, after: str,
                                                            upper: list[bool]) -> None:
    word, action = phrase
    assert classify_reply_word(f"{before}{cased(word, upper)}{after}") is ConversationAction(action)


@given(st.sampled_from(sorted(lookup("weekday").items())), st.lists(st.booleans(), max_size=20))
def test_every_weekday_word_reads_as_its_day(item: tuple[str, str], upper: list[bool]) -> None:
    word, day = item
    assert weekday(cased(word, upper)) == int(day)


@given(st.sampled_from(sorted({**lookup("month"), **lookup("month_short")}.items())), st.sampled_from([".", ",", ""]))
def test_every_month_word_reads_as_its_month(item: tuple[str, str], after: str) -> None:
    word, number = item
    assert month(word.upper() + after) == int(number)
