"""What the fake WAHA posts to the webhooks of its session's configuration (contract section 2): the envelope
``{id, timestamp, event, session, metadata, me, payload, engine, environment}``, each POST with its
``X-Webhook-Request-Id`` and ``X-Webhook-Timestamp``, signed with ``X-Webhook-Hmac`` (SHA-512 of the exact bytes
sent) when the webhook has an HMAC key, its custom headers, and retried on any non-2xx as its ``retries`` say (the
same request id each time).

``WahaEffects`` says what follows an accepted send: its echo (``message.any``), then receipts (``message.ack`` in a
direct chat, ``message.ack.group`` once per member in a group; DEVICE by default, as GOWS emits no SERVER ack).
Switches a test (or an operator of ``tasksvc dev``) flips: ``delivering`` off drops every event silently. Only
loopback addresses are ever posted to: a webhook elsewhere counts as unreachable.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from tasksvc_run.devgateway import waha_records as records
from tasksvc_run.devgateway.waha_wire import VERSION, event_id

DELIVERY_TIMEOUT = 10.0  # seconds one POST may take (WAHA sets none; a fake must not hang a test)
MAX_DELAY = 30.0  # seconds between retries at most, whatever the configuration says
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def subscribed(hook: Mapping[str, Any], event: str) -> bool:
    """Whether a webhook of the configuration takes ``event``: a URL and the event (or ``*``) among its events."""
    events = hook.get("events") or []
    return bool(hook.get("url")) and (event in events or "*" in events)


def retry_delays(hook: Mapping[str, Any]) -> list[float]:
    """The waits before each retry: WAHA's default 15 tries 2 s apart, or the hook's ``retries``."""
    retries = hook.get("retries") or {}
    attempts = retries.get("attempts", 15) if isinstance(retries, Mapping) else 15
    delay = float(retries.get("delaySeconds", 2)) if isinstance(retries, Mapping) else 2.0
    policy = retries.get("policy", "constant") if isinstance(retries, Mapping) else "constant"
    waits = [delay * (n + 1) if policy == "linear" else delay * 2**n if policy == "exponential" else delay
             for n in range(max(0, int(attempts)))]
    return [min(wait, MAX_DELAY) for wait in waits]


@dataclass(frozen=True)
class Posted:
    """One POST the fake made: the event, the envelope, the status it got (None: no answer), its request id."""

    event: str
    body: dict[str, Any]
    status: int | None
    request_id: str
    headers: dict[str, str]


@dataclass
class WahaDeliveries:
    """Posts events to the webhooks of the session's configuration; every POST is kept in ``posted``."""

    session: str
    delivering: bool = True
    posted: list[Posted] = field(default_factory=list)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def envelope(self, event: str, payload: Any, me: records.Me | None, metadata: Any) -> dict[str, Any]:
        """The envelope of one event."""
        return {"id": event_id(), "timestamp": int(time.time() * 1000), "event": event, "session": self.session,
                "metadata": metadata if isinstance(metadata, Mapping) else {}, "me": me.info() if me else None,
                "payload": payload, "engine": "GOWS", "environment": VERSION}

    def emit_all(self, config: Mapping[str, Any] | None, events: Sequence[tuple[str, Any]],
                 me: records.Me | None) -> None:
        """Post ``events`` (name, payload) in order, in the background, to each webhook that takes them."""
        if not config or not self.delivering or not events:
            return
        hooks = [hook for hook in config.get("webhooks") or [] if isinstance(hook, Mapping)]
        for hook in hooks:
            wanted = [self.envelope(name, payload, me, config.get("metadata")) for name, payload in events
                      if subscribed(hook, name)]
            if wanted:
                task = asyncio.get_running_loop().create_task(self._post_all(dict(hook), wanted))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def emit(self, config: Mapping[str, Any] | None, event: str, payload: Any, me: records.Me | None) -> None:
        """Post one event (see ``emit_all``)."""
        self.emit_all(config, [(event, payload)], me)

    async def _post_all(self, hook: dict[str, Any], envelopes: list[dict[str, Any]]) -> None:
        for envelope in envelopes:
            await self._deliver(hook, envelope)

    def headers(self, hook: Mapping[str, Any], body: bytes, envelope: Mapping[str, Any]) -> dict[str, str]:
        """The headers of one POST (a fresh request id; the same for its retries)."""
        headers = {"Content-Type": "application/json", "User-Agent": f"WAHA/{VERSION['version']}",
                   "X-Webhook-Request-Id": secrets.token_hex(13), "X-Webhook-Timestamp": str(envelope["timestamp"])}
        key = (hook.get("hmac") or {}).get("key") if isinstance(hook.get("hmac"), Mapping) else None
        if key:
            headers["X-Webhook-Hmac"] = hmac.new(key.encode(), body, hashlib.sha512).hexdigest()
            headers["X-Webhook-Hmac-Algorithm"] = "sha512"
        for custom in hook.get("customHeaders") or []:
            headers[str(custom["name"])] = str(custom["value"])
        return headers

    async def _deliver(self, hook: Mapping[str, Any], envelope: dict[str, Any]) -> None:
        body = json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        headers = self.headers(hook, body, envelope)
        for wait in [0.0, *retry_delays(hook)]:
            await asyncio.sleep(wait)
            status = await self._post(str(hook["url"]), body, headers)
            self.posted.append(Posted(envelope["event"], envelope, status, headers["X-Webhook-Request-Id"], headers))
            if status is not None and 200 <= status < 300:
                return

    async def _post(self, url: str, body: bytes, headers: Mapping[str, str]) -> int | None:
        if urlsplit(url).hostname not in LOOPBACK:  # a fake never reaches past this machine: the POST fails
            return None
        try:
            async with aiohttp.ClientSession() as session, session.post(
                url, data=body, headers=dict(headers), timeout=aiohttp.ClientTimeout(total=DELIVERY_TIMEOUT),
            ) as answer:
                return answer.status
        except (aiohttp.ClientError, TimeoutError):
            return None

    def of(self, event: str) -> list[Posted]:
        """The posts of one event, in order (retries included)."""
        return [post for post in self.posted if post.event == event]

    async def settle(self, within: float = 5.0) -> None:
        """Wait until every post under way is answered (bounded by ``within``)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=within)

    async def close(self, within: float = 2.0) -> None:
        """Let the posts under way finish (bounded), then cancel what is left."""
        await self.settle(within)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


@dataclass
class WahaEffects:
    """The switches of what follows a send, and whom the number has heard from in private (user digits):
    ``refuse_cold`` makes a direct message to anyone else fail at once with HTTP 500 naming error 463."""

    statuses: bool = True
    echo: bool = True
    refuse_cold: bool = False
    ack_levels: tuple[int, ...] = (2,)  # receipts after each send: DEVICE (add 3, READ; 1 SERVER is never emitted)
    wrote_privately: set[str] = field(default_factory=set)

    def refused(self, chat: str) -> bool:
        """Whether WhatsApp refuses a direct message to ``chat`` (a person who never wrote in private)."""
        user = chat.partition("@")[0]
        return self.refuse_cold and not records.is_group(chat) and user not in self.wrote_privately

    def events(self, record: Mapping[str, Any], members: Sequence[str]) -> list[tuple[str, Any]]:
        """The events a send of ``record`` posts, in order; ``members`` the group's (the bot left out)."""
        found: list[tuple[str, Any]] = [("message.any", record)] if self.echo else []
        if not self.statuses:
            return found
        now = time.time()
        for level in self.ack_levels:
            if records.is_group(str(record["from"])):
                found += [("message.ack.group", records.ack(record, level, member, now)) for member in members]
            else:
                found.append(("message.ack", records.ack(record, level, None, now)))
        return found
