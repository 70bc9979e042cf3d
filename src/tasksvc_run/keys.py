"""Every aiohttp AppKey of the service, in one place (STYLE habit 4)."""

from __future__ import annotations

from aiohttp import web

from taskcore.ratelimit import RateLimiter
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run.clock import Clock
from tasksvc_run.metrics import Metrics

SETTINGS = web.AppKey("settings", Settings)
DB = web.AppKey("db", Database)
CLOCK = web.AppKey("clock", Clock)
METRICS = web.AppKey("metrics", Metrics)
LIMITER = web.AppKey("limiter", RateLimiter)
