"""Exit statuses of the service's processes, so the supervisor can say why a child stopped."""

from __future__ import annotations

OK = 0
FAILED = 1  # anything else, said in the child's own last log line
CONFIG = 2  # invalid configuration (one line per bad variable)
SCHEMA = 3  # the database schema is not what this release needs (missing migrations or tables, refused history)
STORAGE = 4  # the database cannot be opened or written at start

REASONS = {
    FAILED: "it failed (see its last log line)",
    CONFIG: "invalid configuration (see the lines above)",
    SCHEMA: "the database schema is not what this release needs (see its last log line)",
    STORAGE: "the database cannot be used (see its last log line)",
}


def reason(code: int | None) -> str:
    """Why a child that exited with ``code`` stopped, in words."""
    if code is None:
        return "still running"
    if code < 0:
        return f"killed by signal {-code}"
    return REASONS.get(code, f"exit status {code}")
