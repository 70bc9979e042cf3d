"""Queries of quiet hours and away (SPEC section 25): each person's window and away date in ``user_preferences``,
and the messages held during quiet hours (``held_messages``, searched by ``release_at``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, delete, select, update

from taskcore.reminders import DEFAULT_TIME, ReminderFreq
from taskcore.storage.prepared import dialect_insert
from taskcore.storage.schema import held_messages, user_preferences
from taskcore.storage.sql import insert_ignore

p, h = user_preferences, held_messages


class ChoreSettings(NamedTuple):
    """A person's quiet window (``HH:MM`` both or neither), away date and chosen zone, as stored."""

    quiet_from: str | None
    quiet_to: str | None
    away_until: date | None
    tz: str | None


class HeldRow(NamedTuple):
    """One held message."""

    id: int
    user_id: str
    chat_id: str
    text: str
    held_at: datetime


def load_settings(conn: Connection, user_id: str) -> ChoreSettings:
    """The person's quiet window, away date and zone (all None when they saved nothing)."""
    row = conn.execute(select(p.c.quiet_from, p.c.quiet_to, p.c.away_until, p.c.tz)
                       .where(p.c.user_id == user_id)).first()
    if row is None:
        return ChoreSettings(None, None, None, None)
    return ChoreSettings(row.quiet_from, row.quiet_to, _date(row.away_until), row.tz)


def _date(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def save_settings(conn: Connection, *, user_id: str, values: Mapping[str, Any], now: datetime) -> None:
    """Set the given columns (quiet_from, quiet_to, away_until) of the person's row, creating it (reminders off)."""
    insert_ignore(conn, p, {"user_id": user_id, "freq": ReminderFreq.OFF.value, "time": DEFAULT_TIME,
                            "updated_at": now, "tz": None, "next_due_at": None}, ["user_id"])
    conn.execute(update(p).where(p.c.user_id == user_id).values(**values))


def away_dates(conn: Connection, user_ids: Collection[str]) -> dict[str, date]:
    """The away dates of those of ``user_ids`` who set one (one statement)."""
    if not user_ids:
        return {}
    rows = conn.execute(select(p.c.user_id, p.c.away_until).where(
        p.c.user_id.in_(list(user_ids)), p.c.away_until.is_not(None)))
    return {row.user_id: date.fromisoformat(row.away_until) for row in rows}


def hold_many(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert held messages (user_id, chat_id, text, label, dedupe_key, held_at, release_at) in one driver call; a
    dedupe_key held before is left out."""
    if rows:
        stmt = dialect_insert(conn.dialect.name, h).on_conflict_do_nothing(index_elements=["dedupe_key"])
        conn.execute(stmt, [dict(row) for row in rows])


def due_held(conn: Connection, *, now: datetime, limit: int) -> list[HeldRow]:
    """Up to ``limit`` held messages whose release has come, oldest release first (the index on release_at)."""
    rows = conn.execute(select(h.c.id, h.c.user_id, h.c.chat_id, h.c.text, h.c.held_at)
                        .where(h.c.release_at <= now).order_by(h.c.release_at, h.c.user_id, h.c.id).limit(limit))
    return [HeldRow(int(r.id), r.user_id, r.chat_id, r.text, r.held_at) for r in rows]


def take_held(conn: Connection, ids: Collection[int]) -> set[int]:
    """Delete the held rows ``ids``; the ids this call deleted (another instance may have taken some first)."""
    if not ids:
        return set()
    return {int(i) for i in conn.execute(delete(h).where(h.c.id.in_(list(ids))).returning(h.c.id)).scalars()}
