"""Sanitising of task descriptions to plain text (SPEC section 15)."""

from __future__ import annotations

import re
import unicodedata

from taskcore.errors import InvalidDescription

MAX_DESCRIPTION = 1000

_TAG = re.compile(r"<[A-Za-z/!][^>]*>")
_WHITESPACE_RUN = re.compile(r"\s+")
# Controls, format characters (zero-width, bidi overrides) and lone surrogates; unassigned code points
# stay, since they are usually emoji newer than this Python's Unicode tables.
_REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _drop_invisible(text: str) -> str:
    return "".join(
        ch for ch in text if ch.isspace() or unicodedata.category(ch) not in _REMOVED_CATEGORIES
    )


def clean_text(text: str) -> str:
    """Strip markup tags, invisible and control characters, collapse whitespace and trim; never raises."""
    text = _drop_invisible(text)
    text = _TAG.sub(" ", text)
    return _WHITESPACE_RUN.sub(" ", text).strip()


def sanitize_description(text: str) -> str:
    """Plain text of 1 to 1000 characters; raise InvalidDescription otherwise."""
    cleaned = clean_text(text)
    if not cleaned:
        raise InvalidDescription("la descripción está vacía", field="description")
    if len(cleaned) > MAX_DESCRIPTION:
        raise InvalidDescription(
            f"la descripción pasa de {MAX_DESCRIPTION} caracteres ({len(cleaned)})", field="description"
        )
    return cleaned


def may_occur_in_description(needle: str) -> bool:
    """False when ``needle`` holds a character sanitising always removes (NUL, surrogates), so it matches nothing."""
    return not any(unicodedata.category(ch) == "Cs" or ch == "\x00" for ch in needle)
