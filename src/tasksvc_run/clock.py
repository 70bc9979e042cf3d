"""The clock is an argument (STYLE habit 1): the system clock in production, a settable one in tests."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
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


@dataclass
class FrozenClock:
    """A clock that moves only when told to."""

    current: datetime = field(default_factory=lambda: datetime(2026, 11, 22, 10, 0, tzinfo=UTC))
    mono: float = 1000.0

    def now(self) -> datetime:
        """The frozen instant."""
        return self.current

    def monotonic(self) -> float:
        """The frozen monotonic value."""
        return self.mono

    def advance(self, delta: timedelta) -> None:
        """Move both clocks forward."""
        self.current += delta
        self.mono += delta.total_seconds()


def local_today(clock: Clock, zone: ZoneInfo) -> date:
    """Today's date in the configured time zone (TZ)."""
    return clock.now().astimezone(zone).date()
