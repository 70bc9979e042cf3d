"""WAHA's webhook envelope (contract section 2, "Envelope"): ``{id, timestamp, event, session, metadata, me,
payload, engine, environment}``, read once for every decoder of an event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taskcore.gateway.waha import read
from taskcore.gateway.waha.jids import Me, device_of, lid_digits, phone_digits

__all__ = ["Envelope", "envelope_of", "me_of"]


@dataclass(frozen=True, slots=True)
class Envelope:
    """One webhook body: the event's name (lower case), the session it came from (the port's ``instance``), the bot's
    own account as ``me`` gives it (empty before the session is paired) and the event's ``payload``."""

    event: str
    session: str
    me: Me
    payload: Mapping[str, Any]

    @property
    def bot_id(self) -> str | None:
        """The bot's phone digits (``me.id``), as every event of the port names the bot."""
        return self.me.phone


def me_of(value: object) -> Me:
    """The bot's account from a ``me`` object (``{id: <pn>@c.us, lid: <lid>@lid, jid: <pn>:<device>@s.whatsapp.net}``):
    an empty one when it is null or unreadable."""
    me = read.mapping(value)
    return Me(phone_digits(me.get("id")) or phone_digits(me.get("jid")), lid_digits(me.get("lid")),
              device_of(read.string(me, "jid")))


def envelope_of(body: Mapping[str, Any], path_event: str | None = None) -> Envelope | None:
    """The envelope of a webhook body; ``path_event`` names the event when the body does not. None without an event
    name or a payload object."""
    name = read.text(body, "event") or path_event
    payload = body.get("payload")
    if not name or not isinstance(payload, Mapping):
        return None
    return Envelope(name.strip().lower(), read.string(body, "session") or "", me_of(body.get("me")), payload)
