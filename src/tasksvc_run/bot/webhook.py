"""POST /webhook and /webhook/{event}: check the secret, parse, store the event in the inbox, then acknowledge.

The answer is 200 only once the event is committed to the inbox (SPEC section 17); the transaction that stores it
handles it too when its chat has nothing pending (``runner.EventRunner.run_arrived``), otherwise the processor
handles it in the background (``processor.InboxProcessor`` over ``runner.EventRunner.run_inbox``). An event the
bot does nothing with is acknowledged without being stored. 503 with Retry-After when the event could not be stored
within WEBHOOK_STORE_TIMEOUT_MS or too many wait: the gateway delivers it again later.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from aiohttp import web

from taskcore.gateway.echo import SEND_MESSAGE
from taskcore.gateway.inbound import Ignored, InboundEvent, InboundMessage, InboundReaction, chat_key, parse_event
from taskcore.gateway.inbound_models import canonical_event
from taskcore.gateway.repair import repaired
from taskcore.gateway.status import MESSAGES_UPDATE
from taskcore.settings import Settings
from tasksvc_run import keys
from tasksvc_run.bot.delivered import delivered
from tasksvc_run.bot.inbox_writer import NotStored
from tasksvc_run.bot.runner import ArrivedEvent, processor_log
from tasksvc_run.bot.watched import watched
from tasksvc_run.problems import problem
from tasksvc_run.proxy.limits import MAX_BODY
from tasksvc_run.store_health import refusal_reason

SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - the header's name, not a secret
RETRY_AFTER = "5"
MAX_BACKLOG = 10_000  # events stored by this process and not handled yet, past which the webhook answers 503
_unparsed = {SEND_MESSAGE: Ignored("echo", SEND_MESSAGE), MESSAGES_UPDATE: Ignored("status", MESSAGES_UPDATE)}
ACCEPTED = json.dumps({"status": "accepted"}).encode()  # every stored event's answer, encoded once


def secret_ok(request: web.Request, settings: Settings) -> bool:
    """True without WEBHOOK_SECRET; otherwise the header must equal it (constant-time comparison)."""
    if settings.webhook_secret is None:
        return True
    given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
    return hmac.compare_digest(given, settings.webhook_secret.get_secret_value().encode("utf-8"))


def own_instance(payload: dict[str, Any], settings: Settings) -> bool:
    """False for an event that names another instance than GATEWAY_API_INSTANCE; an event naming none, or a bot
    configured with none, is taken as its own."""
    instance = payload.get("instance")
    ours = settings.gateway_api_instance
    return not (ours and isinstance(instance, str) and instance and instance != ours)


def _json_object(body: bytes) -> dict[str, Any] | str:
    """The body as a JSON object, or the reason it is not one."""
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return "the body is not valid JSON"
    return payload if isinstance(payload, dict) else "the body is not a JSON object"


def _as_text(body: bytes, payload: dict[str, Any]) -> str:
    """The body as stored: the text received (JSON may also come in UTF-16 or -32, or hold an encoded surrogate: then
    re-encoded, repaired, so that the text always encodes)."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return json.dumps(repaired(payload), ensure_ascii=False)


async def _received(request: web.Request) -> tuple[bytes, dict[str, Any]] | web.Response:
    """The body and the JSON object it holds, or the problem answer: 413 past the proxy's limit (the same 10 MiB),
    400 when it is not a JSON object."""
    try:
        body = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return problem(413, f"webhook bodies are limited to {MAX_BODY // 2**20} MiB")
    payload = _json_object(body)
    return problem(400, payload) if isinstance(payload, str) else (body, payload)


def _for_delivery(name: str, event: InboundEvent) -> bool:
    """What the delivery use cases look at: status updates, a person's direct message, any reaction and a reply
    quoting a message (it may be one the bot is sending right now); a group's plain message is none of their
    business."""
    if name == MESSAGES_UPDATE or isinstance(event, InboundReaction):
        return True
    return isinstance(event, InboundMessage) and (event.group_id is None or event.quoted_id is not None)


async def _noted(app: web.Application, name: str, event: InboundEvent, payload: dict[str, Any],
                 path_event: str | None) -> web.Response | None:
    """Hand the delivery use cases what they keep (SPEC section 31); the 503 answer when it could not be stored."""
    try:
        await delivered(app, name, event, payload, path_event)
    except Exception as exc:
        if (refusal := refusal_reason(exc)) is not None:  # the store's news, said once (SPEC section 40)
            app[keys.FATAL].store.refused(refusal)
        else:
            processor_log.exception("webhook event not recorded; the gateway delivers it again", extra={"event": name})
        return problem(503, "the database is not taking writes; retry later", headers={"Retry-After": RETRY_AFTER})
    return None


def _event(app: web.Application, name: str, payload: dict[str, Any], path_event: str | None) -> InboundEvent:
    """The parsed event; another instance's event acts on nothing here, not even the watchdog (SPEC section 32);
    the echo of a send is the watchdog's alone, a status update the delivery's: never an inbox row, never a
    command."""
    if not own_instance(payload, app[keys.SETTINGS]):
        app[keys.METRICS].webhook_events_ignored.labels(reason="instance").inc()
        return Ignored("instance", name)
    return _unparsed.get(name) or parse_event(payload, path_event=path_event)


async def webhook(request: web.Request) -> web.Response:
    """Store a gateway event and acknowledge it; 401 bad secret, 413 over the proxy's body limit, 400 not a JSON
    object, 503 when it could not be stored in time or too many events wait (the gateway delivers it again later)."""
    app = request.app
    if not secret_ok(request, app[keys.SETTINGS]):
        return problem(401, "missing or wrong X-Webhook-Secret")
    received = await _received(request)
    if isinstance(received, web.Response):
        return received
    body, payload = received
    path_event = request.match_info.get("event")
    name = canonical_event(str(payload.get("event") or path_event or "")) or "unknown"
    app[keys.METRICS].webhook_requests.labels(event=name).inc()
    event = _event(app, name, payload, path_event)
    foreign = isinstance(event, Ignored) and event.reason == "instance"
    if not foreign:
        await watched(app, event, payload, path_event)
    refused = await _noted(app, name, event, payload, path_event) if not foreign and _for_delivery(name, event) \
        else None
    if refused is not None or isinstance(event, Ignored):
        return refused or web.json_response({"status": "ignored", "reason": getattr(event, "reason", "")})
    if app[keys.PROCESSOR].backlog >= MAX_BACKLOG:
        return problem(503, "too many events waiting; retry later", headers={"Retry-After": RETRY_AFTER})
    try:
        await app[keys.INBOX].put(ArrivedEvent(chat_key(event), name, path_event, _as_text(body, payload), event))
    except NotStored:
        return problem(503, "the database is not taking writes; retry later", headers={"Retry-After": RETRY_AFTER})
    return web.Response(body=ACCEPTED, content_type="application/json", charset="utf-8")
