"""What the admins are told about the gateway (SPEC section 26): the texts, and queueing one direct message to each
admin per outage (a de-duplication key per outage and admin, so a restart or a second unit does not repeat it)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from taskcore.gateway.wire import send_text_body
from taskcore.identity import user_jid
from taskcore.services.queue import enqueue_message
from taskcore.storage.db import Database

PROBE_TEXT = "tasksvc · prueba de entrega (mensaje automático, no hace falta responder)"


def duration(lasted: timedelta) -> str:
    """A duration as people say it: "3 h 5 min", "12 min", "40 s"."""
    seconds = int(lasted.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min" if minutes else f"{seconds} s"


def delivery_down() -> str:
    """Echoes stopped: the webhook is silent."""
    return ("⚠️ El bot no recibe los mensajes del grupo: la pasarela (gateway) no llama al webhook. "
            "Ya se volvió a registrar el webhook sin éxito. Revisa la pasarela (reiniciarla suele bastar); "
            "avisaré cuando vuelva a funcionar.")


def delivery_back(lasted: timedelta) -> str:
    """Echoes arrive again."""
    return f"✅ El bot vuelve a recibir mensajes (sin recibirlos durante {duration(lasted)})."


def connection_back(lasted: timedelta, late: int) -> str:
    """The WhatsApp session is open again after a long outage."""
    return (f"✅ WhatsApp vuelve a estar conectado tras {duration(lasted)} sin conexión. "
            f"Mensajes que salen ahora con retraso: {late}.")


def notify_admins(
    db: Database, admins: Collection[str], text: str, *, key: str, max_attempts: int, now: datetime
) -> int:
    """Queue ``text`` to each admin once per ``key``; how many were queued."""
    queued = 0
    for admin in sorted(admins):
        chat = user_jid(admin)
        job = enqueue_message(db, chat_id=chat, kind="text", payload=send_text_body(chat_id=chat, text=text),
                              label="notice", dedupe_key=f"{key}:{admin}", max_attempts=max_attempts, now=now)
        queued += job is not None
    return queued
