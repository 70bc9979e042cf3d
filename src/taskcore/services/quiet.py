"""Quiet hours and away, the use cases (SPEC section 25): save or forget a person's window and away date, read
them, and release the messages held during quiet hours, merged into one per person, once whatever the number of
bot instances."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, time

from sqlalchemy import Connection

from taskcore.chores.away import check_away_until, is_away
from taskcore.chores.quiet import HeldBundle, HeldMessage, QuietHours, merge_held
from taskcore.gateway.outbound import chat_jid, text_payload
from taskcore.i18n import _, speaking
from taskcore.queue_rules import JobKind
from taskcore.services.languages import languages_of
from taskcore.storage import quiet as q
from taskcore.storage.queue import enqueue
from taskcore.storage.users import ensure_user
from taskcore.unit import Reading, UnitOfWork

HELD_LABEL = "held"
RELEASE_BATCH = 500  # held rows released per transaction


@dataclass(frozen=True, slots=True)
class ChoreSettings:
    """A person's quiet window (None: none) and the last day they are away (None: not away)."""

    quiet: QuietHours | None
    away_until: date | None


def window_of(quiet_from: str | None, quiet_to: str | None) -> QuietHours | None:
    """The stored ``HH:MM`` pair as a window; None when either is missing."""
    if quiet_from is None or quiet_to is None:
        return None
    return QuietHours(time.fromisoformat(quiet_from), time.fromisoformat(quiet_to))


def settings_in(conn: Connection, user_id: str) -> ChoreSettings:
    """The person's settings inside an open transaction."""
    saved = q.load_settings(conn, user_id)
    return ChoreSettings(window_of(saved.quiet_from, saved.quiet_to), saved.away_until)


def chore_settings(uow: Reading, *, user_id: str) -> ChoreSettings:
    """The person's quiet window and away date."""
    conn = uow.conn
    return settings_in(conn, user_id)


def away_today(uow: Reading, *, user_ids: Collection[str], today: date) -> dict[str, date]:
    """Those of ``user_ids`` away on ``today``, with their last day away (one statement)."""
    conn = uow.conn
    dates = q.away_dates(conn, user_ids)
    return {user: until for user, until in dates.items() if is_away(until, today)}


def set_quiet(uow: UnitOfWork, *, user_id: str, window: QuietHours | None, now: datetime) -> None:
    """Save the person's quiet window, or with None remove it."""
    values: dict[str, str | None] = {"quiet_from": None, "quiet_to": None} if window is None else {
        "quiet_from": f"{window.start:%H:%M}", "quiet_to": f"{window.end:%H:%M}"}
    _save(uow.conn, user_id, values, now)


def set_away(uow: UnitOfWork, *, user_id: str, until: date | None, today: date, now: datetime) -> date | None:
    """Away through ``until`` (today or later: InvalidChoreSetting otherwise), or with None back now."""
    kept = None if until is None else check_away_until(until, today)
    _save(uow.conn, user_id, {"away_until": None if kept is None else kept.isoformat()}, now)
    return kept


def _save(conn: Connection, user_id: str, values: dict[str, str | None], now: datetime) -> None:
    ensure_user(conn, user_id, now)
    q.save_settings(conn, user_id=user_id, values=values, now=now)


def release_held(uow: UnitOfWork, *, now: datetime, max_attempts: int, default_language: str) -> int:
    """Queue, merged into one message per person, every held message whose release has come, deleting them in the
    same transaction; how many messages were queued."""
    queued = 0
    while True:
        done, more = _release_batch(uow.conn, now, max_attempts, default_language)
        queued += done
        if not more:
            return queued


def _release_batch(conn: Connection, now: datetime, max_attempts: int, default: str) -> tuple[int, bool]:
    """One batch: the rows this transaction deleted (another instance's are left to it) go out merged."""
    rows = q.due_held(conn, now=now, limit=RELEASE_BATCH)
    taken = q.take_held(conn, [row.id for row in rows])
    mine = [row for row in rows if row.id in taken]
    bundles = merge_held(HeldMessage(row.user_id, row.held_at, row) for row in sorted(mine, key=lambda row: row.id))
    langs = languages_of(conn, [bundle.user_id for bundle in bundles], default)
    queued = sum(_queue_bundle(conn, bundle, langs[bundle.user_id], now, max_attempts) for bundle in bundles)
    return queued, len(rows) == RELEASE_BATCH


def _queue_bundle(conn: Connection, bundle: HeldBundle[q.HeldRow], lang: str, now: datetime, attempts: int) -> int:
    chat = bundle.items[0].chat_id
    with speaking(lang):
        text = "\n\n".join([merged_header(), *(row.text for row in bundle.items)])
    ids = ",".join(str(row.id) for row in sorted(bundle.items, key=lambda row: row.id))
    key = "held:" + hashlib.sha256(ids.encode()).hexdigest()[:32]
    job = enqueue(conn, chat_id=chat_jid(chat), kind=JobKind.TEXT, payload=text_payload(chat_id=chat, text=text),
                  label=HELD_LABEL, dedupe_key=key, max_attempts=attempts, now=now)
    return 0 if job is None else 1


def merged_header() -> str:
    """The first line of a released bundle, in the language in force."""
    return _("🔕 Mientras estabas en horas de silencio:")
