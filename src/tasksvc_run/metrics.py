"""The bot's metrics: one object the handlers bump, backed by prometheus-client only when METRICS_ENABLED is on.

With metrics off, nobody can scrape them (/metrics answers 404), so the process does not load prometheus-client (and
the http.server, wsgiref and gzip it imports): every instrument is a shared no-op instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from taskcore.services import Database
    from tasksvc_run.clock import Clock


class Counting(Protocol):
    """A counter without labels."""

    def inc(self, amount: float = 1) -> None:
        """Add ``amount``."""


class Labelled(Counting, Protocol):
    """A counter, with labels or without."""

    def labels(self, *values: Any, **labels: Any) -> Counting:
        """The child of these label values."""


class Setting(Protocol):
    """A gauge."""

    def set(self, value: float) -> None:
        """Set the value."""


class Observing(Protocol):
    """A histogram."""

    def observe(self, amount: float) -> None:
        """Record one observation."""


class Discarded:
    """An instrument whose values nobody reads: every call does nothing."""

    def labels(self, *_values: Any, **_labels: Any) -> Discarded:
        """Itself."""
        return self

    def inc(self, amount: float = 1) -> None:
        """Nothing."""

    def observe(self, amount: float) -> None:
        """Nothing."""

    def set(self, value: float) -> None:
        """Nothing."""


_DISCARDED = Discarded()


class Metrics:
    """Every metric of the bot process, in a registry of its own (``registry`` is None when disabled)."""

    sync_runs: Labelled
    identity_alias_resolved: Labelled
    unknown_groups_discovered: Labelled
    messages_blocked_group: Labelled
    commands_blocked: Labelled
    sync_skipped_group: Labelled
    admin_allow: Counting
    admin_block: Counting
    reactions_sent: Labelled
    reactions_failed: Labelled
    outbound_sent: Labelled
    outbound_retries: Labelled
    outbound_failed: Labelled
    outbound_max_sends_per_min: Setting
    reminder_digests_beyond_window: Labelled
    reminder_slots: Labelled
    cleanup_deleted: Labelled
    cleanup_runs: Labelled
    webhook_requests: Labelled
    webhook_events_ignored: Labelled
    webhook_seconds: Observing
    backup_last_success: Setting
    webhook_repairs: Counting
    outbound_in_doubt: Labelled
    webhook_echoes: Counting
    gateway_connected: Setting
    webhook_delivery_ok: Setting
    outbound_delivery: Labelled

    def __init__(
        self, db: Database | None = None, *, enabled: bool = True, clock: Clock | None = None, backups: bool = False,
        reachout_pause_hours: int = 24, gateway: str = "evolution",
    ) -> None:
        self.registry: Any = None
        if not enabled:
            for name in Metrics.__annotations__:
                setattr(self, name, _DISCARDED)
            return
        from tasksvc_run.prometheus import register  # noqa: PLC0415 - only a process that exposes metrics loads it

        register(self, db, clock, reachout_pause_hours, gateway)
        registry: Any = self.registry
        if backups:  # shown only where BACKUP_DIR is set: elsewhere its zero would read as "never backed up"
            registry.register(self.backup_last_success)

    @property
    def enabled(self) -> bool:
        """True when backed by prometheus-client."""
        return self.registry is not None

    def render(self) -> bytes:
        """The text exposition format (empty when disabled)."""
        if self.registry is None:
            return b""
        from prometheus_client import generate_latest  # noqa: PLC0415 - loaded already by register()

        return bytes(generate_latest(self.registry))
