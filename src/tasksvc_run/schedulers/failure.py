"""A scheduled job's failure it can explain itself: one error line with its fields, never a traceback."""

from __future__ import annotations


class JobFailed(Exception):
    """Raised by a job that knows why it failed (``reason`` and what it was working on, in ``fields``)."""

    def __init__(self, what: str, **fields: str) -> None:
        super().__init__(what)
        self.what, self.fields = what, fields
