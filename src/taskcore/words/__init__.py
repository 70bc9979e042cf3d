"""The words people type in the chat, in Spanish, Brazilian Portuguese and English (SPEC section 24).

Each language has one table (``es.py``, ``pt.py``, ``en.py``): a meaning (``task.nueva``, ``freq.daily``,
``weekday.0``) and the words that say it. The chat reads every language at once: a word means what its table says
whatever language the person speaks, so the grammar stays one grammar. Words are compared as ``key`` makes them:
case folded, accents dropped (``amanha``, ``lingua``, ``terca``), spaces collapsed (``dias  úteis``).

A meaning is ``<kind>.<name>``; within a kind no word may mean two things (checked when the tables are read).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache

from taskcore.words import en, es, pt

__all__ = [
    "KINDS",
    "TABLES",
    "add_language",
    "join_phrases",
    "key",
    "lookup",
    "meaning",
    "phrase_at",
    "phrase_lengths",
    "plain",
    "remove_language",
    "split_first",
    "words_of",
]

TABLES: dict[str, Mapping[str, tuple[str, ...]]] = {"es": es.WORDS, "pt": pt.WORDS, "en": en.WORDS}
"""Each language's table: meaning -> its words. A language is one lexicon file and one line here."""


def key(text: str) -> str:
    """A word as the tables are compared: accents dropped, case folded, spaces collapsed."""
    return _short_key(text) if len(text) <= _SHORT else _fold(text)


_SHORT = 40  # every word of the tables is shorter: the keys of short tokens are remembered, the others computed


@lru_cache(maxsize=4096)
def _short_key(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    if text.isascii():
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(unicodedata.normalize("NFC", bare).casefold().split())


_EDGES = re.compile(r"^\W+|\W+$")


def plain(text: str) -> str:
    """A word as a person may write it alone, read as ``key`` reads it once the punctuation and emoji around it are
    dropped (``¡Listo!``, ``Done.``, ``«hecho»``, ``Feito 👍``); text that is only punctuation or emoji (``✅``,
    ``+``) is kept whole."""
    bare = _EDGES.sub("", text.strip())
    return key(bare) if bare else key(text)


def lookup(kind: str) -> Mapping[str, str]:
    """Every language's words of ``kind`` (as ``key`` writes them) -> the name of the meaning they say."""
    found = _LOOKUPS.get(kind)
    if found is None:
        found = _LOOKUPS[kind] = _joined(kind)
    return found


_LOOKUPS: dict[str, Mapping[str, str]] = {}


def _joined(kind: str) -> Mapping[str, str]:
    """The ``lookup`` of one kind, built from the tables; ValueError when a word would mean two things."""
    found: dict[str, str] = {}
    for table in TABLES.values():
        for name, words in table.items():
            head, _, rest = name.partition(".")
            if head != kind:
                continue
            for word in map(key, words):
                if found.setdefault(word, rest) != rest:
                    raise ValueError(f"{kind} word {word!r} means both {found[word]!r} and {rest!r}")
    return found


def meaning(kind: str, word: str) -> str | None:
    """What ``word`` means among the words of ``kind`` (``meaning("freq", "diário") == "daily"``), None if nothing."""
    return lookup(kind).get(key(word))


@cache
def words_of(name: str) -> frozenset[str]:
    """Every language's words (as ``key`` writes them) for one meaning ``<kind>.<name>``."""
    kind, _, rest = name.partition(".")
    return frozenset(word for word, said in lookup(kind).items() if said == rest)


@cache
def phrase_lengths(*kinds: str) -> tuple[int, ...]:
    """How many words the phrases of ``kinds`` have, longest first (``(3, 2)`` for ``day after tomorrow``)."""
    return tuple(sorted({len(word.split()) for kind in kinds for word in lookup(kind) if " " in word}, reverse=True))


@cache
def _phrase_starts(*kinds: str) -> frozenset[str]:
    return frozenset(word.split()[0] for kind in kinds for word in lookup(kind) if " " in word)


def phrase_at(words: Sequence[str], at: int, *kinds: str) -> int:
    """How many of ``words`` from ``at`` on make one phrase of ``kinds`` (``pasado mañana``: 2); 1 if none does."""
    if key(words[at]) not in _phrase_starts(*kinds):  # most words start no phrase: one look, no joining
        return 1
    for width in phrase_lengths(*kinds):
        if at + width <= len(words):
            phrase = key(" ".join(words[at:at + width]))
            if any(phrase in lookup(kind) for kind in kinds):
                return width
    return 1


def split_first(text: str) -> tuple[str, str]:
    """The first word and the rest (both "" when there is none)."""
    parts = text.split(maxsplit=1)
    return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")


def join_phrases(words: Sequence[str], *kinds: str) -> list[str]:
    """``words`` with each phrase of ``kinds`` (``pasado mañana``) joined into one word by a space."""
    joined: list[str] = []
    at = 0
    while at < len(words):
        width = phrase_at(words, at, *kinds)
        joined.append(" ".join(words[at:at + width]))
        at += width
    return joined


def add_language(code: str, table: Mapping[str, tuple[str, ...]]) -> None:
    """Read ``table`` as the lexicon of language ``code`` too (a new language's one line, or a test's toy one);
    ValueError, and nothing added, when one of its words would mean two things."""
    TABLES[code] = table
    _forget()
    try:
        _check()
    except ValueError:
        remove_language(code)
        raise


def remove_language(code: str) -> None:
    """Stop reading language ``code``'s lexicon (a test's toy language)."""
    TABLES.pop(code, None)
    _forget()


def _forget() -> None:
    """Drop what was built from the tables, to build it again from the tables as they are now."""
    _LOOKUPS.clear()
    for cached in (words_of, phrase_lengths, _phrase_starts):
        cached.cache_clear()


def _check() -> frozenset[str]:
    kinds = frozenset(name.partition(".")[0] for table in TABLES.values() for name in table)
    for kind in kinds:  # built now, so a word that would mean two things stops the import
        lookup(kind)
    return kinds


KINDS = _check()
"""Every kind of word the tables hold (``task``, ``freq``, ``weekday``...)."""
