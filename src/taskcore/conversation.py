"""Acting from the conversation (SPEC section 18): which replies and which reactions are commands, pure.

A reply to a message linked to a task, or a reaction to one, acts on that task when it says one of a few words or
emoji. These functions only classify; finding the task and acting on it is the chat's job (``taskcore.chat``).

Emoji are compared after removing what keyboards add around the same symbol: variation selectors (U+FE0E, U+FE0F),
skin-tone modifiers (U+1F3FB-U+1F3FF) and a trailing gender sign joined by U+200D (``🙋‍♀️`` is ``🙋``).
"""

from __future__ import annotations

import re
from enum import StrEnum

from taskcore.words import meaning, plain


class ConversationAction(StrEnum):
    """What a reply word or a reaction asks for: complete the task, or claim it."""

    COMPLETE = "complete"
    CLAIM = "claim"



REACTION_EMOJI: dict[str, ConversationAction] = {
    "✅": ConversationAction.COMPLETE,
    "✔": ConversationAction.COMPLETE,
    "☑": ConversationAction.COMPLETE,
    "✋": ConversationAction.CLAIM,
    "🙋": ConversationAction.CLAIM,
}
"""The reactions that act (compared without variation selectors, skin tones or gender signs) and what each does."""

_DECORATION = re.compile("[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]|\u200d[\u2640\u2642]")
_LONGEST = 256  # no reply phrase is long: a longer text is chat, decided without reading it


def bare_emoji(text: str) -> str:
    """The emoji without variation selectors, skin-tone modifiers or a joined gender sign; spaces trimmed."""
    return _DECORATION.sub("", text.strip())


def classify_reply_word(text: str) -> ConversationAction | None:
    """What a reply's whole text asks for (``hecho``, ``¡Listo!``, ``Done.``, ``me lo quedo``, ``✅``, ``✋``...: the
    lexicons' ``reply`` phrases, SPEC section 30), or None for any other text.

    Any case, accents optional, the punctuation and emoji around it ignored; the phrase must be the whole message
    (``hecho ya`` is chat)."""
    if len(text) > _LONGEST:
        return None
    said = meaning("reply", plain(bare_emoji(text)))
    return None if said is None else ConversationAction(said)


def classify_reaction_emoji(emoji: str) -> ConversationAction | None:
    """What a reaction asks for: ✅ ✔️ ☑️ complete, ✋ 🙋 claim; None for any other emoji and for ``""`` (removed)."""
    if len(emoji) > 16:
        return None
    return REACTION_EMOJI.get(bare_emoji(emoji))
