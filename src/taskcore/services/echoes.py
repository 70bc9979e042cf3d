"""The echoes of the bot's sends, one transaction per call (SPEC section 26; queries in ``storage.echoes``)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from taskcore.gateway.echo import SentMessage
from taskcore.storage import echoes
from taskcore.storage.db import Database


def record_echo(db: Database, echo: SentMessage, *, now: datetime) -> bool:
    """Keep one echo; whether it was new."""
    return db.transact(lambda conn: echoes.record_echo(conn, echo, now=now))


def echoed_among(db: Database, message_ids: Collection[str]) -> set[str]:
    """Which of ``message_ids`` any unit saw echoed."""
    with db.read() as conn:
        return echoes.echoed_among(conn, message_ids)


def unclaimed_echo(
    db: Database, *, chat_id: str, digest: str | None, quoted_id: str | None, since: datetime
) -> str | None:
    """The id of an echo matching this send, received since ``since`` and named by no sent job; None if none."""
    with db.read() as conn:
        return echoes.unclaimed_echo(conn, chat_id=chat_id, digest=digest, quoted_id=quoted_id, since=since)


def forget_echoes(db: Database, *, before: datetime) -> int:
    """Delete echoes received before ``before``; how many."""
    return db.transact(lambda conn: echoes.forget_echoes(conn, before=before))


def named_by_jobs(db: Database, message_ids: Collection[str]) -> set[str]:
    """Which of ``message_ids`` a queue job already records as sent."""
    with db.read() as conn:
        return echoes.named_by_jobs(conn, message_ids)
