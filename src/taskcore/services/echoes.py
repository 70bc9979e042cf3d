"""The echoes of the bot's sends, one transaction per call (SPEC section 26; queries in ``storage.echoes``)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from taskcore.gateway.events import SentMessage
from taskcore.storage import echoes
from taskcore.unit import Reading, UnitOfWork


def record_echo(uow: UnitOfWork, echo: SentMessage, *, now: datetime) -> bool:
    """Keep one echo; whether it was new."""
    return echoes.record_echo(uow.conn, echo, now=now)


def echoed_among(uow: Reading, message_ids: Collection[str]) -> set[str]:
    """Which of ``message_ids`` any unit saw echoed."""
    conn = uow.conn
    return echoes.echoed_among(conn, message_ids)


def unclaimed_echo(
    uow: Reading, *, chat_id: str, digest: str | None, quoted_id: str | None, since: datetime
) -> str | None:
    """The id of an echo matching this send, received since ``since`` and named by no sent job; None if none."""
    conn = uow.conn
    return echoes.unclaimed_echo(conn, chat_id=chat_id, digest=digest, quoted_id=quoted_id, since=since)


def forget_echoes(uow: UnitOfWork, *, before: datetime) -> int:
    """Delete echoes received before ``before``; how many."""
    return echoes.forget_echoes(uow.conn, before=before)


def named_by_jobs(uow: Reading, message_ids: Collection[str]) -> set[str]:
    """Which of ``message_ids`` a queue job already records as sent."""
    conn = uow.conn
    return echoes.named_by_jobs(conn, message_ids)
