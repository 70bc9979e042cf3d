"""The outbound worker's settings (SPEC sections 9 and 31): concurrency, polling, the lease on a claimed job, the
retry backoff and the send pace, and the random jitter a retry's delay is spread by."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from taskcore.queue_rules import JITTER_LIMIT
from taskcore.services.caps import SendRules
from taskcore.services.delivery import DeliveryRules
from taskcore.settings import Settings

DELIVERY_RULES = DeliveryRules()  # the defaults (tests)


def delivery_rules(settings: Settings) -> DeliveryRules:
    """The delivery use cases' rules from the settings."""
    return DeliveryRules(max_attempts=settings.rq_max_attempts, default_language=settings.default_language,
                         gating_off=settings.group_gating_mode == "off",
                         pause_hours=settings.gateway_reachout_pause_hours)


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """Concurrency across chats, polling, the lease on a claimed job and the backoff of SPEC section 9."""

    concurrency: int = 4
    poll_interval: float = 0.25
    lease: timedelta = timedelta(seconds=30)
    backoff_base_ms: int = 1000
    backoff_max_ms: int = 300_000
    max_sends_per_min: int | None = None  # None: unpaced (tests and the drain benchmark)
    send_rules: SendRules | None = None  # None: nothing screened, no caps (SPEC section 31)
    jittered: bool = False  # each gap drawn between 0.5 and 1.5 times the mean pace (SPEC section 31)
    delivery_rules: DeliveryRules = DELIVERY_RULES  # a send refused at once marks its person (SPEC section 36)

    @classmethod
    def from_settings(cls, settings: Settings, *, concurrency: int = 4) -> WorkerConfig:
        """The lease outlasts a send that hits GATEWAY_TIMEOUT_MS by as much again plus a second."""
        lease = timedelta(milliseconds=2 * settings.gateway_timeout_ms + 1000)
        return cls(concurrency=concurrency, lease=lease, backoff_base_ms=settings.rq_backoff_base_ms,
                   backoff_max_ms=settings.rq_backoff_max_ms, max_sends_per_min=settings.gateway_max_sends_per_min,
                   send_rules=SendRules(settings.gateway_reachout_pause_hours, settings.gateway_max_sends_per_hour,
                                        settings.gateway_max_sends_per_day, settings.gateway_warmup_days),
                   jittered=True, delivery_rules=delivery_rules(settings))


def random_jitter() -> float:  # a retry's jitter factor, uniform in ±20%
    return random.uniform(-JITTER_LIMIT, JITTER_LIMIT)  # noqa: S311 - spreading retries, not a secret


RECORD_RETRY_DELAYS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)  # between writes of an outcome the database refused
PACE_HORIZON = 0.05  # a claim takes the sends the rate lets start within this many seconds
