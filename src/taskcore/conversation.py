"""Acting from the conversation (SPEC section 18): which replies and which reactions are commands, pure.

A reply to a message linked to a task, or a reaction to one, acts on that task when it says one of a few words or
emoji. These functions only classify; finding the task and acting on it is the chat's job (``taskcore.chat``).

Words and emoji are the lexicons' (``reply`` and ``reaction``: ``taskcore/words``), compared as they compare words:
emoji without what keyboards add around the same symbol (variation selectors, skin tones, a joined gender sign:
``🙋‍♀️`` is ``🙋``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from taskcore.words import key, lookup, meaning, phrase_lengths, plain


class ConversationAction(StrEnum):
    """What a reply word or a reaction asks for: complete the task, or claim it."""

    COMPLETE = "complete"
    CLAIM = "claim"


_LONGEST = 256  # no reply phrase is long: a longer text is chat, decided without reading it


def classify_reply_word(text: str) -> ConversationAction | None:
    """What a reply's text asks for (``hecho``, ``¡Listo!``, ``Done.``, ``me lo quedo``, ``✅``, ``✋``...: the
    lexicons' ``reply`` phrases, SPEC section 30), or None for any other text.

    Any case, accents optional, the punctuation and emoji around it ignored; the phrase starts the message and
    what follows it is only politeness (the lexicons' ``polite`` words: ``Done, cheers!``, ``listo gracias``,
    SPEC section 39), emoji or punctuation (``hecho ya`` is chat)."""
    if len(text) > _LONGEST:
        return None
    said = meaning("reply", plain(text))
    if said is None:
        said = _phrase_then_politeness(_WORD.findall(key(text)))
    return None if said is None else ConversationAction(said)


_WORD = re.compile(r"\w+(?:['’]\w+)*")  # the words of a reply; what is between them (punctuation, emoji) is dropped


def _phrase_then_politeness(words: list[str]) -> str | None:
    """What the reply phrase that starts ``words`` says when every word after it is politeness, else None."""
    replies = lookup("reply")
    for width in sorted({1, *phrase_lengths("reply")}, reverse=True):
        said = replies.get(" ".join(words[:width])) if width <= len(words) else None
        if said is not None and _only_politeness(words[width:]):
            return said
    return None


def _only_politeness(words: list[str]) -> bool:
    """True when ``words`` are one or more of the lexicons' ``polite`` phrases, one after another."""
    polite = lookup("polite")
    widths = sorted({1, *phrase_lengths("polite")}, reverse=True)
    at = 0
    while at < len(words):  # each step takes at least one word: bounded by the reply's length
        width = next((w for w in widths if " ".join(words[at:at + w]) in polite and at + w <= len(words)), 0)
        if not width:
            return False
        at += width
    return True


@dataclass(frozen=True, slots=True)
class ItemsDone:
    """A reply ``2 hecho`` (``2 feito``, ``2, 3 done``) to a task's message: those items of its checklist are done
    (SPEC section 41)."""

    numbers: tuple[int, ...]


Reply: TypeAlias = ConversationAction | ItemsDone
"""What a reply (or a reaction) asks of the task it answers."""

_NUMBERED = re.compile(r"\s*([0-9]{1,2}(?:\s*,\s*[0-9]{1,2})*)\s+(\S.*)", re.DOTALL)


def classify_reply(text: str) -> Reply | None:
    """What a reply's whole text asks for: a reply word (``classify_reply_word``), or item numbers followed by a
    word that completes (``2 hecho``, ``2, 3 done``: those items ticked); None for any other text."""
    found = _NUMBERED.fullmatch(text) if len(text) <= _LONGEST else None
    if found is None or classify_reply_word(found[2]) != ConversationAction.COMPLETE:
        return classify_reply_word(text)
    numbers = tuple(dict.fromkeys(int(n) for n in found[1].replace(",", " ").split()))
    return None if 0 in numbers else ItemsDone(numbers)


def classify_reaction_emoji(emoji: str) -> ConversationAction | None:
    """What a reaction asks for: ✅ ✔️ ☑️ complete, ✋ 🙋 claim; None for any other emoji and for ``""`` (removed)."""
    if len(emoji) > 16:
        return None
    said = meaning("reaction", emoji)
    return None if said is None else ConversationAction(said)
