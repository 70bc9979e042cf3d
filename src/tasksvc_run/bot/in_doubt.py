"""Settling a send in doubt before any resend (SPEC section 26): a job whose last attempt may have been accepted (its
sender died mid-send) is looked up first among the echoes any unit recorded (same chat, text and quoted id, since the
job was queued, named by no other job), else in the gateway's own store of sent messages (``Gateway.find_sent``).
Only a job shown not to have gone out is sent again. A job whose message id was chosen before its send (WAHA: SPEC
section 36) is looked up by that id in the gateway's store, whatever ended its last attempt (a timeout too), and sent
again with the same id only when the store does not hold it.

A reaction is not looked up: sending the same reaction twice leaves the message as one reaction.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from enum import StrEnum

from taskcore.gateway.echo import body_fingerprint, fingerprint
from taskcore.gateway.outbound import OutboundText, outbound_of
from taskcore.gateway.port import Gateway
from taskcore.queue_rules import QueueJob
from taskcore.services import Database, echoes
from tasksvc_run import units

log = logging.getLogger("tasksvc_run.bot.worker")
CLOCK_SLACK = 5  # seconds the gateway's messageTimestamp may be behind the job's created_at


class Settled(StrEnum):
    """How an in-doubt job was settled."""

    ECHO = "echo"  # its echo was recorded: it went out
    GATEWAY = "gateway"  # the gateway's store holds it: it went out
    NOT_SENT = "not_sent"  # shown not to have gone out: sent again


async def settle(db: Database, job: QueueJob, gateway: Gateway | None) -> tuple[Settled, str | None]:
    """How ``job`` is settled and the gateway's id of the message that went out (None when it did not).
    A failed lookup in the gateway's store raises its GatewayError: the job stays in doubt."""
    text = outbound_of(job.payload)
    if not isinstance(text, OutboundText):
        return Settled.NOT_SENT, None
    if job.chosen_id is not None and gateway is not None:
        found = await gateway.find_sent(text.chat_id, message_id=job.chosen_id)
        return (Settled.GATEWAY, job.chosen_id) if found else (Settled.NOT_SENT, None)
    wanted = body_fingerprint(text)
    chat, digest, quoted = wanted
    since = job.created_at or datetime.min.replace(tzinfo=UTC)
    echoed = await asyncio.to_thread(units.look, db, echoes.unclaimed_echo, chat_id=chat, digest=digest,
                                     quoted_id=quoted, since=since)
    if echoed is not None:
        return Settled.ECHO, echoed
    if gateway is None:
        return Settled.NOT_SENT, None
    records = await gateway.find_sent(chat)
    floor = since.timestamp() - CLOCK_SLACK if job.created_at else 0
    matching = [r.message_id for r in records if fingerprint(r) == wanted and (r.timestamp or floor) >= floor]
    taken = await asyncio.to_thread(units.look, db, echoes.named_by_jobs, matching)
    free = [ident for ident in matching if ident not in taken]
    if free:
        return Settled.GATEWAY, free[-1]  # newest first: the oldest copy no job names yet
    return Settled.NOT_SENT, None


def logged(job: QueueJob, how: Settled) -> None:
    """One line per settled job (the chaos test counts them)."""
    log.info("outbound: in-doubt job settled", extra={"job": job.id, "how": how.value})
