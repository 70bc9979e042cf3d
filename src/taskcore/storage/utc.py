"""Stored timestamps: ``UtcDateTime`` (aware values in, naive UTC stored, aware UTC out) and, on SQLite, the text
SQLAlchemy's DATETIME writes by default, made from an aware value in one step instead of two (its formatting after our
conversion cost ~3.6 µs a value; a reminder tick binds tens of thousands, most of them the same few values), and read
back in one parse."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, overload

from sqlalchemy import DateTime, Dialect, TypeDecorator

# SQLAlchemy's default text format for DATETIME on SQLite: what ``sqlite_text`` writes and
# ``utc_from_db`` reads (with ``fromisoformat``, as SQLAlchemy does).
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


class UtcDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, stored as naive UTC, aware UTC out (same on SQLite and PostgreSQL)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Convert an aware value to naive UTC; refuse naive values, which are ambiguous."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        """Attach UTC to the stored naive value."""
        stamp: datetime | None = utc_from_db(value)
        return stamp

    def bind_processor(self, dialect: Dialect) -> Callable[[datetime | None], Any] | None:
        """SQLite's in one step (``utc.sqlite_text``), else SQLAlchemy's two: a tick binds thousands."""
        fused = default_sqlite_datetime(self.impl_instance, dialect)
        return sqlite_text if fused else super().bind_processor(dialect)

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], datetime | None] | None:
        """SQLite's in one parse where the text is ``utc.sqlite_text``'s (``YYYY-MM-DD HH:MM:SS.ffffff``: no room
        for an offset), else ``utc_from_db``, which reads it as SQLAlchemy's DATETIME does; else SQLAlchemy's two."""
        if not default_sqlite_datetime(self.impl_instance, dialect):
            return super().result_processor(dialect, coltype)

        def process(value: str | datetime | None) -> datetime | None:
            if isinstance(value, str) and len(value) == 26 and value[19] == ".":
                return datetime.fromisoformat(value + "+00:00")
            return utc_from_db(value)

        return process


@overload
def utc_from_db(value: None) -> None: ...


@overload
def utc_from_db(value: str | datetime) -> datetime: ...


def utc_from_db(value: str | datetime | None) -> datetime | None:
    """A stored timestamp as the driver returns it (SQLite: text, PostgreSQL: a naive datetime) to aware UTC."""
    if value is None:
        return None
    stamp: datetime = datetime.fromisoformat(value) if isinstance(value, str) else value
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)
