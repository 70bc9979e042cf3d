"""The bot's scheduled jobs: group sync, member sync, reminders, maintenance (SPEC section 10), backups (27).

Each job is thin: fetch from the gateway, hand the answer to one taskcore use case in a thread, count metrics.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial

from taskcore.access import GatingMode
from taskcore.gateway.errors import GatewayError
from taskcore.gateway.port import Gateway
from taskcore.pacing import within_window
from taskcore.services import Database, people, quiet, sync
from taskcore.services import groups as group_service
from taskcore.services.maintenance import run_maintenance
from taskcore.services.nag_tick import NagTick
from taskcore.services.penalties import MissedTick
from taskcore.services.reminder_tick import ReminderTick
from taskcore.services.turns import AutoPassTick
from taskcore.settings import Settings
from tasksvc_run import units
from tasksvc_run.bot.photo_fetcher import photo_retention
from tasksvc_run.clock import Clock
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop
from tasksvc_run.schedulers.backups import CHECK_EVERY, BackupJob
from tasksvc_run.schedulers.leases import DatabaseLeases, Sleep, process_owner
from tasksvc_run.schedulers.runtime import Job, SchedulerRuntime, every, every_minute
from tasksvc_run.schedulers.summaries import WeeklySummaryJob

log = logging.getLogger(__name__)
DAY = timedelta(days=1)
OWN_IDS_EVERY = timedelta(minutes=5)  # until the gateway says them (a session paired later); then nothing is asked


@dataclass
class JobContext:
    """What the jobs work with; ``notify`` wakes the queue worker after something was queued."""

    settings: Settings
    db: Database
    clock: Clock
    metrics: Metrics
    gateway: Gateway | None
    notify: Callable[[], None] = field(default=lambda: None)
    fatal: FatalStop = field(default_factory=FatalStop)
    own_ids_known: bool = False  # the bot's own ids were asked of the gateway and recorded (SPEC section 38)

    @property
    def mode(self) -> GatingMode:
        """GROUP_GATING_MODE."""
        return GatingMode(self.settings.group_gating_mode)


async def own_ids(ctx: JobContext, gateway: Gateway) -> bool:
    """Whether the bot's own ids are recorded as the bot's (SPEC section 38): asked of the gateway once a process
    (Evolution's instance owner, WAHA's ``me``) before anything lists the bot among a group's participants, so it is
    never a member, even when the first sync runs before any event. False (a warning) while the gateway cannot say."""
    if ctx.own_ids_known:
        return True
    try:
        own = await gateway.own_ids()
    except GatewayError as exc:
        log.warning("the bot's own ids are unknown: the gateway did not answer", extra={"status": exc.status})
        return False
    ids = [found for found in (own.phone, own.lid) if found]
    if not ids:
        log.warning("the bot's own ids are unknown: the gateway's WhatsApp session is not paired yet")
        return False
    await asyncio.to_thread(units.run, ctx.db, people.note_bot, ids, now=ctx.clock.now())
    ctx.own_ids_known = True
    return True


async def group_sync(ctx: JobContext, gateway: Gateway) -> None:
    """fetchAllGroups (without participants), then record, discover and deactivate."""
    ctx.metrics.sync_runs.labels(job="group_sync").inc()
    await own_ids(ctx, gateway)
    fetched = await gateway.list_groups()
    s = ctx.settings
    outcome = await asyncio.to_thread(
        units.run, ctx.db, sync.apply_fetched_groups, ctx.mode, fetched, community_id=s.messaging_community_id,
        admins=s.admin_users, notify_admins=s.notify_admins_on_discovery, max_attempts=s.rq_max_attempts,
        now=ctx.clock.now(), default_language=s.default_language)
    if not outcome.applied:
        log.warning("group sync: the gateway listed no group; nothing changed")
        return
    ctx.metrics.unknown_groups_discovered.inc(len(outcome.discovered))
    if outcome.notices:
        ctx.notify()
    log.info("group sync done", extra={"listed": outcome.listed, "discovered": len(outcome.discovered),
                                       "deactivated": len(outcome.deactivated)})


async def member_sync(ctx: JobContext, gateway: Gateway) -> None:
    """For each active, effectively allowed group: participants present -> active, absent -> inactive; not while
    the bot's own ids are unknown (it would be listed as a member)."""
    ctx.metrics.sync_runs.labels(job="member_sync").inc()
    if not await own_ids(ctx, gateway):
        log.warning("member sync put off until the gateway says the bot's own ids")
        return
    records = await asyncio.to_thread(units.look, ctx.db, group_service.list_groups)
    targets, skipped = sync.member_sync_targets(records, ctx.mode)
    ctx.metrics.sync_skipped_group.inc(len(skipped))
    failures = 0
    for group_id in targets:
        try:
            people = await gateway.group_participants(group_id)
        except GatewayError as exc:
            failures += 1
            log.warning("member sync: participants unavailable", extra={"group": group_id, "error": str(exc)})
            continue
        await asyncio.to_thread(units.run, ctx.db, sync.apply_participants, group_id=group_id, participants=people,
                                now=ctx.clock.now())
    log.info("member sync done", extra={"groups": len(targets), "skipped": len(skipped), "failed": failures})


class ReminderJob:
    """The minute tick: the database holds each preference's next look, so a tick reads only what is due."""

    def __init__(self, ctx: JobContext) -> None:
        self.ctx = ctx

    async def __call__(self) -> None:
        """One reminder tick at the clock's now."""
        ctx, s = self.ctx, self.ctx.settings
        tick = ReminderTick(ctx.mode, now=ctx.clock.now(), zone=s.zone, grace_minutes=s.reminders_grace_minutes,
                            max_attempts=s.rq_max_attempts, sends_per_min=s.gateway_max_sends_per_min,
                            default_language=s.default_language)
        result = await asyncio.to_thread(units.run_batched, ctx.db, tick)
        for outcome, count in (("sent", result.sent), ("late", result.late), ("skipped", result.skipped)):
            if count:
                ctx.metrics.reminder_slots.labels(outcome=outcome).inc(count)
        window = timedelta(minutes=s.reminders_grace_minutes)
        beyond = result.queued - within_window(s.gateway_max_sends_per_min, window)
        if beyond > 0:
            ctx.metrics.reminder_digests_beyond_window.inc(beyond)
            log.warning("reminders: more digests than the send rate carries within the grace window; the rest are "
                        "due at its end and leave late, at the rate", extra={
                            "queued": result.queued, "beyond_window": beyond,
                            "max_sends_per_min": s.gateway_max_sends_per_min,
                            "grace_minutes": s.reminders_grace_minutes})
        if result.queued:
            ctx.notify()


async def maintenance(ctx: JobContext) -> None:
    """The daily retention deletes."""
    deleted = await asyncio.to_thread(
        units.run, ctx.db, run_maintenance, now=ctx.clock.now(),
        member_retention_days=ctx.settings.group_members_inactive_retention_days,
        link_retention_days=ctx.settings.reactions_ttl_days)
    ctx.metrics.cleanup_runs.inc()
    for what, count in deleted.items():
        ctx.metrics.cleanup_deleted.labels(what=what).inc(count)
    log.info("maintenance done", extra=deleted)


async def chores(ctx: JobContext) -> None:
    """The minute tick of SPEC section 25's chores: the nags due, the occurrences missed in groups with a penalty
    (SPEC section 41: before a late turn passes on, so the one who missed it is the one it counts for), then the
    turns two days late."""
    s, now = ctx.settings, ctx.clock.now()
    nags = await asyncio.to_thread(units.run_batched, ctx.db,
                                   NagTick(now=now, zone=s.zone, max_attempts=s.rq_max_attempts,
                                           default_language=s.default_language))
    missed = await asyncio.to_thread(units.run_batched, ctx.db, MissedTick(now=now, zone=s.zone))
    passed = await asyncio.to_thread(units.run_batched, ctx.db, AutoPassTick(
        now=now, zone=s.zone, max_attempts=s.rq_max_attempts, default_language=s.default_language))
    if missed:
        log.info("missed chores found", extra={"missed": missed})
    if nags.sent or nags.notices or passed:
        ctx.notify()
        log.info("chores done", extra={"nags": nags.sent, "nag_notices": nags.notices, "turns_passed": passed})


async def release_held(ctx: JobContext) -> None:
    """Quiet hours (SPEC section 25): queue, merged per person, what was held for those whose window has ended."""
    s = ctx.settings
    queued = await asyncio.to_thread(units.run, ctx.db, quiet.release_held, now=ctx.clock.now(),
                                     max_attempts=s.rq_max_attempts, default_language=s.default_language)
    if queued:
        log.info("held messages released", extra={"queued": queued})
        ctx.notify()


def build_jobs(ctx: JobContext) -> list[Job]:
    """Every job with its schedule; the sync jobs only when a gateway is configured."""
    s = ctx.settings
    jobs = [
        Job("reminders", ReminderJob(ctx), every_minute, at_start=True),
        Job("maintenance", partial(maintenance, ctx), every(DAY), at_start=True),
        Job("chores", partial(chores, ctx), every_minute, at_start=True),
        Job("weekly_summary", WeeklySummaryJob(ctx), every_minute, at_start=True),


        Job("held", partial(release_held, ctx), every_minute, at_start=True),
        Job("photo_retention", partial(photo_retention, ctx.db, s, ctx.clock), every(DAY), at_start=True),
    ]
    if s.backups_enabled:
        jobs.append(Job("backup", BackupJob(ctx), every(CHECK_EVERY), at_start=True))
    if ctx.gateway is not None:
        jobs += [
            Job("own_ids", partial(own_ids, ctx, ctx.gateway), every(OWN_IDS_EVERY), at_start=True),
            Job("group_sync", partial(group_sync, ctx, ctx.gateway),
                every(timedelta(milliseconds=s.group_sync_interval_ms))),
            Job("member_sync", partial(member_sync, ctx, ctx.gateway),
                every(timedelta(milliseconds=s.group_members_sync_interval_ms))),
        ]
    return jobs


def build_runtime(ctx: JobContext, *, sleep: Sleep = asyncio.sleep, owner: str | None = None) -> SchedulerRuntime:
    """The runtime with every job of the bot process, sharing them with other instances through job leases."""
    leases = DatabaseLeases(ctx.db, owner=owner or process_owner(), clock=ctx.clock)
    return SchedulerRuntime(build_jobs(ctx), clock=ctx.clock, sleep=sleep, leases=leases, fatal=ctx.fatal)
