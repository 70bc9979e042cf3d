"""The bot's photo fetcher (SPEC section 34): fetches the photos the chat recorded for tasks and hands them to the
use cases (``taskcore.services.photo_intake``); and the daily clean-up of photos past their retention.

It runs beside the queue worker whenever a gateway is configured (schedulers or not): woken when an event recorded
a photo, else it looks every POLL_SECONDS (a fetch to try again is due then). Every fetch and every wait is bounded;
a failure is logged and the loop goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from taskcore.gateway.errors import GatewayError, MediaRefused
from taskcore.gateway.port import Gateway
from taskcore.services import Database
from taskcore.services.photo_intake import (
    FetchJob,
    PhotoRules,
    claim_fetches,
    fetch_failed,
    photo_arrived,
    photo_refused,
)
from taskcore.services.proof import expire_photos, photo_files
from taskcore.settings import Settings
from tasksvc_run import units
from tasksvc_run.clock import Clock

log = logging.getLogger(__name__)
POLL_SECONDS = 5.0
MIB = 1024 * 1024

__all__ = ["PhotoFetcher", "photo_retention", "rules_of"]


def rules_of(settings: Settings) -> PhotoRules:
    """PHOTO_MAX_MB, RQ_MAX_ATTEMPTS and DEFAULT_LANGUAGE as the photo use cases take them."""
    return PhotoRules(max_bytes=settings.photo_max_mb * MIB, max_attempts=settings.rq_max_attempts,
                      default_language=settings.default_language)


class PhotoFetcher:
    """Fetches recorded photos through the gateway, one at a time, in the order they arrived."""

    def __init__(self, db: Database, client: Gateway, *, settings: Settings, clock: Clock,
                 on_queued: Callable[[], None] = lambda: None, poll_seconds: float = POLL_SECONDS) -> None:
        self.db, self.client, self.clock = db, client, clock
        self.rules = rules_of(settings)
        files = photo_files(settings.data_dir)
        if files is None:  # pragma: no cover - DATA_DIR always has a value
            raise ValueError("DATA_DIR is not set")
        self.files = files
        self.on_queued = on_queued
        self.poll_seconds = poll_seconds
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run in the background on the running loop."""
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run(), name="photo-fetcher")

    def notify(self) -> None:
        """Look now (callable from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake.set)

    async def stop(self) -> None:
        """Stop, dropping a fetch in flight (it is claimed for a while, then tried again)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            self._wake.clear()  # before the round: a photo recorded during it wakes the next one at once
            try:
                done = await self.run_once()
            except Exception:
                log.exception("photo fetch round failed; trying again later")
                done = 0
            if done:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)

    async def run_once(self) -> int:
        """Fetch the photos due now; how many were tried."""
        jobs = await asyncio.to_thread(units.run, self.db, claim_fetches, now=self.clock.now())
        for job in jobs:
            await self._fetch(job)
        return len(jobs)

    async def _fetch(self, job: FetchJob) -> None:
        db, rules = self.db, self.rules
        try:
            if not job.media:
                raise MediaRefused("unreadable")
            data = await self.client.fetch_media(job.media, max_bytes=rules.max_bytes)
        except MediaRefused as refused:
            await asyncio.to_thread(units.run, db, photo_refused, job, refused.reason, rules=rules,
                                    now=self.clock.now())
            outcome = refused.reason
        except GatewayError as exc:
            again = await asyncio.to_thread(units.run, db, fetch_failed, job, retryable=exc.retryable, rules=rules,
                                            now=self.clock.now())
            outcome = "retry" if again else "unreadable"
        else:
            outcome = await asyncio.to_thread(units.run, db, photo_arrived, self.files, job, data, rules=rules,
                                              now=self.clock.now())
        log.info("photo fetched", extra={"task": job.task_id, "attempt": job.attempt, "outcome": outcome})
        if outcome != "retry":
            self.on_queued()


async def photo_retention(db: Database, settings: Settings, clock: Clock) -> int:
    """Delete the photos approved PHOTO_RETENTION_DAYS ago and photo files no task keeps; how many."""
    files = photo_files(settings.data_dir)
    if files is None:  # pragma: no cover
        return 0
    deleted = await asyncio.to_thread(units.run, db, expire_photos, files, now=clock.now(),
                                      retention_days=settings.photo_retention_days)
    if deleted:
        log.info("photos deleted past their retention", extra={"deleted": deleted})
    return deleted
