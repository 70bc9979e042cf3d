"""The weekly summary job (SPEC section 25): each minute, post the summaries that are due (``services.summaries``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from taskcore.services.summaries import WeeklyTick
from tasksvc_run import units

if TYPE_CHECKING:
    from tasksvc_run.schedulers.jobs import JobContext


class WeeklySummaryJob:
    """The minute tick of the weekly summaries; the clock gives ``now`` (tests inject it)."""

    def __init__(self, ctx: JobContext) -> None:
        self.ctx = ctx

    async def __call__(self) -> int:
        """One tick at the clock's now; how many summaries it queued."""
        ctx, s = self.ctx, self.ctx.settings
        tick = WeeklyTick(now=ctx.clock.now(), zone=s.zone, default_language=s.default_language,
                          max_attempts=s.rq_max_attempts)
        queued = await asyncio.to_thread(units.run_batched, ctx.db, tick)
        if queued:
            ctx.notify()
        return queued
