"""SQL parameters never appear in logs (SPEC section 16): a failing statement's error text, and so any traceback
logged with it, shows the statement but not the values bound to it (a phone number, a name, a message), nor the row
PostgreSQL quotes in its DETAIL line."""

from __future__ import annotations

import logging
import traceback
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from taskcore.storage import schema
from taskcore.storage.db import Database

PHONE = "34655512345"
SECRET_NAME = "Nombre-privado-8831"
WHEN = datetime(2026, 1, 5, tzinfo=UTC)


def failing_insert(db: Database, row: dict[str, Any]) -> str:
    """The text a failed insert of ``row`` leaves in its exception and in a log line with its traceback."""
    with pytest.raises(IntegrityError) as caught, db.write() as conn:
        conn.execute(schema.users.insert().values(row))
    logger = logging.getLogger("tests.hidden")
    handler = _Collect()
    logger.addHandler(handler)
    try:
        logger.error("write failed", exc_info=caught.value)
    finally:
        logger.removeHandler(handler)
    return "".join(traceback.format_exception(caught.value)) + "\n".join(handler.lines)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(logging.Formatter().format(record))


def test_a_key_violation_shows_the_statement_but_no_value(db: Database) -> None:
    row = {"id": PHONE, "display_name": SECRET_NAME, "created_at": WHEN}
    with db.write() as conn:
        conn.execute(schema.users.insert().values(row))
    shown = failing_insert(db, row)  # the same primary key again
    assert "INSERT INTO users" in shown
    assert PHONE not in shown
    assert SECRET_NAME not in shown


def test_a_not_null_violation_does_not_quote_the_failing_row(db: Database) -> None:
    shown = failing_insert(db, {"id": PHONE, "display_name": SECRET_NAME, "created_at": None})
    assert "INSERT INTO users" in shown
    assert PHONE not in shown
    assert SECRET_NAME not in shown
