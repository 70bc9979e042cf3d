"""Searching descriptions with LIKE: the pattern that matches a text literally (SPEC section 15).

The queries (``storage.task_lists``) write ``ESCAPE '\\'`` beside every pattern made here.
"""

from __future__ import annotations


def escape_like(text: str) -> str:
    """Escape backslash, % and _ for ``LIKE ... ESCAPE '\\'``."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def like_contains(text: str) -> str:
    """The LIKE pattern that matches any value containing ``text`` literally."""
    return f"%{escape_like(text)}%"
