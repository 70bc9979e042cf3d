"""Stored timestamps on SQLite (``schema.UtcDateTime``): the text SQLAlchemy's DATETIME writes by default, made from an
aware value in one step instead of two (its formatting after our conversion cost ~3.6 µs a value; a reminder tick binds
tens of thousands, most of them the same few values), and read back in one parse."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Dialect

# SQLAlchemy's default text format for DATETIME on SQLite: what ``sqlite_text`` writes and
# ``schema.utc_from_db`` reads (with ``fromisoformat``, as SQLAlchemy does).
SQLITE_DATETIME = "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
_TEXT = "%04d-%02d-%02d %02d:%02d:%02d.%06d"  # SQLITE_DATETIME with positions: no dict to build
_RECENT: dict[int, tuple[datetime, str]] = {}  # id -> (the value itself, its text): a hit is the very same object
_RECENT_MAX = 64


def sqlite_text(value: datetime | None) -> str | None:
    """An aware value as SQLite stores it: naive UTC, ``YYYY-MM-DD HH:MM:SS.ffffff`` (``SQLITE_DATETIME``);
    a naive value is refused, as ambiguous. The text of the last few values is kept by identity (datetimes never
    change): a statement run for many rows binds the same ``now`` in every row."""
    if value is None:
        return None
    recent = _RECENT.get(id(value))
    if recent is not None and recent[0] is value:
        return recent[1]
    if value.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    utc = value.astimezone(UTC)
    text = _TEXT % (utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second, utc.microsecond)
    if len(_RECENT) >= _RECENT_MAX:
        _RECENT.clear()
    _RECENT[id(value)] = (value, text)
    return text


def default_sqlite_datetime(impl: Any, dialect: Dialect) -> bool:
    """Whether ``impl`` (a DateTime) is stored on ``dialect`` as SQLite's DATETIME in its default text format."""
    stored = dialect.type_descriptor(impl)
    return (dialect.name == "sqlite" and getattr(stored, "_storage_format", None) == SQLITE_DATETIME
            and not getattr(stored, "_reg", None))
