"""Which replies and reactions act on a task (SPEC section 18): the pure classification taskcore exports."""

from __future__ import annotations

import pytest

import taskcore
from taskcore import ConversationAction, classify_reaction_emoji, classify_reply_word

COMPLETE, CLAIM = ConversationAction.COMPLETE, ConversationAction.CLAIM


@pytest.mark.parametrize(("text", "action"), [
    ("x", COMPLETE), ("X", COMPLETE), ("hecho", COMPLETE), ("  Hecho ", COMPLETE), ("LISTO", COMPLETE),
    ("✅", COMPLETE), ("✅\ufe0f", COMPLETE), ("yo", CLAIM), ("Yo\n", CLAIM), ("tomo", CLAIM), ("TOMO", CLAIM),
    ("✋", CLAIM), ("✋🏽", CLAIM),
    # SPEC section 30: the lexicons' phrases, with the punctuation and emoji around them
    ("listo!", COMPLETE), ("¡Listo!", COMPLETE), ("Done.", COMPLETE), ("Feito!", COMPLETE), ("Ya está", COMPLETE),
    ("terminado 🎉", COMPLETE), ("concluído", COMPLETE), ("finished", COMPLETE), ("Did it!", COMPLETE),
    ("me lo quedo", CLAIM), ("Lo hago yo.", CLAIM), ("yo mero", CLAIM), ("pego", CLAIM), ("Deixa comigo!", CLAIM),
    ("eu faço", CLAIM), ("on it", CLAIM), ("I'll do it", CLAIM), ("I’ll do it!", CLAIM), ("me", CLAIM),
    # SPEC section 39: more phrases, and a phrase followed only by politeness, emoji or punctuation
    ("ya quedó", COMPLETE), ("Ya está hecho", COMPLETE), ("terminé", COMPLETE), ("tá feito", COMPLETE),
    ("Fiz!", COMPLETE), ("all done", COMPLETE), ("Sorted 👍", COMPLETE), ("finished it", COMPLETE),
    ("Done, cheers!", COMPLETE), ("listo gracias", COMPLETE), ("Listo, muchas gracias 🙏", COMPLETE),
    ("Feito, valeu!", COMPLETE), ("tá feito obrigada gente", COMPLETE), ("All done, thank you!", COMPLETE),
    ("Yo, gracias", CLAIM), ("on it, thanks", CLAIM), ("I'll do it, cheers mate", CLAIM), ("eu, valeu", CLAIM),
])
def test_a_whole_message_reply_word_says_what_it_does(text: str, action: ConversationAction) -> None:
    assert classify_reply_word(text) is action


@pytest.mark.parametrize("text", [
    "", " ", "hecho ya", "listo ya", "hecho, pero mañana", "yo no", "done already", "on it later", "¿listo?x",
    "👍", "✔️", "🙋", "xx", "/t x", "h e c h o",
    "hecho" * 200,
])
def test_any_other_reply_is_ordinary_chat(text: str) -> None:
    assert classify_reply_word(text) is None


@pytest.mark.parametrize(("emoji", "action"), [
    ("✅", COMPLETE), ("✔️", COMPLETE), ("✔", COMPLETE), ("☑️", COMPLETE), ("☑", COMPLETE),
    ("✋", CLAIM), ("✋🏻", CLAIM), ("✋🏿", CLAIM), ("🙋", CLAIM), ("🙋‍♀️", CLAIM), ("🙋🏽‍♂️", CLAIM),
])
def test_the_acting_reactions_complete_or_claim(emoji: str, action: ConversationAction) -> None:
    assert classify_reaction_emoji(emoji) is action


@pytest.mark.parametrize("emoji", ["", "👍", "❤️", "😂", "✅✅", "x", "hecho", "🙋‍♀️" * 10])
def test_a_removed_reaction_and_other_emoji_do_nothing(emoji: str) -> None:
    assert classify_reaction_emoji(emoji) is None


def test_the_classification_is_part_of_the_public_api() -> None:
    assert {"ConversationAction", "classify_reply_word", "classify_reaction_emoji"} <= set(taskcore.__all__)
    assert classify_reply_word.__doc__
    assert classify_reaction_emoji.__doc__
