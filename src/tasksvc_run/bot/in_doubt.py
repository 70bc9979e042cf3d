"""Settling a send in doubt before any resend (SPEC section 26): a job whose last attempt may have been accepted (its
sender died mid-send) is looked up first among the echoes any unit recorded (same chat, text and quoted id, since the
job was queued, named by no other job), else in the gateway's own store of sent messages (findMessages). Only a job
shown not to have gone out is sent again.

A reaction is not looked up: sending the same reaction twice leaves the message as one reaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from taskcore.gateway.client import GatewayError
from taskcore.gateway.echo import body_fingerprint, fingerprint, found_messages
from taskcore.gateway.wire import chat_number
from taskcore.queue_rules import JobKind, QueueJob
from taskcore.services import Database, echoes
from tasksvc_run import units

log = logging.getLogger("tasksvc_run.bot.worker")
FindMessages = Callable[[str], Awaitable[Any]]
CLOCK_SLACK = 5  # seconds the gateway's messageTimestamp may be behind the job's created_at


class Settled(StrEnum):
    """How an in-doubt job was settled."""

    ECHO = "echo"  # its echo was recorded: it went out
    GATEWAY = "gateway"  # the gateway's store holds it: it went out
    NOT_SENT = "not_sent"  # shown not to have gone out: sent again


async def settle(db: Database, job: QueueJob, find: FindMessages | None) -> tuple[Settled, str | None]:
    """How ``job`` is settled and the gateway's id of the message that went out (None when it did not).
    A failed findMessages raises its GatewayError: the job stays in doubt."""
    if job.kind is not JobKind.TEXT:
        return Settled.NOT_SENT, None
    chat = str(job.payload.get("number") or chat_number(job.chat_id))  # the address it was sent to
    chat_jid, digest, quoted = body_fingerprint(chat, job.payload)
    since = job.created_at or datetime.min.replace(tzinfo=UTC)
    echoed = await asyncio.to_thread(units.look, db, echoes.unclaimed_echo, chat_id=chat_jid, digest=digest,
                                     quoted_id=quoted,
                                     since=since)
    if echoed is not None:
        return Settled.ECHO, echoed
    if find is None:
        return Settled.NOT_SENT, None
    try:
        records = found_messages(await find(chat))
    except ValueError as exc:
        raise GatewayError(None, f"findMessages: {exc}", True) from exc
    floor = since.timestamp() - CLOCK_SLACK if job.created_at else 0
    wanted = (chat_jid, digest, quoted)
    matching = [r.message_id for r in records if fingerprint(r) == wanted and (r.timestamp or floor) >= floor]
    taken = await asyncio.to_thread(units.look, db, echoes.named_by_jobs, matching)
    free = [ident for ident in matching if ident not in taken]
    if free:
        return Settled.GATEWAY, free[-1]  # newest first: the oldest copy no job names yet
    return Settled.NOT_SENT, None


def logged(job: QueueJob, how: Settled) -> None:
    """One line per settled job (the chaos test counts them)."""
    log.info("outbound: in-doubt job settled", extra={"job": job.id, "how": how.value})
