"""Tolerant readers of WAHA's JSON: a field of the wrong type counts as absent, nothing here raises.

Plain functions over decoded JSON (no model classes): WAHA's payloads are wide (whatsmeow's structs, Go field names)
and the bot reads a handful of fields from each, so a lookup per field is all the decoder needs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeGuard

__all__ = ["at", "flag", "integer", "is_object", "items", "mapping", "string", "text", "when"]

_EMPTY: Mapping[str, Any] = {}


def is_object(value: object) -> TypeGuard[Mapping[str, Any]]:
    """Whether ``value`` is a JSON object (a dict, the decoder's; any Mapping is read alike, more slowly)."""
    return isinstance(value, dict) or isinstance(value, Mapping)  # noqa: SIM101 - dict first: no ABC check


def mapping(value: object, *keys: str) -> Mapping[str, Any]:
    """The object at ``keys`` below ``value`` (``value`` itself without keys); ``{}`` when any step is not one."""
    node = value
    for key in keys:
        node = node.get(key) if is_object(node) else None
    return node if is_object(node) else _EMPTY


def at(value: object, *keys: str) -> object:
    """Whatever is at ``keys`` below ``value``; None when a step is missing or not an object."""
    node = value
    for key in keys:
        if not is_object(node):
            return None
        node = node.get(key)
    return node


def string(value: object, *keys: str) -> str | None:
    """The string at ``keys`` (empty included); None for anything else."""
    found = at(value, *keys)
    return found if isinstance(found, str) else None


def text(value: object, *keys: str) -> str | None:
    """The string at ``keys`` when it is not blank; None otherwise."""
    found = string(value, *keys)
    return found if found is not None and found.strip() else None


def flag(value: object, *keys: str) -> bool:
    """True only for a JSON ``true`` at ``keys``."""
    return at(value, *keys) is True


def integer(value: object, *keys: str) -> int | None:
    """A whole number at ``keys`` (a finite float or a digit string too); None for booleans and anything else."""
    found = at(value, *keys)
    if isinstance(found, bool):
        return None
    if isinstance(found, int):
        return found
    if isinstance(found, float):
        return int(found) if math.isfinite(found) and abs(found) < 2**62 else None
    if isinstance(found, str):
        stripped = found.strip()
        sign = stripped[:1] == "-"
        number = stripped[1:] if sign else stripped
        if number.isascii() and number.isdigit() and len(number) < 19:
            return -int(number) if sign else int(number)
    return None


def items(value: object, *keys: str) -> list[Any]:
    """The array at ``keys``; ``[]`` for anything else."""
    found = at(value, *keys)
    return list(found) if isinstance(found, list) else []


def when(seconds: int | None) -> datetime | None:
    """A unix time in seconds as an aware datetime; None when absent or out of range."""
    if seconds is None or not 0 < seconds < 2**33:
        return None
    return datetime.fromtimestamp(seconds, UTC)
