"""Starter chores (SPEC section 35): sets of recurring chores a new group can start from, shipped as one data file
per catalog language (``chores/starters/<lang>.toml``: the sets' titles, the words that name them, their chores
with a rule in the chat's words and points). The words people write to choose a set are language data, read
through the lexicons' one normaliser (``words.key``), in every language at once as the chat reads every word.

Choices the SPEC leaves open:

- Three sets, ``flat`` (piso compartido, república, shared flat), ``family`` and ``office``, the same ``key`` in
  each language; a set is shown and created in the language of the reply (the group's), Spanish when that
  language's file lacks it.
- A file's rule that the chat's grammar does not read stops the load (a test reads every file).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from taskcore.errors import ValidationError
from taskcore.i18n import SOURCE
from taskcore.recurrence import Recurrence, parse_recurrence
from taskcore.words import LANGUAGES, key

__all__ = ["Chore", "StarterSet", "find_set", "set_names", "starter_sets"]


@dataclass(frozen=True, slots=True)
class Chore:
    """One chore of a set: its text, its rule and its points."""

    text: str
    recurrence: Recurrence
    points: int


@dataclass(frozen=True, slots=True)
class StarterSet:
    """A set in one language: its key (the same in every language), title, the words that name it, its chores."""

    key: str
    title: str
    names: tuple[str, ...]
    chores: tuple[Chore, ...]


@cache
def starter_sets(lang: str) -> tuple[StarterSet, ...]:
    """The sets of ``lang``'s file, in its order (Spanish's for a language without a file)."""
    starters = files("taskcore.chores").joinpath("starters")
    source = starters.joinpath(f"{lang}.toml")
    if lang not in LANGUAGES or not source.is_file():
        source = starters.joinpath(f"{SOURCE}.toml")
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    return tuple(StarterSet(str(item["key"]), str(item["title"]), tuple(str(name) for name in item["names"]),
                            tuple(Chore(str(chore["text"]), parse_recurrence(str(chore["rule"])), int(chore["points"]))
                                  for chore in item["chores"]))
                 for item in data["sets"])


@cache
def _by_name() -> dict[str, str]:
    """Every language's words for a set -> its key; ValueError when one word names two sets."""
    found: dict[str, str] = {}
    for lang in LANGUAGES:
        for starter in starter_sets(lang):
            for word in (*starter.names, starter.title):
                if found.setdefault(key(word), starter.key) != starter.key:
                    raise ValidationError(f"{word!r} names both {found[key(word)]!r} and {starter.key!r}")
    return found


def find_set(name: str, lang: str) -> StarterSet | None:
    """The set ``name`` names in any language (ignoring case and accents), as ``lang`` writes it; None if none."""
    found = _by_name().get(key(name))
    if found is None:
        return None
    own = {starter.key: starter for starter in starter_sets(lang)}
    return own.get(found) or next(s for s in starter_sets(SOURCE) if s.key == found)


def set_names(lang: str) -> tuple[str, ...]:
    """The first word that names each set in ``lang``, as ``/t plantilla <name>`` takes it."""
    return tuple(starter.names[0] for starter in starter_sets(lang))
