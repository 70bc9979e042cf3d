"""The text people write, made safe: repaired at intake where UTF-8 cannot encode it (SPEC section 28), and task
descriptions sanitised to plain text (SPEC section 15) in time linear in the text (SPEC section 16).

JSON may escape a lone UTF-16 surrogate (``"\\ud83d"``, an emoji cut in half) and Python decodes it to a string the
database, the log and the gateway cannot encode. Every string of a decoded webhook payload, keys included, has each
such code point replaced by U+FFFD (``repaired``), once, before anything reads it: the rest of the bot only ever sees
text that encodes. A payload with nothing to repair is returned as it is (no copy).
"""

from __future__ import annotations

import re
import string
import unicodedata
from typing import Any

from taskcore.errors import InvalidDescription
from taskcore.i18n import _

MAX_DESCRIPTION = 1000

# What may follow "<" in a tag; the tag runs up to the next ">".
_TAG_STARTS = frozenset(string.ascii_letters + "/!")
_WHITESPACE_RUN = re.compile(r"\s+")
# Controls, format characters (zero-width, bidi overrides) and lone surrogates; unassigned code points
# stay, since they are usually emoji newer than this Python's Unicode tables.
_REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
# Every code point of those categories or whitespace, as inclusive ranges (this Python's Unicode tables; a test
# checks them against unicodedata): what sanitising removes or collapses, so text made only of them is blank.
INVISIBLE_RANGES = (
    (0x0, 0x20), (0x7F, 0xA0), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F),
    (0x890, 0x891), (0x8E2, 0x8E2), (0x1680, 0x1680), (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F),
    (0x205F, 0x2064), (0x2066, 0x206F), (0x3000, 0x3000), (0xD800, 0xDFFF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)


def _class_item(low: int, high: int) -> str:
    """A range of a regex character class: BMP code points escaped (\\uXXXX), others literal (ECMA-262 and Python
    read both alike)."""
    def one(code: int) -> str:
        return f"\\u{code:04x}" if code < 0x10000 else chr(code)
    return one(low) if low == high else f"{one(low)}-{one(high)}"


# Surrogates are left out of the class: no UTF-8 text holds one (a JSON escape of one is repaired or removed before
# any rule reads it), and regex engines that follow the Unicode scalar values (Rust's, in validators) refuse them.
VISIBLE_CHARACTER = "[^" + "".join(_class_item(low, high) for low, high in INVISIBLE_RANGES if low != 0xD800) + "]"
"""A regular expression matching one character sanitising keeps: a text that holds one is not blank (the OpenAPI
document's pattern for names and descriptions)."""


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
        raise InvalidDescription(_("la descripción está vacía"), field="description")
    if len(cleaned) > MAX_DESCRIPTION:
        raise InvalidDescription(
            _("la descripción pasa de {limit} caracteres ({length})", limit=MAX_DESCRIPTION, length=len(cleaned)),
            field="description",
        )
    return cleaned


class Description(str):
    """A task's text as sanitised (``Description.of``): a use case given one stores it as it is, so the text is
    sanitised once, where it is read (the chat's parser, the API's body, a CSV row), not again on its way in."""

    __slots__ = ()

    @classmethod
    def of(cls, text: str) -> Description:
        """``text`` sanitised (``sanitize_description``: InvalidDescription when nothing is left or it is too long)."""
        return text if isinstance(text, Description) else cls(sanitize_description(text))



def may_occur_in_description(needle: str) -> bool:
    """False when ``needle`` holds a character sanitising always removes (NUL, surrogates), so it matches nothing."""
    return not any(unicodedata.category(ch) == "Cs" or ch == "\x00" for ch in needle)


REPLACEMENT = "\ufffd"
# In a Python string the only code points UTF-8 cannot encode are the surrogates (a valid pair escaped in JSON is
# decoded to the one code point it stands for, so any surrogate left is alone).
_UNENCODABLE = re.compile("[\ud800-\udfff]")


def repaired_text(text: str) -> str:
    """``text`` with every code point UTF-8 cannot encode replaced by U+FFFD."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _UNENCODABLE.sub(REPLACEMENT, text)
    return text


def repaired(value: Any) -> Any:
    """A decoded JSON value with every string (keys too) repaired: ``value`` itself when nothing needed it, else a
    repaired copy (the input is never changed). Iterative, so a payload nested as deep as the JSON decoder allows
    cannot exhaust the stack here."""
    return _rebuilt(value) if _needs_repair(value) else value


def _needs_repair(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if repaired_text(node) is not node:
                return True
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _rebuilt(value: Any) -> Any:
    root: list[Any] = [None]
    stack: list[tuple[list[Any] | dict[Any, Any], Any, Any]] = [(root, 0, value)]
    while stack:
        parent, slot, node = stack.pop()
        if isinstance(node, str):
            parent[slot] = repaired_text(node)
        elif isinstance(node, dict):
            copy: dict[Any, Any] = {}
            parent[slot] = copy
            for key, item in node.items():
                fixed = repaired_text(key) if isinstance(key, str) else key
                copy[fixed] = None  # keeps the keys' order; the value is filled in from the stack
                stack.append((copy, fixed, item))
        elif isinstance(node, list):
            items: list[Any] = [None] * len(node)
            parent[slot] = items
            stack.extend((items, index, item) for index, item in enumerate(node))
        else:
            parent[slot] = node
    return root[0]
