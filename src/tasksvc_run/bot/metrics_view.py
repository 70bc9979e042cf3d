"""GET /metrics (SPEC sections 7 and 11): 405 for other methods, 404 when disabled, Bearer METRICS_TOKEN when set."""

from __future__ import annotations

import asyncio
import hmac

from aiohttp import web

from taskcore.settings import Settings
from tasksvc_run import keys
from tasksvc_run.problems import problem

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def token_ok(request: web.Request, settings: Settings) -> bool:
    """True without METRICS_TOKEN; otherwise ``Authorization: Bearer <token>`` (constant-time comparison)."""
    if settings.metrics_token is None:
        return True
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    expected = settings.metrics_token.get_secret_value().encode("utf-8")
    matches = hmac.compare_digest(given.strip().encode("utf-8", "surrogateescape"), expected)
    return scheme.lower() == "bearer" and matches


async def metrics_view(request: web.Request) -> web.Response:
    """The process metrics in the Prometheus text format."""
    if request.method != "GET":
        raise web.HTTPMethodNotAllowed(request.method, ["GET"])
    settings = request.app[keys.SETTINGS]
    if not settings.metrics_enabled:
        return problem(404, "metrics are disabled")
    if not token_ok(request, settings):
        return problem(401, "a valid bearer token is required", headers={"WWW-Authenticate": "Bearer"})
    body = await asyncio.to_thread(request.app[keys.METRICS].render)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
