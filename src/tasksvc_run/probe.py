"""``tasksvc doctor --probe`` (SPEC section 26): one probe to the bot's own number, and whether its echo came back.

The echo goes to the bot's webhook, not to this process: the running bot records it in the database, which the probe
reads until PROBE_WITHIN seconds have passed. So the probe proves the whole round trip: the gateway sends, calls the
webhook, and the bot receives and stores it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from taskcore.gateway import diagnostics as dx
from taskcore.gateway.errors import GatewayError
from taskcore.gateway.outbound import OutboundText, chat_jid
from taskcore.gateway.port import Gateway
from taskcore.services import alerts
from taskcore.services.echoes import echoed_among
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run import units

PROBE_WITHIN = 15.0
POLL_EVERY = 0.25
_NO_ECHO_FIX = ("check that the bot runs and WEBHOOK_URL reaches it from the gateway; restart the gateway "
                "(docs/operations.md, Never silent)")


async def probe_check(gateway: Gateway, settings: Settings, db: Database, *, within: float = PROBE_WITHIN,
                      sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> dx.Check:
    """Send one probe and wait (bounded by ``within``) for the bot to record its echo."""
    instance = settings.gateway_api_instance or ""
    try:
        owner = (await gateway.own_ids()).phone
        if owner is None:
            return dx.problem("probe", "the instance has no own number: it was never paired",
                              "pair the instance (or session) with WhatsApp (scan its QR code)")
        message_id = await gateway.send_text(OutboundText(chat_jid(owner), alerts.PROBE_TEXT))
    except GatewayError as exc:
        return dx.failed_call_check("probe", exc.status, exc.message_text, instance=instance)
    if message_id is None:
        return dx.problem("probe", "the gateway accepted the probe without a message id", _NO_ECHO_FIX)
    started = time.monotonic()
    while True:
        if message_id in await asyncio.to_thread(units.look, db, echoed_among, [message_id]):
            return dx.ok("probe", f"the echo came back in {time.monotonic() - started:.1f} s")
        if time.monotonic() - started >= within:
            return dx.problem("probe", f"no echo within {within:g} s: the gateway does not reach the bot's webhook",
                              _NO_ECHO_FIX)
        await sleep(POLL_EVERY)


async def run_probe(gateway: Gateway, settings: Settings) -> dx.Check:
    """``probe_check`` over the configured database."""
    db = Database.from_url(settings.sqlalchemy_url)
    try:
        return await probe_check(gateway, settings, db)
    except Exception as exc:  # an unreadable database: the probe cannot tell
        return dx.problem("probe", f"the echoes cannot be read ({type(exc).__name__})",
                          "run doctor where the bot's database is reachable (DATABASE_URL or DB_PATH)")
    finally:
        db.dispose()
