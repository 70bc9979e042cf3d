"""What a background loop does when the database fails (SPEC section 17).

A passing outage (busy past the retries, a lost connection) is logged once when it starts and once when it ends,
never in a loop. A store that refuses writes (a read-only file, a full disk) is the whole process's news, not a loop's:
it goes to the process's ``StoreHealth`` (store_health.py), which says it once (then hourly) for every loop. An
error that waiting cannot cure (a missing table, a refused migration history) stops the process with one clear line:
the supervisor then stops the unit and says which child failed. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable

from taskcore.errors import SchemaError
from taskcore.services import is_schema_error, is_unavailable, unavailable_reason
from tasksvc_run.store_health import StoreHealth, refusal_reason

log = logging.getLogger("tasksvc.database")


def stop_this_process() -> None:
    """Ask this process to stop as SIGTERM does: aiohttp finishes what is in flight, then run_app returns."""
    os.kill(os.getpid(), signal.SIGTERM)


def _stay_up() -> None:
    """The default of an app built inside a test: nothing to stop."""


class FatalStop:
    """Stops the process once, with one line naming the reason; ``reason`` stays set for the exit status. It is the
    process's one place for what the database does to all of it, so it also carries the ``store``'s health."""

    def __init__(self, stop: Callable[[], None] = _stay_up, *, store: StoreHealth | None = None) -> None:
        self._stop = stop
        self.reason: str | None = None
        self.store = store or StoreHealth()

    def __call__(self, exc: BaseException, *, where: str) -> None:
        """Log the schema error of ``where`` and stop the process (only the first call does anything)."""
        if self.reason is not None:
            return
        self.reason = str(exc) if isinstance(exc, SchemaError) else unavailable_reason(exc)
        log.critical("stopping: the database schema is not what this release needs",
                     extra={"where": where, "reason": self.reason})
        self._stop()


class Outage:
    """Tracks one loop's database failures: ``failed`` on each failure, ``succeeded`` after each success."""

    def __init__(self, where: str, fatal: FatalStop, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.where, self._fatal, self._monotonic = where, fatal, monotonic
        self.since: float | None = None  # when the spell of failures began (monotonic), None outside one
        self._said = False  # this loop said the spell started (a refused write is the store's to say)

    @property
    def active(self) -> bool:
        """True between the first failure of a spell and the next success."""
        return self.since is not None

    def failed(self, exc: BaseException, *, what: str = "database work failed") -> None:
        """Classify ``exc``: stop the process, start (or continue, silently) an outage, or log a bug."""
        if is_schema_error(exc):
            self._fatal(exc, where=self.where)
        elif (refusal := refusal_reason(exc)) is not None:
            self.unavailable(refusal)
        elif is_unavailable(exc):
            self.unavailable(unavailable_reason(exc))
        else:
            log.error(what, exc_info=exc, extra={"where": self.where})

    def unavailable(self, reason: str) -> None:
        """A passing outage (the database did not answer in time): logged when the spell starts, then silent; a
        refused write is the store's to say."""
        self.since = self.since if self.since is not None else self._monotonic()
        if refusal_reason(reason) is not None:
            self._fatal.store.refused(reason)
        elif not self._said:
            self._said = True
            log.error("database unavailable; retrying quietly until it is back",
                      extra={"where": self.where, "reason": reason})

    def succeeded(self) -> None:
        """End an outage in progress with one line saying how long it lasted."""
        if self.since is not None and not self._said:  # the refused work went through: the store takes writes
            self.since = None
            self._fatal.store.took_writes()
        elif self.since is not None:
            lasted = self._monotonic() - self.since
            self.since, self._said = None, False
            log.warning("database available again", extra={"where": self.where, "after_s": round(lasted, 1)})
