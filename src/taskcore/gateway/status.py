"""What became of a message (``messages.update``, ../shared/gateway/CONTRACT.md section 3), pure and tolerant.

``data`` is ``{keyId, remoteJid, fromMe, participant, status, instanceId, messageId}``: ``keyId`` is the message's
``key.id`` (for the bot's sends, the id of the sendText answer), ``status`` a name (``ERROR``, ``PENDING``,
``SERVER_ACK``, ``DELIVERY_ACK``, ``READ``, ``PLAYED``) or Baileys' number 0-5. A list of such objects is read too.
Anything unreadable is skipped; an update of a message the bot did not send (``fromMe`` false) is kept out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taskcore.gateway.addressing import strip_device

MESSAGES_UPDATE = "messages.update"
STATUS_NAMES = ("ERROR", "PENDING", "SERVER_ACK", "DELIVERY_ACK", "READ", "PLAYED")  # Baileys' 0-5, in order
ERROR = "ERROR"
_SEPARATORS = str.maketrans("", "", "._- ")


def is_status_event(name: object) -> bool:
    """Whether an event name (``messages.update``, ``MESSAGES_UPDATE``, ``messages-update``) is a status update."""
    return isinstance(name, str) and name.lower().translate(_SEPARATORS) == "messagesupdate"


@dataclass(frozen=True, slots=True)
class StatusUpdate:
    """One status a message of the bot reached: its key id, its chat (device suffix stripped), the status name and,
    for an ``ERROR``, WhatsApp's code when the gateway gives it (``463``: the reach-out time-lock)."""

    message_id: str
    chat_id: str
    status: str
    error_code: str | None = None

    @property
    def direct(self) -> bool:
        """Whether the message went to a person (not a group, not a broadcast)."""
        return self.chat_id.endswith(("@s.whatsapp.net", "@lid", "@c.us"))

    @property
    def failed(self) -> bool:
        """Whether WhatsApp refused the message."""
        return self.status == ERROR


def _status(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return STATUS_NAMES[value] if 0 <= value < len(STATUS_NAMES) else None
    if isinstance(value, str):
        name = value.strip().upper()
        if name.isdigit():
            return _status(int(name))
        return name if name in STATUS_NAMES else None
    return None


def _error_code(data: Mapping[str, Any]) -> str | None:
    for holder in (data.get("messageStubParameters"), data.get("error"), data.get("errorCode")):
        if isinstance(holder, list) and holder and isinstance(holder[0], str | int):
            return str(holder[0])
        if isinstance(holder, str | int) and not isinstance(holder, bool):
            return str(holder)
    return None


def status_update(data: object) -> StatusUpdate | None:
    """One update of a message the bot sent, or None (unreadable, or not the bot's)."""
    if not isinstance(data, Mapping):
        return None
    raw_key = data.get("key")
    key: Mapping[str, Any] = raw_key if isinstance(raw_key, Mapping) else {}
    ident = data.get("keyId") or key.get("id")
    chat = data.get("remoteJid") or key.get("remoteJid")
    from_me = data.get("fromMe", key.get("fromMe"))
    status = _status(data.get("status"))
    if not isinstance(ident, str) or not ident or not isinstance(chat, str) or not chat or status is None:
        return None
    if from_me is not True:
        return None
    return StatusUpdate(ident, strip_device(chat), status, _error_code(data) if status == ERROR else None)


def parse_status(payload: Mapping[str, Any], *, path_event: str | None = None) -> tuple[StatusUpdate, ...]:
    """The updates of the bot's messages a ``messages.update`` webhook body reports; () for any other event."""
    if not is_status_event(payload.get("event") or path_event):
        return ()
    data = payload.get("data")
    items = data if isinstance(data, list) else [data]
    return tuple(update for update in map(status_update, items) if update is not None)
