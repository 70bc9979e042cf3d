"""Sanitising of task descriptions to plain text (SPEC section 15), in time linear in the text (SPEC section 16)."""

from __future__ import annotations

import re
import string
import unicodedata

from taskcore.errors import InvalidDescription

MAX_DESCRIPTION = 1000

# What may follow "<" in a tag; the tag runs up to the next ">".
_TAG_STARTS = frozenset(string.ascii_letters + "/!")
_WHITESPACE_RUN = re.compile(r"\s+")
# Controls, format characters (zero-width, bidi overrides) and lone surrogates; unassigned code points
# stay, since they are usually emoji newer than this Python's Unicode tables.
_REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _drop_invisible(text: str) -> str:
    if text.isprintable():  # no control, format or surrogate character (nor any other non-printable): all stays
        return text
    return "".join(
        ch for ch in text if ch.isspace() or unicodedata.category(ch) not in _REMOVED_CATEGORIES
    )


def strip_tags(text: str) -> str:
    """Every markup tag (``<`` then an ASCII letter, ``/`` or ``!``, up to the next ``>``) replaced by a space.

    One pass from left to right, reading each character a bounded number of times: no tag can close after the last
    ``>``, so no ``<`` after it is looked at, and every ``<`` before it that opens a tag has a ``>`` to find. (The
    regular expression this replaces searched to the end of the text again at every ``<a`` that never closed.)
    """
    last_close = text.rfind(">")
    if last_close < 0:
        return text
    pieces: list[str] = []
    kept = 0
    opening = text.find("<", 0, last_close)
    while opening >= 0:
        if text[opening + 1 : opening + 2] in _TAG_STARTS:
            closing = text.find(">", opening + 2)  # found: opening + 1 < last_close
            pieces += (text[kept:opening], " ")
            kept = closing + 1
            opening = text.find("<", kept, last_close)
        else:
            opening = text.find("<", opening + 1, last_close)
    pieces.append(text[kept:])
    return "".join(pieces)


def clean_text(text: str) -> str:
    """Strip markup tags, invisible and control characters, collapse whitespace and trim; never raises."""
    text = _drop_invisible(text)
    text = strip_tags(text)
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
