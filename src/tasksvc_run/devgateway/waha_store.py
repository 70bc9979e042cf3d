"""What the fake WAHA keeps (contract section 4): its message store (``config.gows.storage.messages``: the bot's
sends and the messages it received, looked up by bare id for quotes and the in-doubt check, listed by chat) and the
media files it serves at ``/api/files/{session}/{name}`` (``WHATSAPP_FILES_LIFETIME``: gone when ``forget``-ed)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tasksvc_run.devgateway.waha_wire import ACK_NAMES


def bare(message_id: str) -> str:
    """The bare id of a serialized one (``{fromMe}_{chat}_{ID}[_{participant}]``); any other id as it is."""
    parts = message_id.split("_")
    return parts[2] if len(parts) in (3, 4) else message_id


@dataclass
class WahaStore:
    """Messages by bare id, oldest first: ``saving`` off is a session whose message storage is disabled (nothing
    kept, every look-up misses, quotes go out unquoted)."""

    saving: bool = True
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)

    def keep(self, record: Mapping[str, Any]) -> None:
        """Store one message (a send of the bot's, or one the session received)."""
        if self.saving:
            self.messages[bare(str(record["id"]))] = copy.deepcopy(dict(record))

    def find(self, message_id: str) -> dict[str, Any] | None:
        """A stored message by its bare or serialized id."""
        found = self.messages.get(bare(message_id))
        return copy.deepcopy(found) if found is not None else None

    def acked(self, message_id: str, level: int) -> None:
        """A receipt raised a stored message's ``ack`` (never lowers it)."""
        found = self.messages.get(bare(message_id))
        if found is not None and level > int(found.get("ack") or 0):
            found |= {"ack": level, "ackName": ACK_NAMES[level]}

    def listed(self, chat: str, query: Mapping[str, str]) -> list[dict[str, Any]]:
        """``GET /api/{session}/chats/{chat}/messages``: ``chat`` (or ``all``), ``filter.fromMe``,
        ``filter.timestamp.gte``/``lte``, ``sortOrder``, ``limit`` and ``offset``."""
        wanted = [m for m in self.messages.values() if chat in ("all", m["from"]) and _kept(m, query)]
        wanted.sort(key=lambda m: int(m.get("timestamp") or 0), reverse=query.get("sortOrder", "desc") == "desc")
        offset = int(query.get("offset") or 0)
        limit = int(query.get("limit") or 100)
        return copy.deepcopy(wanted[offset:offset + limit])


def _kept(message: Mapping[str, Any], query: Mapping[str, str]) -> bool:
    from_me = query.get("filter.fromMe")
    if from_me is not None and (from_me == "true") != bool(message.get("fromMe")):
        return False
    stamp = int(message.get("timestamp") or 0)
    return stamp >= int(query.get("filter.timestamp.gte") or 0) and stamp <= int(
        query.get("filter.timestamp.lte") or 2**62)


@dataclass
class WahaMedia:
    """Files by name (their bytes and type), served with the API key; ``forget`` one to play its lifetime out."""

    files: dict[str, tuple[bytes, str]] = field(default_factory=dict)

    def give(self, name: str, data: bytes, mimetype: str = "image/jpeg") -> None:
        """The session downloaded this file."""
        self.files[name] = (data, mimetype)

    def forget(self, name: str) -> None:
        """The file's lifetime is over (``WHATSAPP_FILES_LIFETIME``)."""
        self.files.pop(name, None)
