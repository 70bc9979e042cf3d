"""The clock is an argument (STYLE habit 1): the system clock in production, a settable one in tests
(``tests/fakes/clock.py``)."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime
from typing import Protocol
from zoneinfo import ZoneInfo


class Clock(Protocol):
    """Wall time (aware UTC) and a monotonic counter in seconds."""

    def now(self) -> datetime:
        """The current instant, aware, in UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """The current instant, aware, in UTC."""
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """time.monotonic()."""
        return time.monotonic()


def local_today(clock: Clock, zone: ZoneInfo) -> date:
    """Today's date in the configured time zone (TZ)."""
    return clock.now().astimezone(zone).date()
