"""Names typed instead of mentions (SPEC section 23): a plain ``@Name`` matched against the names the bot knows.

Pure rules: words and (user id, name) pairs in, user ids out. Choices the SPEC leaves open:

- A plain name is ``@`` and letters only, as a whole word: ``@346001`` (digits) is a real mention, ``@Ana2``,
  ``ana@example.com`` and ``@Ana-María`` are neither. Punctuation around it is not part of it (``@Ana,``).
- Quotes are read as ``/t nueva`` reads them: any of ``"``, ``“``, ``”`` opens and any of them closes, and a quote
  left open runs to the end of the text; nothing between them is a name.
- Names compare as the lexicons compare words (``words.key``: case and accents ignored) and by their letters only:
  a member named ``Ana María`` is ``@ana`` (the whole first name) or ``@AnaMaria`` (the whole name written without
  spaces); ``@An`` is no one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from taskcore.words import key, plain

__all__ = ["match_members", "match_named", "name_keys", "plain_name_tokens", "surname_words"]

_QUOTED = re.compile(r'["“”][^"“”]*["“”]?')
_PLAIN_NAME = re.compile(r"(?<![\w@])@[^\W\d_]+(?![\w@-])")


def _letters(text: str) -> str:
    return "".join(ch for ch in text if ch.isalpha())


def name_keys(name: str) -> frozenset[str]:
    """The folded forms a typed name matches a member's name by: its first word, and all its words joined."""
    words = [_letters(word) for word in key(name).split()]
    return frozenset(part for part in (words[0] if words else "", "".join(words)) if part)


def _typed(word: str) -> str | None:
    """A typed ``@Name`` word as ``words.plain`` reads it (no ``@``, no punctuation around it); None when it is not
    letters only."""
    bare = plain(word)
    return bare if bare.isalpha() else None


def match_members(word: str, members: Sequence[tuple[str, str | None]]) -> list[str]:
    """The ids of the members (user id, known name) whose whole first name or whole name ``word`` is, in order; a
    name of emoji or symbols (``@🌸🌸``) matches a member's whole name exactly."""
    typed = _typed(word)
    if typed is None:
        symbols = key(word.lstrip("@").rstrip(",.;:!?"))
        return list(dict.fromkeys(user for user, name in members
                                  if name is not None and symbols and key(name) == symbols))
    return list(dict.fromkeys(user for user, name in members if name is not None and typed in name_keys(name)))


def match_named(word: str, members: Sequence[tuple[str, str | None]], following: Sequence[str]) -> list[str]:
    """``match_members``, and when several members share the typed first name, the one whose whole name the
    ``following`` words complete (``@Luis Martínez`` beside Luis Pérez: SPEC section 39), if only one does."""
    found = match_members(word, members)
    if len(found) < 2:
        return found
    names = dict(members)
    whole = [user for user in found if surname_words(word, names.get(user) or "", following)]
    return whole if len(whole) == 1 else found


def surname_words(typed: str, name: str, following: Sequence[str]) -> int:
    """How many of the ``following`` words complete a member's whole name of several words that the typed first name
    began (``@Luis`` then ``Martínez`` for Luis Martínez: 1); 0 when they do not."""
    words = key(name).split()
    rest = [_letters(word) or word for word in words[1:]]
    if len(words) < 2 or _typed(typed) != (_letters(words[0]) or words[0]) or len(following) < len(rest):
        return 0
    given = [_letters(word) or word for word in map(key, following[:len(rest)])]
    return len(rest) if given == rest else 0


def plain_name_tokens(text: str) -> list[str]:
    """The ``@Name`` words (letters only, NFC) of a message that are no real mention, outside double quotes."""
    unquoted = _QUOTED.sub(" ", unicodedata.normalize("NFC", text))
    return [match.group(0) for match in _PLAIN_NAME.finditer(unquoted)]
