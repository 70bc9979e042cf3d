"""POST /webhook and /webhook/{event}: authenticate, decode once, store the event in the inbox, then acknowledge.

The gateway in use decodes the body into one of the bot's events (``taskcore.gateway.events``, by its codec:
``keys.CODEC``), and each kind goes where it is handled: the echo of the bot's own send to the watchdog, a status
update to the delivery use cases, everything else to the inbox. The answer is 200 only once an inbox event is
committed (SPEC section 17); the transaction that stores it handles it too when its chat has nothing pending
(``runner.EventRunner.run_arrived``), otherwise the processor handles it in the background. An event the bot does
nothing with is acknowledged without being stored. 503 with Retry-After when the event could not be stored within
WEBHOOK_STORE_TIMEOUT_MS or too many wait: the gateway delivers it again later.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from taskcore.gateway.events import (
    DeliveryStatus,
    Echo,
    GatewayEvent,
    Ignored,
    InboundMessage,
    InboundPhoto,
    InboundReaction,
)
from taskcore.services.conversation.road import chat_key
from taskcore.text import repaired
from tasksvc_run import keys
from tasksvc_run.bot.delivered import delivered
from tasksvc_run.bot.inbox_writer import NotStored
from tasksvc_run.bot.runner import ArrivedEvent, processor_log
from tasksvc_run.bot.watched import watched
from tasksvc_run.problems import problem
from tasksvc_run.proxy.limits import MAX_BODY
from tasksvc_run.store_health import refusal_reason

RETRY_AFTER = "5"
MAX_BACKLOG = 10_000  # events stored by this process and not handled yet, past which the webhook answers 503
ACCEPTED = json.dumps({"status": "accepted"}).encode()  # every stored event's answer, encoded once


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


async def _received(request: web.Request) -> bytes | web.Response:
    """The body, or 413 past the proxy's limit (the same 10 MiB)."""
    try:
        return await request.read()
    except web.HTTPRequestEntityTooLarge:
        return problem(413, f"webhook bodies are limited to {MAX_BODY // 2**20} MiB")


def _foreign(app: web.Application, event: GatewayEvent) -> bool:
    """An event of another instance (or session) than GATEWAY_API_INSTANCE, or of none when it is set: it acts on
    nothing here, not even the watchdog (SPEC sections 32 and 38)."""
    ours = app[keys.SETTINGS].gateway_api_instance
    named = event.message if isinstance(event, InboundPhoto) else event
    instance = getattr(named, "instance", None)  # None: an event that names no instance (Ignored); "": one without
    return bool(ours) and instance is not None and instance != ours


def _for_delivery(event: GatewayEvent) -> bool:
    """What the delivery use cases look at: status updates, a person's direct message or photo, any reaction and a
    reply or photo quoting a message (it may be one the bot is sending right now); a group's plain message is none of
    their business."""
    if isinstance(event, DeliveryStatus | InboundReaction):
        return True
    message = event.message if isinstance(event, InboundPhoto) else event
    return isinstance(message, InboundMessage) and (message.group_id is None or message.quoted_id is not None)


async def _noted(app: web.Application, event: GatewayEvent) -> web.Response | None:
    """Hand the delivery use cases what they keep (SPEC section 31); the 503 answer when it could not be stored."""
    try:
        await delivered(app, event)
    except Exception as exc:
        if (refusal := refusal_reason(exc)) is not None:  # the store's news, said once (SPEC section 40)
            app[keys.FATAL].store.refused(refusal)
        else:
            processor_log.exception("webhook event not recorded; the gateway delivers it again",
                                    extra={"event": event.kind})
        return problem(503, "the database is not taking writes; retry later", headers={"Retry-After": RETRY_AFTER})
    return None


async def webhook(request: web.Request) -> web.Response:
    """Store a gateway event and acknowledge it; 401 not the gateway's, 413 over the proxy's body limit, 400 not a
    JSON object, 503 when it could not be stored in time or too many events wait (the gateway delivers it again
    later)."""
    app = request.app
    body = await _received(request)
    if isinstance(body, web.Response):
        return body
    settings, codec = app[keys.SETTINGS], app[keys.CODEC]
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    if not codec.authentic(request.headers, body, secret):
        return problem(401, "not the gateway's call: missing or wrong webhook secret or signature")
    payload = _json_object(body)
    if isinstance(payload, str):
        return problem(400, payload)
    delivery, taken = codec.delivery(request.headers, payload), app[keys.DELIVERIES]
    if delivery is not None and delivery in taken:  # a retry of a delivery already taken in: one event
        app[keys.METRICS].webhook_events_ignored.labels(reason="retry").inc()
        return web.json_response({"status": "ignored", "reason": "retry"})
    path_event = request.match_info.get("event")
    event = codec.decode(payload, path_event=path_event)
    if _foreign(app, event):
        app[keys.METRICS].webhook_events_ignored.labels(reason="instance").inc()
        event = Ignored("instance")
    app[keys.METRICS].webhook_requests.labels(event=event.kind).inc()
    answer = await _dispatched(app, event, body, payload, path_event)
    if delivery is not None and answer.status < 500:
        taken.took(delivery)
    return answer


async def _dispatched(app: web.Application, event: GatewayEvent, body: bytes, payload: dict[str, Any],
                      path_event: str | None) -> web.Response:
    """Each kind of event where it is handled (module docstring)."""
    foreign = isinstance(event, Ignored) and event.reason == "instance"
    watchdog = app.get(keys.WATCHDOG)
    if watchdog is not None and not foreign:
        await watched(watchdog, event)
    refused = await _noted(app, event) if _for_delivery(event) else None
    if refused is not None or isinstance(event, Ignored | Echo | DeliveryStatus):
        return refused or web.json_response({"status": "ignored" if isinstance(event, Ignored) else "noted",
                                             "reason": getattr(event, "reason", event.kind)})
    if app[keys.PROCESSOR].backlog >= MAX_BACKLOG:
        return problem(503, "too many events waiting; retry later", headers={"Retry-After": RETRY_AFTER})
    try:
        await app[keys.INBOX].put(ArrivedEvent(chat_key(event), event.kind, path_event, _as_text(body, payload),
                                               gateway=app[keys.CODEC].name, parsed=event))
    except NotStored:
        return problem(503, "the database is not taking writes; retry later", headers={"Retry-After": RETRY_AFTER})
    return web.Response(body=ACCEPTED, content_type="application/json", charset="utf-8")
