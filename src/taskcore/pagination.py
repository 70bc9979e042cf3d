"""Pagination and limit clamps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


def clamp_limit(value: object, *, default: int, maximum: int) -> int:
    """``None`` or unparsable -> default; below 1 -> 1; above maximum -> maximum."""
    if value is None or isinstance(value, bool):
        return default
    try:
        number = int(str(value).strip()) if not isinstance(value, int) else value
    except ValueError:
        return default
    return max(1, min(number, maximum))


def offset_of(page: int, limit: int) -> int:
    """Row offset of a 1-based page."""
    return (max(page, 1) - 1) * limit


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list: the items, where it is, the total and whether more follow."""

    items: Sequence[T]
    page: int
    limit: int
    total: int

    @property
    def has_more(self) -> bool:
        """True when rows follow this page."""
        return offset_of(self.page, self.limit) + len(self.items) < self.total
