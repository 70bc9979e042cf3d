"""What the local gateway calls and keeps (../shared/gateway/CONTRACT.md sections 2-4): events posted to the
registered webhook as the real gateway posts them (``send.message`` echoes, ``connection.update``), honouring the
webhook row's ``enabled``, ``events``, ``headers`` and ``webhookByEvents``, and the store of sent messages that
``findMessages`` searches.

Switches a test (or an operator of ``tasksvc dev``) flips: ``delivering`` off drops every event silently, as a gateway
whose webhooks went quiet (Evolution API #2665).
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
from aiohttp import web

from tasksvc_run.devgateway import wire

DELIVERY_TIMEOUT = 10.0  # seconds a webhook POST may take (the real gateway allows 30)


def subscribed(row: Mapping[str, Any] | None, event: str) -> bool:
    """Whether the webhook row takes ``event`` (dotted, ``send.message``): enabled, and listed or ``events`` empty."""
    if not row or not row.get("enabled") or not row.get("url"):
        return False
    events = row.get("events") or []
    return not events or event.upper().replace(".", "_").replace("-", "_") in events


def target_url(row: Mapping[str, Any], event: str) -> str:
    """The URL an event goes to: the row's ``url``, suffixed ``/send-message`` with ``webhookByEvents``."""
    url = str(row["url"])
    if row.get("webhookByEvents"):
        return f"{url.rstrip('/')}/{event.replace('.', '-')}"
    return url


@dataclass(frozen=True)
class Posted:
    """One event the fake posted to the webhook, and the status it got (None: no answer)."""

    event: str
    body: dict[str, Any]
    status: int | None


@dataclass
class Deliveries:
    """Posts events to the webhook row the gateway holds; every post is kept in ``posted``."""

    instance: str
    sender: str | None
    delivering: bool = True
    posted: list[Posted] = field(default_factory=list)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def envelope(self, event: str, data: Any, row: Mapping[str, Any]) -> dict[str, Any]:
        """The envelope ``{event, instance, data, destination, date_time, sender, server_url, apikey}``."""
        return {"event": event, "instance": self.instance, "data": data, "destination": row.get("url"),
                "date_time": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "sender": self.sender,
                "server_url": "http://127.0.0.1", "apikey": None}

    def emit(self, row: Mapping[str, Any] | None, event: str, data: Any) -> bool:
        """Post ``event`` in the background when the row takes it and delivery is on; whether it was posted."""
        if row is None or not self.delivering or not subscribed(row, event):
            return False
        body = self.envelope(event, copy.deepcopy(data), row)
        task = asyncio.get_running_loop().create_task(self._post(dict(row), event, body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    def emit_all(self, row: Mapping[str, Any] | None, events: list[tuple[str, Any]]) -> None:
        """Post ``events`` (name, data) one after the other in the background, each one the row takes."""
        if row is None or not self.delivering:
            return
        wanted = [(event, self.envelope(event, copy.deepcopy(data), row)) for event, data in events
                  if subscribed(row, event)]
        if wanted:
            task = asyncio.get_running_loop().create_task(self._post_all(dict(row), wanted))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _post_all(self, row: dict[str, Any], events: list[tuple[str, dict[str, Any]]]) -> None:
        for event, body in events:
            await self._post(row, event, body)

    async def _post(self, row: dict[str, Any], event: str, body: dict[str, Any]) -> None:
        headers = {str(k): str(v) for k, v in (row.get("headers") or {}).items() if k != "jwt_key"}
        status: int | None = None
        try:
            async with aiohttp.ClientSession() as session, session.post(
                target_url(row, event), json=body, headers=headers,
                timeout=aiohttp.ClientTimeout(total=DELIVERY_TIMEOUT),
            ) as answer:
                status = answer.status
        except (aiohttp.ClientError, TimeoutError):
            status = None
        self.posted.append(Posted(event, body, status))

    async def settle(self, within: float = 5.0) -> None:
        """Wait until every post under way is answered (bounded by ``within``)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=within)

    async def close(self, within: float = 2.0) -> None:
        """Let the posts under way be answered (bounded by ``within``), then cancel what is left: a post cut off
        mid-request would leave the receiving server's connection to be closed by the garbage collector."""
        await self.settle(within)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _key_matches(record: Mapping[str, Any], key: Mapping[str, Any]) -> bool:
    mine = record["key"]
    return all(mine.get(name) == key[name] for name in ("remoteJid", "fromMe", "id") if name in key)


def _record(answer: Mapping[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(dict(answer))
    record["id"] = "cm" + wire.message_id().lower()
    record["MessageUpdate"] = [{"status": "SERVER_ACK"}]
    record.pop("status", None)
    return record


@dataclass
class SentStore:
    """The gateway's store of sent messages (``DATABASE_SAVE_DATA_NEW_MESSAGE``): what ``findMessages`` searches."""

    saving: bool = True
    records: list[dict[str, Any]] = field(default_factory=list)

    def keep(self, answer: Mapping[str, Any]) -> None:
        """Store a message the gateway sent (the answer of its send)."""
        if self.saving:
            self.records.append(_record(answer))

    def find(self, body: object) -> tuple[int, Any]:
        """``POST /chat/findMessages``: the records matching ``where.key``, newest first, one page."""
        where = body.get("where") if isinstance(body, Mapping) else None
        key = where.get("key") if isinstance(where, Mapping) else None
        if not isinstance(key, Mapping):
            return 400, wire.error_body(400, ['instance requires property "where"'])
        size = body.get("offset", 50) if isinstance(body, Mapping) else 50
        page = body.get("page", 1) if isinstance(body, Mapping) else 1
        size = size if isinstance(size, int) and size > 0 else 50
        page = page if isinstance(page, int) and page > 0 else 1
        found = [r for r in reversed(self.records) if _key_matches(r, key)]
        chunk = found[(page - 1) * size: page * size]
        pages = (len(found) + size - 1) // size
        return 200, {"messages": {"total": len(found), "pages": pages, "currentPage": page,
                                  "records": copy.deepcopy(chunk)}}


class _Instance(Protocol):
    instance: str
    api_key: str
    state: str
    owner_jid: str | None


def instances_answer(gateway: _Instance, name: str | None, api_key: str | None) -> tuple[int, Any]:
    """``GET /instance/fetchInstances?instanceName=``: the instance's row in an array; 404 for another name."""
    if name not in (None, gateway.instance):
        return 404, wire.error_body(404, [f'The "{name}" instance does not exist'])
    if api_key != gateway.api_key:
        return 401, wire.error_body(401, "Unauthorized")
    return 200, [instance_row(gateway.instance, state=gateway.state, owner_jid=gateway.owner_jid)]


def instance_row(name: str, *, state: str, owner_jid: str | None) -> dict[str, Any]:
    """One row of ``GET /instance/fetchInstances`` (the Prisma model Instance of 2.3.7)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    number = owner_jid.partition("@")[0] if owner_jid else None
    return {"id": wire.INSTANCE_ID, "name": name, "connectionStatus": state, "ownerJid": owner_jid,
            "profileName": "taskbot", "profilePicUrl": None, "integration": "WHATSAPP-BAILEYS", "number": number,
            "token": "0" * 32, "createdAt": stamp, "updatedAt": stamp, "Setting": None,
            "_count": {"Message": 0, "Contact": 0, "Chat": 0}}


def connection_data(instance: str, state: str, reason: int, owner_jid: str | None) -> dict[str, Any]:
    """``data`` of a ``connection.update``; ``wuid`` only with ``open``."""
    data: dict[str, Any] = {"instance": instance, "state": state, "statusReason": reason}
    if state == "open" and owner_jid:
        data |= {"wuid": owner_jid, "profileName": "taskbot"}
    return data


async def json_or_none(request: web.Request) -> Any:
    """The request's JSON body, or None when it has none or it is not JSON."""
    if not request.can_read_body:
        return None
    try:
        return await request.json()
    except ValueError:
        return None
