"""The web's session cache: a session read a few seconds ago is answered from memory, never past its expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select

from taskcore.services.web_auth import (
    SESSION_ABSOLUTE_TTL,
    SESSION_CACHE_TTL,
    SESSION_IDLE_TTL,
    SESSION_TOUCH_EVERY,
    NewSession,
    SessionCache,
    end_session,
    hash_secret,
    issue_login_token,
    look_up_session,
    redeem_login_token,
    touch_session,
)
from taskcore.storage.db import Database
from taskcore.storage.schema import web_sessions
from tasksvc_run import units

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ANA, BEA = "34600000001", "34600000002"
TICK = timedelta(microseconds=1)


def sign_in(db: Database, *, user_id: str = ANA, at: datetime = NOW) -> NewSession:
    return units.run(db, redeem_login_token, token=units.run(db, issue_login_token, user_id=user_id, now=at), now=at)


def user_at(db: Database, cache: SessionCache, session: NewSession, at: datetime) -> str | None:
    found = units.look(db, look_up_session, session_id=session.session_id, now=at, cache=cache)
    return None if found is None else found.user_id


def delete_row(db: Database, session: NewSession) -> None:
    """What another process ending the session (or the clean-up) does."""
    with db.write() as conn:
        conn.execute(delete(web_sessions).where(web_sessions.c.id_hash == hash_secret(session.session_id)))


def test_a_session_read_moments_ago_is_answered_without_the_database(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    assert user_at(db, cache, session, NOW) == ANA
    delete_row(db, session)
    assert user_at(db, cache, session, NOW + SESSION_CACHE_TTL - TICK) == ANA


def test_a_session_ended_elsewhere_is_refused_once_the_cache_window_passes(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    assert user_at(db, cache, session, NOW) == ANA
    delete_row(db, session)
    assert user_at(db, cache, session, NOW + SESSION_CACHE_TTL) is None


def test_the_cache_window_is_at_most_five_seconds() -> None:
    assert timedelta(seconds=5) >= SESSION_CACHE_TTL
    assert SessionCache(ttl=timedelta(minutes=1)).ttl == SESSION_CACHE_TTL


def test_a_session_ended_and_forgotten_in_this_process_is_refused_at_once(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    assert user_at(db, cache, session, NOW) == ANA
    units.run(db, end_session, session_id=session.session_id)
    cache.forget(session.session_id)
    assert user_at(db, cache, session, NOW) is None


def test_a_cached_session_still_expires_at_its_absolute_expiry(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    end = NOW + SESSION_ABSOLUTE_TTL
    with db.write() as conn:  # used just before the end, so only the absolute expiry can refuse it
        conn.execute(web_sessions.update().values(last_used_at=end - timedelta(minutes=1)))
    assert user_at(db, cache, session, end - TICK) == ANA
    assert user_at(db, cache, session, end) is None


def test_a_cached_session_idle_for_seven_days_is_refused(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    assert user_at(db, cache, session, NOW) == ANA
    assert user_at(db, cache, session, NOW + SESSION_IDLE_TTL) is None


def test_a_due_touch_is_reported_once_per_burst_of_requests(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    later = NOW + SESSION_TOUCH_EVERY
    first = units.look(db, look_up_session, session_id=session.session_id, now=later, cache=cache)
    second = units.look(db, look_up_session, session_id=session.session_id, now=later, cache=cache)
    assert (first and first.touch_due, second and second.touch_due) == (True, False)


def test_after_the_reported_touch_the_session_lives_seven_days_from_it(db: Database) -> None:
    session, cache = sign_in(db), SessionCache()
    later = NOW + timedelta(days=6)
    found = units.look(db, look_up_session, session_id=session.session_id, now=later, cache=cache)
    assert found is not None
    assert found.touch_due
    units.run(db, touch_session, session_id=session.session_id, now=later)
    assert user_at(db, SessionCache(), session, later + SESSION_IDLE_TTL - TICK) == ANA
    with db.read() as conn:
        stored = conn.execute(select(web_sessions.c.last_used_at)).scalar_one()
    assert stored == later


def test_unknown_and_malformed_session_ids_are_never_cached(db: Database) -> None:
    cache = SessionCache()
    assert units.look(db, look_up_session, session_id="A" * 43, now=NOW, cache=cache) is None
    assert units.look(db, look_up_session, session_id="short", now=NOW, cache=cache) is None
    session = sign_in(db)  # a session created afterwards is found at once
    assert user_at(db, cache, session, NOW) == ANA


def test_the_cache_keeps_at_most_its_bound_dropping_the_least_recently_read(db: Database) -> None:
    cache = SessionCache(max_entries=1)
    ana, bea = sign_in(db), sign_in(db, user_id=BEA)
    assert (user_at(db, cache, ana, NOW), user_at(db, cache, bea, NOW)) == (ANA, BEA)
    delete_row(db, ana)
    delete_row(db, bea)
    assert user_at(db, cache, bea, NOW) == BEA  # still cached
    assert user_at(db, cache, ana, NOW) is None  # dropped, so read again: gone
