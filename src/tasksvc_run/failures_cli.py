"""`tasksvc failed` and `tasksvc retry` (SPEC section 33): what failed for good, when, what it was and the error; and
queuing it again. The image has no sqlite3 to look with, and PostgreSQL's operators should not need psql for this."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from taskcore.identity import mask_phone_numbers
from taskcore.services.failures import (
    INBOX,
    FailedRow,
    format_failure_id,
    list_failures,
    parse_failure_id,
    retry_failures,
)
from taskcore.storage.db import Database, is_schema_error, is_unavailable, unavailable_reason
from tasksvc_run import exits, units
from tasksvc_run.places import database_named

if TYPE_CHECKING:
    from taskcore.settings import Settings

ERROR_WIDTH = 100


def _when(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def _what(row: FailedRow) -> str:
    if row.kind == INBOX:
        return f"webhook event {row.what or '(no event name)'}"
    attempts = f", attempts: {row.attempts}" if row.attempts is not None else ""
    label = f" ({row.label})" if row.label else ""
    return f"send {row.what}{label}{attempts}"


def render_failures(rows: list[FailedRow], *, limit: int) -> str:
    """The table `tasksvc failed` prints: id, when (UTC), what, chat, error; then how to retry."""
    if not rows:
        return "Nothing failed: no failed webhook event, no failed send.\n"
    table = [("ID", "FAILED AT (UTC)", "WHAT", "CHAT", "ERROR")]
    for row in rows:
        error = (row.error or "-").replace("\n", " ")
        error = error if len(error) <= ERROR_WIDTH else error[:ERROR_WIDTH - 1] + "…"
        table.append((format_failure_id(row.kind, row.id), _when(row.failed_at), _what(row),
                      mask_phone_numbers(row.chat), mask_phone_numbers(error)))
    widths = [max(len(line[i]) for line in table) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(line[:4], widths, strict=True)) + "  " + line[4]
             for line in table]
    more = f" (the newest {limit}; --limit to see more)" if len(rows) == limit else ""
    lines.append(f"\n{len(rows)} failed{more}. Queue one again with `tasksvc retry <id>`, all with "
                 "`tasksvc retry --all`.")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _database_or_none(settings: Settings, command: str, err: TextIO) -> Database | None:
    if not settings.database_url and not settings.database_path.is_file():
        err.write(f"tasksvc {command}: no database at {settings.database_path} (DB_PATH, or DATA_DIR/tasks.db when "
                  "DB_PATH is unset)\n")
        return None
    return Database.from_url(settings.sqlalchemy_url)


def _refused(exc: Exception, settings: Settings, command: str, err: TextIO) -> int:
    if is_schema_error(exc):
        err.write(f"tasksvc {command}: the database {database_named(settings)} is not migrated (start the bot or "
                  "run `tasksvc migrate` first)\n")
        return exits.SCHEMA
    if is_unavailable(exc):
        err.write(f"tasksvc {command}: the database {database_named(settings)} cannot be used: "
                  f"{unavailable_reason(exc)}\n")
        return exits.STORAGE
    raise exc


def cmd_failed(settings: Settings, *, limit: int, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """List the failed webhook events and outbound sends, newest first."""
    db = _database_or_none(settings, "failed", err)
    if db is None:
        return exits.FAILED
    try:
        out.write(render_failures(units.look(db, list_failures, limit=limit), limit=limit))
    except Exception as exc:
        return _refused(exc, settings, "failed", err)
    finally:
        db.dispose()
    return exits.OK


def cmd_retry(settings: Settings, ids: list[str], *, every: bool, out: TextIO = sys.stdout,
              err: TextIO = sys.stderr) -> int:
    """Queue the named failures (or ``every`` one) again; non-zero when one of the ids was not a failure."""
    if every == bool(ids):
        err.write("tasksvc retry: name the failures to queue again (ids as `tasksvc failed` shows them) or --all\n")
        return exits.CONFIG
    try:
        wanted = None if every else [parse_failure_id(text) for text in ids]
    except ValueError as exc:
        err.write(f"tasksvc retry: {exc}\n")
        return exits.CONFIG
    db = _database_or_none(settings, "retry", err)
    if db is None:
        return exits.FAILED
    try:
        outcome = units.run(db, retry_failures, wanted, now=datetime.now(UTC))
    except Exception as exc:
        return _refused(exc, settings, "retry", err)
    finally:
        db.dispose()
    if outcome.requeued:
        out.write(f"queued again ({len(outcome.requeued)}): {', '.join(outcome.requeued)}; the bot handles them "
                  "within a few seconds\n")
    elif every and not outcome.login_links:
        out.write("nothing to queue again: nothing failed\n")
    if outcome.login_links:
        out.write(f"not sent again, login links ({', '.join(outcome.login_links)}): the person asks for a new "
                  "one\n")
    if outcome.not_failed:
        err.write(f"tasksvc retry: not failed (handled, already queued again, or deleted after 30 days): "
                  f"{', '.join(outcome.not_failed)}\n")
        return exits.FAILED
    return exits.OK
