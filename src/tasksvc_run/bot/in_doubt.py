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
from taskcore.gateway.errors import GatewayError
from taskcore.gateway.outbound import OutboundText, outbound_of
from taskcore.gateway.port import Gateway
from taskcore.queue_rules import IN_DOUBT, QueueJob
from taskcore.services import Database, echoes, queue
from tasksvc_run import units
from tasksvc_run.metrics import Metrics

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


async def settled_id(db: Database, job: QueueJob, gateway: Gateway, metrics: Metrics) -> str | None:
    """The id of the message an in-doubt job already sent, or None when it did not go out (logged and counted). When
    the gateway cannot tell, a retryable GatewayError whose text keeps the job in doubt."""
    try:
        how, message_id = await settle(db, job, gateway)
    except GatewayError as exc:
        raise GatewayError(exc.status, IN_DOUBT + exc.message_text, True) from exc
    logged(job, how)
    metrics.outbound_in_doubt.labels(how=how.value).inc()
    return message_id


async def chosen_id(db: Database, gateway: Gateway, job: QueueJob, owner: str) -> str | None:
    """An id for the job's message chosen before the send and kept with the job (a gateway that takes one, WAHA): a
    send whose answer is lost is then looked up by it (SPEC section 36). None: the gateway chooses it."""
    message_id = await gateway.new_message_id()
    if message_id is None:
        return None
    kept = await asyncio.to_thread(units.run, db, queue.choose_message_id, job_id=job.id, owner=owner,
                                   message_id=message_id)
    if not kept:
        raise GatewayError(None, "the job's lease was lost before its send", True)
    return message_id
