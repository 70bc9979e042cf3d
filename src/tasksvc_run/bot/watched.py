"""What the webhook tells the watchdog (SPEC sections 26 and 31): the echo of a send (when the gateway cannot say
the bot's API sent it, only once the bot finds it among its own sends), the sign of life any other authenticated
event is, and the connection's changes."""

from __future__ import annotations

from taskcore.gateway.events import ConnectionChanged, Echo, GatewayEvent
from tasksvc_run.bot.watchdog import Watchdog


async def watched(watchdog: Watchdog, event: GatewayEvent) -> None:
    """Hand the watchdog an echo, or else the sign of life; a connection change also pauses or resumes sending."""
    if isinstance(event, Echo):
        if event.api:
            await watchdog.echo(event.sent)
        else:
            await watchdog.own_upsert(event.sent)
        return
    watchdog.inbound()
    if isinstance(event, ConnectionChanged):
        await watchdog.connection(event.state)
