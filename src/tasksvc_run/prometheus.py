"""The bot's /metrics in prometheus-client, loaded by tasksvc_run.metrics only when metrics are on: seed names exactly,
process counters plus values read from the database at scrape time.

prometheus-client appends ``_total`` to every counter family, so the seed's ``admin_actions_total_allow`` and
``admin_actions_total_block`` are exposed by a small collector of their own under exactly those names, typed ``gauge``:
a ``counter`` must end in ``_total`` (``promtool check metrics`` refuses it otherwise; docs/decisions.md, issue 31).
Every counter shows its zero from the first scrape (labelled ones for their known labels), no ``_created`` series is
exposed, and the process's CPU, memory and open files are (ProcessCollector). Gauges that must equal table counts
(allowed groups, queue depth) and counters that the web process also bumps (reactions enqueued) are read from the
database when scraped, so every process's events show here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.metrics import disable_created_metrics
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from taskcore.access import GroupStatus
from taskcore.gateway.events import KINDS, STATUSES
from taskcore.queue_rules import JobKind
from taskcore.services import Database
from taskcore.services.caps import oldest_waiting_seconds
from taskcore.services.counters import read_counters
from taskcore.services.delivery import reachout_paused_until, unreachable_people
from taskcore.services.groups import status_counts
from taskcore.services.inbox import INBOX_FAILURES, inbox_stats
from taskcore.services.queue import due_count, queue_stats
from tasksvc_run import units
from tasksvc_run.bot.in_doubt import Settled
from tasksvc_run.clock import Clock, SystemClock

if TYPE_CHECKING:
    from tasksvc_run.metrics import Metrics

log = logging.getLogger(__name__)
EMOJI_CLASSES = ("robot", "warn", "check", "other")
SYNC_JOBS = ("group_sync", "member_sync")
REMINDER_OUTCOMES = ("sent", "late", "skipped")
DB_COUNTERS = {"reactions_enqueued": ("Reactions queued, by emoji class.", "emoji")}
# run_maintenance's keys
CLEANUP_KINDS = ("links", "members", "auth", "queue", "deliveries", "inbound", "inbox", "statuses")
disable_created_metrics()  # type: ignore[no-untyped-call]  # one sample per counter: no `*_created` series beside it


class ExactNameCounter(Collector):
    """A monotonically increasing value exposed under exactly its name (no ``_total`` added)."""

    def __init__(self, name: str, documentation: str) -> None:
        self.name, self.documentation = name, documentation
        self._value = 0.0
        self._lock = threading.Lock()

    def inc(self, amount: float = 1) -> None:
        """Add ``amount``."""
        with self._lock:
            self._value += amount

    def collect(self) -> Iterator[Metric]:
        """One sample named exactly ``name``, typed gauge (a counter's name must end in ``_total``)."""
        metric = Metric(self.name, self.documentation, "gauge")
        metric.add_sample(self.name, {}, self._value)
        yield metric


class DatabaseCollector(Collector):
    """Gauges and cross-process counters read from the database at scrape time."""

    def __init__(self, db: Database | None, clock: Clock, pause_hours: int = 24) -> None:
        self.db, self.clock, self.pause_hours = db, clock, pause_hours

    def collect(self) -> Iterator[Metric]:
        """Allowed-group gauges, queue gauges and database-backed counters."""
        if self.db is None:
            return
        try:
            yield from _database_metrics(self.db, self.clock, self.pause_hours)
        except Exception:
            log.exception("metrics: reading the database failed")


def _database_metrics(db: Database, clock: Clock, pause_hours: int) -> Iterator[Metric]:
    counts = units.look(db, status_counts)
    for status in GroupStatus:
        name = f"allowed_groups_total_{status.value}"
        yield GaugeMetricFamily(name, f"Groups whose access status is {status.value}.", value=counts[status])
    stats = units.look(db, queue_stats)
    yield GaugeMetricFamily("outbound_queue_depth", "Outbound jobs waiting or in flight.",
                            value=stats["pending"] + stats["sending"])
    yield GaugeMetricFamily("outbound_queue_failed", "Outbound jobs that exhausted their attempts.",
                            value=stats["failed"])
    yield GaugeMetricFamily("outbound_queue_due", "Outbound jobs due now and waiting: the backlog the send rate "
                            "(GATEWAY_MAX_SENDS_PER_MIN) holds back.", value=units.look(db, due_count, now=clock.now()))
    paused = units.look(db, reachout_paused_until, now=clock.now(), pause_hours=pause_hours)
    yield GaugeMetricFamily("gateway_reachout_paused", "1 while direct messages to people who never wrote to the bot "
                            "in private are paused after a 463 (GATEWAY_REACHOUT_PAUSE_HOURS).",
                            value=0 if paused is None else 1)
    yield GaugeMetricFamily("unreachable_people", "People the bot cannot write to in private (a direct message "
                            "to them ended in ERROR).", value=len(units.look(db, unreachable_people)))
    yield GaugeMetricFamily("outbound_oldest_waiting_seconds", "How long the oldest message still waiting to be "
                            "sent has waited (a cap, the pace or an outage holds it).",
                            value=units.look(db, oldest_waiting_seconds, now=clock.now()))
    inbox = units.look(db, inbox_stats)
    yield GaugeMetricFamily("webhook_inbox_depth", "Webhook events stored and not handled yet.", value=inbox["pending"])
    yield GaugeMetricFamily("webhook_inbox_failed", "Webhook events whose handling broke (kept, not retried).",
                            value=inbox["failed"])
    stored = units.look(db, read_counters)
    failures = Metric("webhook_inbox_failures", "Webhook events whose handling broke, since the database began (the "
                      "alert's count: failed rows are kept 30 days).", "counter")
    failures.add_sample("webhook_inbox_failures_total", {}, stored.get((INBOX_FAILURES, ""), 0))
    yield failures
    for name, (documentation, label) in DB_COUNTERS.items():
        family = Metric(name, documentation, "counter")
        for value in EMOJI_CLASSES:
            family.add_sample(f"{name}_total", {label: value}, stored.get((name, value), 0))
        yield family


def register(metrics: Metrics, db: Database | None, clock: Clock | None = None, pause_hours: int = 24,
             gateway: str = "evolution") -> None:
    """Give ``metrics`` a registry of its own and every instrument in it; ``gateway`` (GATEWAY_KIND) labels
    ``gateway_connected``."""
    metrics.registry = reg = CollectorRegistry(auto_describe=False)
    metrics.sync_runs = Counter("sync_runs", "Group and member sync runs.", ["job"], registry=reg)
    metrics.identity_alias_resolved = Counter(
        "identity_alias_resolved", "Senders resolved through an identity alias.", registry=reg)
    metrics.unknown_groups_discovered = Counter(
        "unknown_groups_discovered", "Groups seen for the first time in discover mode.", registry=reg)
    metrics.messages_blocked_group = Counter(
        "messages_blocked_group", "Messages ignored because their group is not allowed.", registry=reg)
    metrics.commands_blocked = Counter(
        "commands_blocked", "Commands ignored because their group is not allowed.", registry=reg)
    metrics.sync_skipped_group = Counter(
        "sync_skipped_group", "Groups skipped by the member sync because they are not allowed.", registry=reg)
    metrics.admin_allow = ExactNameCounter("admin_actions_total_allow", "Admin allow actions.")
    metrics.admin_block = ExactNameCounter("admin_actions_total_block", "Admin block actions.")
    reg.register(metrics.admin_allow)
    reg.register(metrics.admin_block)
    metrics.reactions_sent = Counter("reactions_sent", "Reactions the gateway accepted.", ["emoji"], registry=reg)
    metrics.reactions_failed = Counter("reactions_failed", "Reactions given up on.", ["emoji"], registry=reg)
    metrics.outbound_sent = Counter("outbound_sent", "Outbound jobs the gateway accepted.", ["kind"], registry=reg)
    metrics.outbound_retries = Counter("outbound_retries", "Outbound attempts to be retried.", ["kind"], registry=reg)
    metrics.outbound_failed = Counter("outbound_failed", "Outbound jobs that failed for good.", ["kind"], registry=reg)
    metrics.outbound_max_sends_per_min = Gauge(
        "outbound_max_sends_per_min", "The send rate of this process (GATEWAY_MAX_SENDS_PER_MIN; 0: unpaced).",
        registry=reg)
    metrics.reminder_digests_beyond_window = Counter(
        "reminder_digests_beyond_window", "Digests queued beyond what the send rate carries within the grace "
        "window: due at its end, they leave late.", registry=reg)
    metrics.reminder_slots = Counter(
        "reminder_slots", "Reminder slots handled, by outcome (sent, late, skipped).", ["outcome"], registry=reg)
    metrics.cleanup_deleted = Counter("cleanup_deleted", "Rows deleted by maintenance.", ["what"], registry=reg)
    metrics.cleanup_runs = Counter("cleanup_runs", "Maintenance runs.", registry=reg)
    metrics.webhook_requests = Counter("webhook_requests", "Webhook requests, by event.", ["event"], registry=reg)
    metrics.webhook_events_ignored = Counter(
        "webhook_events_ignored", "Webhook events ignored before the inbox, by reason (instance: another gateway "
        "instance's event).", ["reason"], registry=reg)
    metrics.webhook_seconds = Histogram(
        "webhook_processing_seconds", "Time to process one webhook event.", registry=reg,
        buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
    _watchdog_metrics(metrics, reg, gateway)
    for job in SYNC_JOBS:  # every seed name shows from the first scrape, at zero
        metrics.sync_runs.labels(job=job)
    for outcome in REMINDER_OUTCOMES:  # so a dashboard shows 0, not "no data", before the first reminder
        metrics.reminder_slots.labels(outcome=outcome)
    for emoji in EMOJI_CLASSES:
        metrics.reactions_sent.labels(emoji=emoji)
        metrics.reactions_failed.labels(emoji=emoji)
    metrics.backup_last_success = Gauge(  # registered by Metrics when BACKUP_DIR is set
        "backup_last_success_timestamp_seconds", "When the newest verified backup in BACKUP_DIR was taken (Unix "
        "time).", registry=None)
    _expose_zeros(metrics)
    ProcessCollector(registry=reg)
    reg.register(DatabaseCollector(db, clock or SystemClock(), pause_hours))


def _expose_zeros(metrics: Metrics) -> None:
    """Every labelled counter at zero for its known labels, so a dashboard shows 0, not "no data"."""
    for kind in JobKind:
        for counter in (metrics.outbound_sent, metrics.outbound_retries, metrics.outbound_failed):
            counter.labels(kind=kind.value)
    for what in CLEANUP_KINDS:
        metrics.cleanup_deleted.labels(what=what)
    for event in KINDS:
        metrics.webhook_requests.labels(event=event)
    for how in Settled:
        metrics.outbound_in_doubt.labels(how=how.value)
    for reason in ("instance", "retry"):
        metrics.webhook_events_ignored.labels(reason=reason)


def _watchdog_metrics(metrics: Metrics, reg: CollectorRegistry, gateway: str) -> None:
    """SPEC section 26: the webhook's repairs, its echoes, and the two gauges an operator alerts on; the gateway in
    use is a label of ``gateway_connected`` (SPEC section 36), its only series."""
    metrics.webhook_repairs = Counter(
        "webhook_repairs", "Times the gateway's webhook configuration was found different and set again.",
        registry=reg)
    metrics.outbound_in_doubt = Counter(
        "outbound_in_doubt_settled", "Jobs in doubt (their sender died mid-send) settled before any resend, by how: "
        "echo, gateway (its store of sent messages) or not_sent (sent again).", ["how"], registry=reg)
    metrics.webhook_echoes = Counter(
        "webhook_echoes", "send.message echoes received (the gateway reached the webhook with a bot's send).",
        registry=reg)
    metrics.gateway_connected = Gauge(
        "gateway_connected", "1 while the gateway's WhatsApp session is open, 0 once it closes (Evolution's "
        "connection.update close, WAHA's session.status FAILED or STOPPED); gateway: GATEWAY_KIND.",
        ["gateway"], registry=reg).labels(gateway=gateway)
    metrics.webhook_delivery_ok = Gauge(
        "webhook_delivery_ok", "0 when sends are accepted but their echoes stop arriving (the webhook is silent).",
        registry=reg)
    metrics.gateway_connected.set(1)
    metrics.webhook_delivery_ok.set(1)
    metrics.outbound_delivery = Counter(
        "outbound_delivery", "Delivery statuses the gateway reported for the bot's messages (messages.update), by "
        "status: SERVER_ACK, DELIVERY_ACK, READ, PLAYED, PENDING, ERROR (not delivered).", ["status"], registry=reg)
    for status in STATUSES:
        metrics.outbound_delivery.labels(status=status)
