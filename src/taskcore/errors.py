"""One small hierarchy of errors; the shells translate them to chat replies or HTTP statuses."""

from __future__ import annotations


class TaskcoreError(Exception):
    """Base of every error raised by taskcore."""


class ValidationError(TaskcoreError, ValueError):
    """A value was rejected; ``field`` names it when there is one."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class InvalidIdentifier(ValidationError):
    """A user id with no digit, or a group id that is not ``<digits>@g.us`` / ``<digits>-<digits>@g.us``."""


class InvalidDate(ValidationError):
    """A due date that D1-D3 do not accept."""


class InvalidDescription(ValidationError):
    """A description that is empty or longer than 1000 characters after sanitising."""


class InvalidTime(ValidationError):
    """A reminder time that is not H:M / HH:MM on a 24-hour clock."""


class InvalidFreq(ValidationError):
    """A reminder frequency outside off, daily, weekly, weekdays."""


class InvalidRecurrence(ValidationError):
    """A recurrence rule that SPEC section 20 does not accept (``cada 0 días``, ``cada lunes martes``)."""


class InvalidTimeZone(ValidationError):
    """A time zone name that is not a known IANA zone."""


class AmbiguousTimeZone(InvalidTimeZone):
    """A city that no zone or several zones are named after; ``suggestions``: up to three close IANA names."""

    def __init__(self, message: str, *, suggestions: tuple[str, ...], field: str | None = "tz") -> None:
        super().__init__(message, field=field)
        self.suggestions = suggestions


class InvalidChoreSetting(ValidationError):
    """A value of SPEC section 25 that is refused: quiet hours, points, a nag interval, a weekly summary moment, an
    away date or a summary period; ``field`` names which (``quiet``, ``points``, ``nag``, ``weekly``, ...)."""


class PhotoExists(TaskcoreError, FileExistsError):
    """A photo of photo proof is already stored under that name (SPEC section 34)."""


class NotFound(TaskcoreError):
    """The thing does not exist, or is not visible to the user asking."""


class Forbidden(TaskcoreError):
    """The user sees the thing but may not do this to it."""


class Conflict(TaskcoreError):
    """The thing is in a state that does not allow this (e.g. a task that is not open)."""


class LimitReached(Conflict):
    """A person already holds as many of something as they may (e.g. 20 API tokens); the message names the limit."""


class PhotoRequired(Conflict):
    """A task that is done only with a photo, once approved (SPEC section 34), completed without one; ``waiting``:
    a photo of it waits for approval (or is being fetched)."""

    def __init__(self, task_id: int, *, waiting: bool = False) -> None:
        super().__init__(f"task {task_id} needs an approved photo to be done")
        self.task_id = task_id
        self.waiting = waiting


class RateLimited(TaskcoreError):
    """The user's bucket is empty; ``retry_after`` is in whole seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"rate limited; retry after {retry_after} s")
        self.retry_after = retry_after


class SchemaError(TaskcoreError):
    """The database's recorded migrations do not match this code."""


class Unauthorized(TaskcoreError):
    """No valid login token or session."""
