"""A clock that moves only when told to: the fake of ``tasksvc_run.clock.Clock``."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta


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


@dataclass
class MovingClock:
    """The real clock, moved forward when told to (a bot whose retries and pacing need time to pass, and whose
    watchdog a test moves past a deadline)."""

    offset: timedelta = timedelta(0)

    def now(self) -> datetime:
        """The real instant, moved by the offset."""
        return datetime.now(UTC) + self.offset

    def monotonic(self) -> float:
        """time.monotonic(), moved by the offset."""
        return time.monotonic() + self.offset.total_seconds()

    def advance(self, delta: timedelta) -> None:
        """Move both clocks forward."""
        self.offset += delta
