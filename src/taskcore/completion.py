"""Shared tasks: one completion for all, or each assignee their part (SPEC section 19), pure."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from enum import StrEnum

from taskcore.errors import ValidationError
from taskcore.i18n import _
from taskcore.words import key, lookup


class CompletionMode(StrEnum):
    """``any``: one completion closes the task (the seed's rule); ``each``: every assignee completes their part."""

    ANY = "any"
    EACH = "each"


_MODE_WORDS = {word: CompletionMode(said) for word, said in lookup("mode").items()}


class InvalidCompletion(ValidationError):
    """A completion mode other than any/each, or one asked of a personal task."""


def parse_mode_word(word: str) -> CompletionMode:
    """``todos`` (also ``cada``, ``each``, ``all``) -> each; ``uno`` (``um``, ``any``, ``one``...) -> any; any case."""
    found = _MODE_WORDS.get(key(word))
    if found is None:
        raise InvalidCompletion(_("modo no válido: {value}", value=repr(word[:40])), field="completion")
    return found


def progress(done_at: Collection[datetime | None]) -> tuple[int, int]:
    """(parts done, parts) of an each-mode task, from each assignee's ``done_at``."""
    return sum(1 for when in done_at if when is not None), len(done_at)


def every_part_done(done_at: Collection[datetime | None]) -> bool:
    """An each-mode task with at least one part, all of them done: it is complete."""
    return bool(done_at) and all(when is not None for when in done_at)
