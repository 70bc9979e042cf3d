"""What the admins are told about the gateway (SPEC section 26): the texts, and queueing one direct message to each
admin per outage (a de-duplication key per outage and admin, so a restart or a second unit does not repeat it).

The texts are composed in the language in force; ``notify_admins`` composes each admin's in their language (SPEC
section 24), read for all the admins with one statement.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime, timedelta

from taskcore.gateway.outbound import text_payload
from taskcore.i18n import SOURCE, _, speaking
from taskcore.identity import user_jid
from taskcore.services.languages import languages_of
from taskcore.services.queue import enqueue_message
from taskcore.unit import Reading, UnitOfWork

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
    return _("⚠️ El bot no recibe los mensajes del grupo: la pasarela (gateway) no llama al webhook. "
             "Ya se volvió a registrar el webhook sin éxito. Revisa la pasarela (reiniciarla suele bastar); "
             "avisaré cuando vuelva a funcionar.")


def delivery_back(lasted: timedelta) -> str:
    """Echoes arrive again."""
    return _("✅ El bot vuelve a recibir mensajes (sin recibirlos durante {lasted}).", lasted=duration(lasted))


def connection_back(lasted: timedelta, late: int) -> str:
    """The WhatsApp session is open again after a long outage."""
    return _("✅ WhatsApp vuelve a estar conectado tras {lasted} sin conexión. "
             "Mensajes que salen ahora con retraso: {late}.", lasted=duration(lasted), late=late)


def admin_texts(uow: Reading, admins: Collection[str], text: Callable[[], str], *, default: str) -> dict[str, str]:
    """``text()`` composed for each admin in their language (one statement reads them all)."""
    conn = uow.conn
    langs = languages_of(conn, admins, default)
    composed: dict[str, str] = {}
    for admin in admins:
        with speaking(langs[admin]):
            composed[admin] = text()
    return composed


def notify_admins(
    uow: UnitOfWork, admins: Collection[str], text: Callable[[], str], *, key: str, max_attempts: int, now: datetime,
    default_language: str = SOURCE,
) -> int:
    """Queue ``text()``, composed in each admin's language, to each admin once per ``key``; how many were queued."""
    texts = admin_texts(uow, admins, text, default=default_language)
    queued = 0
    for admin in sorted(admins):
        chat = user_jid(admin)
        job = enqueue_message(uow, chat_id=chat, kind="text", payload=text_payload(chat_id=chat, text=texts[admin]),
                              label="notice", dedupe_key=f"{key}:{admin}", max_attempts=max_attempts, now=now)
        queued += job is not None
    return queued
