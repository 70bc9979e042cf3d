"""The reverse proxy: /webhook and /metrics to the bot, /health here (with the bot's word on its database: health.py),
everything else to the web (R1-R3, R6).

Written at the asyncio protocol level with httptools' parser (PERFORMANCE.md: the aiohttp client/server pair cost more
CPU per request than the hello-world server it fronted): keep-alive upstream connections in one bounded pool per
upstream, each header looked at once, bodies passed through as they come, responses re-framed only because R6 takes
their Content-Length away. ``Proxy`` serves on a socket, on any asyncio loop; ``run_proxy`` is `tasksvc proxy`, on
uvloop's loop (``new_loop``), which costs 9-18% less CPU per request than asyncio's (docs/decisions.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import uvloop

from taskcore.settings import Settings
from tasksvc_run.proxy.client import ClientConnection, Context
from tasksvc_run.proxy.heads import route
from tasksvc_run.proxy.health import BotHealth
from tasksvc_run.proxy.limits import MAX_BODY, BodyLimits, PoolLimits
from tasksvc_run.proxy.pool import Pool

__all__ = ["MAX_BODY", "BodyLimits", "PoolLimits", "Proxy", "make_proxy", "new_loop", "route", "run_proxy"]
log = logging.getLogger(__name__)
SHUTDOWN_GRACE = 5.0  # seconds in-flight requests get to finish at a stop


class Proxy:
    """The proxy in front of its upstreams (``name -> http://host:port``), serving once ``start`` is awaited."""

    def __init__(self, upstreams: dict[str, str], *, timeout: float, body_limits: BodyLimits | None = None,
                 pool_limits: PoolLimits | None = None) -> None:
        self.upstreams = dict(upstreams)
        self.timeout = timeout
        self.body_limits = body_limits or BodyLimits()
        self.pool_limits = pool_limits or PoolLimits()
        self.server: asyncio.Server | None = None
        self.ctx: Context | None = None

    async def start(self, host: str | None, port: int) -> int:
        """Listen on ``host:port`` (port 0: a free one); the port it listens on."""
        loop = asyncio.get_running_loop()
        pools = {name: Pool(loop, name, url, size=self.pool_limits.sizes.get(name, 16), wait=self.pool_limits.wait,
                            timeout=self.timeout) for name, url in self.upstreams.items()}
        health = BotHealth(loop, self.upstreams["bot"]) if "bot" in self.upstreams else None
        ctx = self.ctx = Context(loop, pools, self.body_limits, health=health)
        self.server = await loop.create_server(lambda: ClientConnection(ctx), host, port, backlog=1024,
                                               reuse_address=True)
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop listening, let requests in flight finish (at most ``grace`` seconds), then close everything."""
        if self.server is None or self.ctx is None:
            return
        self.server.close()
        ctx = self.ctx
        ctx.stopping = True
        for conn in list(ctx.connections):
            conn.stopping = True
            if not conn.queue:
                conn.close()
        if ctx.connections:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(grace):
                    await ctx.drained.wait()
        for conn in list(ctx.connections):
            conn.transport.abort() if conn.transport else None
        for pool in ctx.pools.values():
            pool.close()
        await self.server.wait_closed()
        await asyncio.sleep(0)


def make_proxy(settings: Settings, *, bot_url: str | None = None, web_url: str | None = None,
               dev_url: str | None = None, body_limits: BodyLimits | None = None,
               pool_limits: PoolLimits | None = None) -> Proxy:
    """The proxy; upstreams default to 127.0.0.1 on BOT_PORT and WEB_PORT; /dev/ goes to ``dev_url`` if given (in
    development only)."""
    upstreams = {"bot": bot_url or f"http://127.0.0.1:{settings.bot_port}",
                 "web": web_url or f"http://127.0.0.1:{settings.web_port}"}
    if dev_url and settings.node_env == "development":
        upstreams["dev"] = dev_url
    return Proxy(upstreams, timeout=settings.proxy_upstream_timeout_ms / 1000, body_limits=body_limits,
                 pool_limits=pool_limits)


def new_loop() -> asyncio.AbstractEventLoop:
    """The event loop `tasksvc proxy` serves on: uvloop's, whose reads, writes and timers are C, not Python."""
    return uvloop.new_event_loop()


def run_proxy(settings: Settings, *, dev_url: str | None = None) -> int:
    """`tasksvc proxy`: serve on HOST:PORT until SIGTERM or SIGINT, then stop within SHUTDOWN_GRACE seconds."""

    async def serve() -> None:
        proxy = make_proxy(settings, dev_url=dev_url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):  # before the port opens: whoever sees it may stop us
            loop.add_signal_handler(signum, stop.set)
        await proxy.start(settings.host, settings.port)
        log.info("proxy listening", extra={"port": settings.port})
        await stop.wait()
        await proxy.close()

    with asyncio.Runner(loop_factory=new_loop) as runner:
        runner.run(serve())
    return 0
