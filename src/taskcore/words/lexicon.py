"""The lexicons read (SPEC section 29): the one normaliser (``key``, ``plain``), what a word means in any language
(``meaning``), phrases of several words, and the readers the chat runs on every command: a due date, a flag, a rule's
first word. ``taskcore.words`` names all of it; ``taskcore.words.read`` has the other kinds' readers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from functools import cache, lru_cache

from taskcore.errors import InvalidDate, ValidationError
from taskcore.i18n import N_, _
from taskcore.words.registry import LANGUAGES, SHARED, TABLES

__all__ = [
    "ACCEPTED_DATES",
    "KINDS",
    "LANGUAGES",
    "TABLES",
    "add_language",
    "any_rule_intro",
    "date_word",
    "dates_apart",
    "due_date",
    "flag",
    "is_date_like",
    "is_rule_intro",
    "iso_date",
    "join_phrases",
    "key",
    "lookup",
    "meaning",
    "phrase_at",
    "phrase_lengths",
    "plain",
    "plain_dates_apart",
    "remove_language",
    "split_first",
    "words_of",
]


def key(text: str) -> str:
    """A word as the tables are compared: accents dropped, case folded, spaces collapsed, emoji without what
    keyboards add to them (variation selectors, skin tones, a joined gender sign: ``🙋🏽‍♀️`` is ``🙋``). The one
    normaliser of what people write: words, names, places. Compatibility forms stay apart (full-width digits are
    no digits: docs/decisions.md, Dates)."""
    return _short_key(text) if len(text) <= _SHORT else _fold(text)


_SHORT = 40  # every word of the tables is shorter: the keys of short tokens are remembered, the others computed


@lru_cache(maxsize=4096)
def _short_key(text: str) -> str:
    return _fold(text)


_DECORATION = re.compile("[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]|\u200d[\u2640\u2642]")


def _fold(text: str) -> str:
    if text.isascii():
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFD", _DECORATION.sub("", text))
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
    """The ``lookup`` of one kind, built from the tables; ValidationError when a word would mean two things."""
    found: dict[str, str] = {}
    for table in (*TABLES.values(), SHARED):
        for name, words in table.items():
            head, _, rest = name.partition(".")
            if head != kind:
                continue
            for word in map(key, words):
                if found.setdefault(word, rest) != rest:
                    raise ValidationError(f"{kind} word {word!r} means both {found[word]!r} and {rest!r}", field=kind)
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



ACCEPTED_DATES = N_("AAAA-MM-DD, AA-MM-DD, hoy o mañana")
"""The date forms D1-D3 accept, marked: ``_(ACCEPTED_DATES)`` where it is shown."""

_NUMERIC_DATE = re.compile(r"([0-9]{4}|[0-9]{2})-([0-9]{2})-([0-9]{2})")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DATE_LIKE = re.compile(r"[0-9]{1,4}(?:[-/.][0-9]{1,4}){1,2}")
_OFFSETS = {"today": 0, "tomorrow": 1, "after_tomorrow": 2}


def flag(chunk: str) -> str | None:
    """What a ``!word`` of ``/t nueva`` asks (the lexicons' ``flag`` words: ``each``, ``rotation``, ``balanced``,
    ``photo``; ``nag`` for ``!insistir``, a command's word), None for any other chunk."""
    if not chunk.startswith("!"):
        return None
    word = chunk[1:]
    return meaning("flag", word) or ("nag" if meaning("task", word) == "insistir" else None)


def is_rule_intro(token: str) -> bool:
    """``cada``, ``every`` (or ``a cada`` as one token), or ``toda``/``todo``: a word a recurrence rule may follow."""
    return meaning("rule", token) in ("intro", "intro_if_rule")


def any_rule_intro(words: Sequence[str]) -> bool:
    """True when one of ``words`` is a word a recurrence rule may follow (``is_rule_intro``)."""
    rules = lookup("rule")
    return any(rules.get(key(word)) in ("intro", "intro_if_rule") for word in words)


def plain_dates_apart(words: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """``dates_apart`` of words that hold no rule (``any_rule_intro``), None when one may start there."""
    return None if any_rule_intro(words) else dates_apart(words)


def dates_apart(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """``words`` (date phrases joined, ``pasado mañana``) parted into the other words and the dates, accepted or not
    (``is_date_like``), each in order."""
    others: list[str] = []
    dates: list[str] = []
    for word in join_phrases(words, "date"):
        (dates if is_date_like(word) else others).append(word)
    return others, dates


def date_word(token: str, today: date) -> date | None:
    """The day a date word names (``hoy``, ``amanhã``, ``day after tomorrow``...), None for any other token."""
    offset = _OFFSETS.get(meaning("date", token) or "")
    return None if offset is None else today + timedelta(days=offset)


def is_date_like(token: str) -> bool:
    """A token that is a date, accepted or not: a numeric date-like token or a date word of any language."""
    return _DATE_LIKE.fullmatch(token.strip()) is not None or meaning("date", token) is not None


def due_date(text: str, *, today: date) -> date:
    """A due date by D1-D3 (module docstring); ``pasado mañana`` and its kin are not accepted. InvalidDate (field
    ``due_date``) otherwise."""
    said = meaning("date", text)
    if said in ("today", "tomorrow"):
        return today + timedelta(days=_OFFSETS[said])
    match = _NUMERIC_DATE.fullmatch(text.strip())
    if match is None:
        raise InvalidDate(_("fecha no válida: {value}; usa {forms}", value=repr(text.strip()),
                            forms=_(ACCEPTED_DATES)), field="due_date")
    year, month_number, day = match.groups()
    try:
        return date(int(year) if len(year) == 4 else 2000 + int(year), int(month_number), int(day))
    except ValueError as exc:
        raise InvalidDate(_("fecha imposible: {value}", value=repr(text.strip())), field="due_date") from exc


def iso_date(text: str, *, field: str = "due_date") -> date:
    """The stored and API form ``YYYY-MM-DD`` exactly; InvalidDate naming ``field`` otherwise."""
    if not _ISO_DATE.fullmatch(text):
        raise InvalidDate("expected a date as YYYY-MM-DD", field=field)
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InvalidDate("not a calendar date", field=field) from exc


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
    kinds = frozenset(name.partition(".")[0] for table in (*TABLES.values(), SHARED) for name in table)
    for kind in kinds:  # built now, so a word that would mean two things stops the import
        lookup(kind)
    return kinds


KINDS = _check()
"""Every kind of word the tables hold (``task``, ``freq``, ``weekday``...)."""
