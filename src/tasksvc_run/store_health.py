"""Whether the database takes writes (SPEC section 40): a store that opens but refuses every write (a file restored
as root, a full disk, a read-only mount) is a problem everyone sees, said once.

The bot keeps one ``StoreHealth``: its write probe (bot/health.py) and every loop's outage (outage.py) report to it.
The first refusal is one error line naming the database, the reason and the fix; while it lasts, one line an hour;
its end, one line. `/health` answers 503 with ``answer()`` (the proxy asks the bot), and `tasksvc doctor` reports it
as a problem. Busy or locked databases are not refusals: they pass by waiting (SPEC section 17).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from taskcore.settings import Settings

log = logging.getLogger("tasksvc.database")
REMIND_EVERY = 3600.0  # seconds between two lines about the same refusal
# The drivers' own words for a write the store refuses: SQLite's SQLITE_READONLY (a file or mount it may not write)
# and SQLITE_FULL, PostgreSQL's read-only transactions and full disks. A bare I/O error is a passing outage.
_REFUSALS = ("readonly database", "read-only", "read only", "disk is full", "disk full", "no space left",
             "could not extend file")
_REFUSAL_SQLSTATES = frozenset({"25006", "53100"})
PROBLEM = "the database does not take writes"


def refusal_reason(error: BaseException | str) -> str | None:
    """The driver's one-line reason when ``error`` says the store refuses writes; None for anything else (a busy
    database, a missing table, a bug)."""
    cause: Any = error if isinstance(error, str) else (getattr(error, "orig", None) or error)
    text = str(cause).splitlines()[0] if str(cause) else ""
    if getattr(cause, "sqlstate", None) in _REFUSAL_SQLSTATES or any(word in text.lower() for word in _REFUSALS):
        return text or type(cause).__name__
    return None


def store_named(settings: Settings) -> tuple[str, str]:
    """The database as lines and answers name it (the SQLite file, or ``DATABASE_URL``, never its value), and the
    fix of a refusal."""
    if settings.database_url:
        return "DATABASE_URL", ("free space on the database server's disk, or give DATABASE_URL's role a database "
                                "that is not read-only (a primary, not a replica)")
    path = settings.database_path
    return str(path), (f"make {path} (and its -wal and -shm files) the service's user's (chown), free space on its "
                       f"disk, or mount {path.parent} read-write; then restart the unit (docs/operations.md, "
                       "\"A database that does not take writes\")")


class StoreHealth:
    """What this process last learnt of the store's writes."""

    def __init__(self, database: str = "the database", fix: str = "", *,
                 monotonic: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.database, self.fix = database, fix
        self._monotonic, self._now = monotonic, now
        self.reason: str | None = None  # set while writes are refused
        self.since: datetime | None = None
        self._said_at = 0.0

    @classmethod
    def of(cls, settings: Settings) -> StoreHealth:
        """The health of the configured database."""
        return cls(*store_named(settings))

    @property
    def refusing(self) -> bool:
        """True from a refused write until a write is taken again."""
        return self.reason is not None

    def refused(self, reason: str) -> None:
        """A write was refused: said when the spell starts, then once an hour while it lasts."""
        first = self.reason is None
        self.reason = reason
        if first:
            self.since = self._now()
        elif self._monotonic() - self._said_at < REMIND_EVERY:
            return
        self._said_at = self._monotonic()
        message = (f"{PROBLEM}: /health answers 503 until it does" if first else f"{PROBLEM}, still")
        log.error(message, extra={"database": self.database, "reason": reason, "since": self._since_text(),
                                  "fix": self.fix})

    def took_writes(self) -> None:
        """A write was taken: a spell of refusals in progress ends with one line."""
        if self.reason is None:
            return
        lasted = (self._now() - self.since).total_seconds() if self.since else 0.0
        self.reason, self.since = None, None
        log.warning("the database takes writes again", extra={"database": self.database, "after_s": round(lasted)})

    def answer(self) -> tuple[int, dict[str, str]]:
        """The status and body of `/health`: 200 ``{"status": "ok"}``, or 503 naming the database and the reason."""
        if self.reason is None:
            return 200, {"status": "ok"}
        return 503, {"status": "unavailable", "problem": PROBLEM, "database": self.database, "reason": self.reason,
                     "since": self._since_text(), "fix": self.fix}

    def _since_text(self) -> str:
        return self.since.isoformat(timespec="seconds") if self.since else ""

