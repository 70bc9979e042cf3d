"""`tasksvc devgateway` (started by `tasksvc dev`): the local gateway of GATEWAY_KIND (Evolution API's or WAHA's) and
the chat simulator, one process."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run.devgateway.local import LocalGateway
from tasksvc_run.devgateway.local_waha import LocalWaha
from tasksvc_run.devmode import DEV_GATEWAY_KEY, DEV_GATEWAY_PORT, DEV_INSTANCE, GATEWAY_PORT_VAR

log = logging.getLogger("tasksvc.dev")


def local_gateway(settings: Settings, db: Database) -> LocalGateway | LocalWaha:
    """The local gateway that speaks GATEWAY_KIND's wire. Evolution API's posts a person's message straight to the
    bot's webhook (as before the bot registers it); WAHA's waits for the bot to set the session's webhook."""
    key = settings.gateway_api_key.get_secret_value() if settings.gateway_api_key else DEV_GATEWAY_KEY
    instance = settings.gateway_api_instance or DEV_INSTANCE
    port = int(os.environ.get(GATEWAY_PORT_VAR, DEV_GATEWAY_PORT))
    local: LocalGateway | LocalWaha
    if settings.gateway_kind == "waha":
        local = LocalWaha(api_key=key, instance=instance, db=db, port=port)
    else:
        local = LocalGateway(
            api_key=key, instance=instance, db=db, port=port, webhook_url=f"http://127.0.0.1:{settings.port}/webhook",
            webhook_secret=settings.webhook_secret.get_secret_value() if settings.webhook_secret else None)
    local.simulator.default_language = settings.default_language  # who the page speaks to before they choose
    return local


def run_local_gateway(settings: Settings) -> int:
    """Serve the local gateway and the simulator on TASKSVC_DEV_GATEWAY_PORT until SIGTERM/SIGINT."""
    db = Database.from_url(settings.sqlalchemy_url)
    gateway = local_gateway(settings, db)

    async def serve() -> None:
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(signum, stop.set)
        await gateway.start()
        log.info("local gateway listening", extra={"url": gateway.url, "gateway": settings.gateway_kind})
        try:
            await stop.wait()
        finally:
            gateway.unexpected.clear()
            await gateway.close()

    try:
        asyncio.run(serve())
    finally:
        db.dispose()
    return 0
