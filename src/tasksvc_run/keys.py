"""Every aiohttp AppKey of the service, in one place (STYLE habit 4)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

from taskcore.ratelimit import RateLimiter
from taskcore.services import Database
from taskcore.services.people import PublicIds
from taskcore.services.proof_links import ProofLinks
from taskcore.services.web_auth import SessionCache
from taskcore.settings import Settings
from tasksvc_run.clock import Clock
from tasksvc_run.outage import FatalStop

if TYPE_CHECKING:  # also keeps jinja2 out of the bot and prometheus_client out of the web
    import jinja2

    from taskcore.gateway.port import Codec, Gateway
    from taskcore.services.conversation.road import Handled
    from tasksvc_run.bot.deliveries import RecentDeliveries
    from tasksvc_run.bot.inbox_writer import InboxWriter
    from tasksvc_run.bot.photo_fetcher import PhotoFetcher
    from tasksvc_run.bot.processor import InboxProcessor
    from tasksvc_run.bot.watchdog import Watchdog
    from tasksvc_run.metrics import Metrics
    from tasksvc_run.web.language import LanguageCache
    from tasksvc_run.web.list_cache import ListCache

SETTINGS = web.AppKey("settings", Settings)
DB = web.AppKey("db", Database)
CLOCK = web.AppKey("clock", Clock)
METRICS: web.AppKey[Metrics] = web.AppKey("metrics")
LIMITER = web.AppKey("limiter", RateLimiter)
FATAL = web.AppKey("fatal_stop", FatalStop)  # stops the process on a schema error (SPEC section 17)

# Web interface (issue 4).
TEMPLATES: web.AppKey[jinja2.Environment] = web.AppKey("templates")
SESSIONS = web.AppKey("session_cache", SessionCache)
USER = web.RequestKey("user_id", str)
# The request was authenticated by a personal API token, not the session cookie (SPEC section 22).
VIA_TOKEN = web.RequestKey("via_api_token", bool)
# The request's language (SPEC section 24) and each user's, remembered for a few seconds.
LANG = web.RequestKey("lang", str)
LANGUAGE_CACHE: web.AppKey[LanguageCache] = web.AppKey("language_cache")
# People named by public id (SPEC section 32), under the key kept in the database.
PUBLIC_IDS = web.AppKey("public_ids", PublicIds)
# The signed addresses of the photos of photo proof (SPEC section 34).
PROOF_LINKS = web.AppKey("proof_links", ProofLinks)
# The answers of GET /api/me/tasks kept with the person's list stamp (SPEC section 42).
LIST_CACHE: web.AppKey[ListCache] = web.AppKey("list_cache")


# Bot background work: schedulers and the outbound queue worker (issue 6).
class SyncTrigger(Protocol):
    """Runs group sync then member sync now (``/admin sync``)."""

    def request_sync(self) -> None:
        """Start a sync now; returns at once."""
        ...


class OutboundNotifier(Protocol):
    """Wakes the outbound queue worker after something was queued."""

    def notify(self) -> None:
        """Claim now rather than at the next poll."""
        ...


SYNC = web.AppKey("sync", SyncTrigger)
OUTBOUND = web.AppKey("outbound", OutboundNotifier)


# Bot webhook intake (issues 5 and 16): the inbox writer the webhook stores through, and the processor of the inbox.
INBOX: web.AppKey[InboxWriter] = web.AppKey("bot_inbox_writer")
PROCESSOR: web.AppKey[InboxProcessor[Handled]] = web.AppKey("bot_processor")
EVENT_POOL = web.AppKey("bot_event_pool", ThreadPoolExecutor)

# The gateway in use (SPEC section 36): its decoder of webhook calls, and its client (absent without a gateway).
CODEC: web.AppKey[Codec] = web.AppKey("bot_codec")
DELIVERIES: web.AppKey[RecentDeliveries] = web.AppKey("bot_deliveries")  # retried deliveries are one event
GATEWAY: web.AppKey[Gateway] = web.AppKey("bot_gateway")

# The gateway's watchdog (SPEC section 26): echoes, probes, the connection; absent without a gateway.
WATCHDOG: web.AppKey[Watchdog] = web.AppKey("bot_watchdog")
# The photo fetcher (SPEC section 34), woken when an event recorded a photo; absent without a gateway.
PHOTOS: web.AppKey[PhotoFetcher] = web.AppKey("bot_photo_fetcher")
