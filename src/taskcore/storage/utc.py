"""Stored timestamps: ``UtcDateTime`` (aware values in, naive UTC stored, aware UTC out) and, on SQLite, the text
SQLAlchemy's DATETIME writes by default, made from an aware value in one step instead of two (its formatting after our
conversion cost ~3.6 µs a value; a reminder tick binds tens of thousands, most of them the same few values), and read
back in one parse. The conversions themselves live beside the lean statements that run them (``storage.prepared``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Dialect, TypeDecorator

from taskcore.errors import ValidationError
from taskcore.storage.prepared import SQLITE_DATETIME, sqlite_stamp, sqlite_text, utc_from_db

__all__ = ["SQLITE_DATETIME", "UtcDateTime", "default_sqlite_datetime", "sqlite_stamp", "sqlite_text", "utc_from_db"]

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
            raise ValidationError("naive datetime given to a UTC column")
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

        return sqlite_stamp


