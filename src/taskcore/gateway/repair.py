"""Text that UTF-8 cannot encode, repaired at intake (SPEC section 28).

JSON may escape a lone UTF-16 surrogate (``"\\ud83d"``, an emoji cut in half) and Python decodes it to a string the
database, the log and the gateway cannot encode. Every string of a decoded webhook payload, keys included, has each
such code point replaced by U+FFFD here, once, before anything reads it: the rest of the bot only ever sees text
that encodes. A payload with nothing to repair is returned as it is (no copy).
"""

from __future__ import annotations

import re
from typing import Any

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
