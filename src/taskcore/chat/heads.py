"""The first word of a message, read without parsing the rest: is it a command, and of which family."""

from __future__ import annotations

FAMILIES = {"/t": None, "/tarea": None, "/admin": "admin"}
"""Each command prefix and its family name (None: the ``/t`` task commands)."""


def split_first(text: str) -> tuple[str, str]:
    """The first word and the rest (both "" when there is none)."""
    parts = text.split(maxsplit=1)
    return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")


def command_start(text: str) -> int:
    """Where the first word after the leading whitespace and whole ``@<digits>`` tokens starts (``len`` if none).

    A scanner rather than repeated splitting, which copied the rest of the text once per leading mention."""
    at, end = 0, len(text)
    while True:
        while at < end and text[at].isspace():
            at += 1
        if at == end or text[at] != "@":
            return at
        digits = at + 1
        while digits < end and "0" <= text[digits] <= "9":
            digits += 1
        if digits == at + 1 or (digits < end and not text[digits].isspace()):
            return at  # "@" alone, "@12x": a word, not a mention
        at = digits


def head(text: str) -> tuple[str, str]:
    """The first word after the leading mentions, and the rest of the text."""
    return split_first(text[command_start(text):])


def family_key(word: str) -> str:
    """The prefix as the families table knows it ("" for anything that cannot be one)."""
    return word.lower() if word.isascii() else ""


def command_family(text: str) -> str | None:
    """``"admin"`` for an ``/admin`` command, ``"task"`` for a ``/t`` one, None for ordinary chat: read from the
    first word only, so the sender's rate-limit token can be taken before the command is parsed (SPEC section 16)."""
    key = family_key(head(text)[0])
    if key not in FAMILIES:
        return None
    return FAMILIES[key] or "task"
