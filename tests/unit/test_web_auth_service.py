"""Web sign-in: single-use login tokens and hashed, expiring sessions (SPEC section 6, seed A2/A3)."""

from __future__ import annotations

import hashlib
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Table, select

from taskcore.errors import Unauthorized
from taskcore.services.web_auth import (
    SESSION_ABSOLUTE_TTL,
    SESSION_IDLE_TTL,
    SESSION_TOUCH_EVERY,
    TOKEN_TTL,
    NewSession,
    end_session,
    hash_secret,
    issue_login_token,
    redeem_login_token,
)
from taskcore.storage.db import Database
from taskcore.storage.schema import users, web_sessions, web_tokens
from tasksvc_run import units
from tests.queries import session_user

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ANA = "34600000001"
TICK = timedelta(microseconds=1)


def sign_in(db: Database, *, user_id: str = ANA, at: datetime = NOW) -> NewSession:
    return units.run(db, redeem_login_token, token=units.run(db, issue_login_token, user_id=user_id, now=at), now=at)


def all_values(db: Database, table: Table) -> str:
    with db.read() as conn:
        return repr(conn.execute(select(table)).all())


def last_used(db: Database, session: NewSession) -> datetime:
    with db.read() as conn:
        stmt = select(web_sessions.c.last_used_at).where(web_sessions.c.id_hash == hash_secret(session.session_id))
        value: datetime = conn.execute(stmt).scalar_one()
        return value


def count(db: Database, table: Table) -> int:
    with db.read() as conn:
        return len(conn.execute(select(table)).all())


# Login tokens


def test_a_login_token_is_32_random_bytes_in_url_safe_base64(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    assert len(token) == 43
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert token != units.run(db, issue_login_token, user_id=ANA, now=NOW)


def test_issuing_a_token_creates_the_user_when_absent(db: Database) -> None:
    units.run(db, issue_login_token, user_id=ANA, now=NOW)
    with db.read() as conn:
        assert conn.execute(select(users.c.id)).scalars().all() == [ANA]


def test_only_the_sha256_of_a_token_is_stored(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    with db.read() as conn:
        stored = conn.execute(select(web_tokens.c.token_hash)).scalar_one()
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    assert token not in all_values(db, web_tokens)


def test_a_token_is_valid_for_15_minutes(db: Database) -> None:
    units.run(db, issue_login_token, user_id=ANA, now=NOW)
    with db.read() as conn:
        assert conn.execute(select(web_tokens.c.expires_at)).scalar_one() == NOW + TOKEN_TTL
    assert timedelta(minutes=15) == TOKEN_TTL


def test_a_token_redeems_for_a_session_of_its_user(db: Database) -> None:
    session = sign_in(db)
    assert session.user_id == ANA
    assert session_user(db, session_id=session.session_id, now=NOW) == ANA


def test_a_token_redeemed_just_before_15_minutes_is_accepted(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    assert units.run(db, redeem_login_token, token=token, now=NOW + TOKEN_TTL - TICK).user_id == ANA


def test_a_token_redeemed_at_exactly_15_minutes_is_refused(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    with pytest.raises(Unauthorized):
        units.run(db, redeem_login_token, token=token, now=NOW + TOKEN_TTL)
    assert count(db, web_sessions) == 0


def test_a_token_redeems_only_once(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    units.run(db, redeem_login_token, token=token, now=NOW)
    with pytest.raises(Unauthorized):
        units.run(db, redeem_login_token, token=token, now=NOW + timedelta(seconds=1))
    assert count(db, web_sessions) == 1


def test_redeeming_marks_the_token_used(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    units.run(db, redeem_login_token, token=token, now=NOW + timedelta(minutes=2))
    with db.read() as conn:
        assert conn.execute(select(web_tokens.c.used_at)).scalar_one() == NOW + timedelta(minutes=2)


@pytest.mark.parametrize("token", ["", "nope", "A" * 43, "A" * 44, "é" * 43, "\ud800" * 43])
def test_an_unknown_or_malformed_token_is_refused(db: Database, token: str) -> None:
    units.run(db, issue_login_token, user_id=ANA, now=NOW)
    with pytest.raises(Unauthorized):
        units.run(db, redeem_login_token, token=token, now=NOW)


def test_the_refusal_does_not_repeat_the_token(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    units.run(db, redeem_login_token, token=token, now=NOW)
    with pytest.raises(Unauthorized) as refused:
        units.run(db, redeem_login_token, token=token, now=NOW)
    assert token not in str(refused.value)
    assert hash_secret(token) not in str(refused.value)


def test_concurrent_redemptions_of_one_token_create_one_session(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    start = threading.Barrier(6)
    outcomes: list[str] = []

    def redeem() -> None:
        start.wait()
        try:
            units.run(db, redeem_login_token, token=token, now=NOW)
            outcomes.append("session")
        except Unauthorized:
            outcomes.append("refused")

    threads = [threading.Thread(target=redeem) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 5 + ["session"]
    assert count(db, web_sessions) == 1


# Sessions


def test_only_the_sha256_of_a_session_id_is_stored(db: Database) -> None:
    session = sign_in(db)
    with db.read() as conn:
        stored = conn.execute(select(web_sessions.c.id_hash)).scalar_one()
    assert stored == hashlib.sha256(session.session_id.encode()).hexdigest()
    assert session.session_id not in all_values(db, web_sessions)


def test_a_session_id_is_32_random_bytes_unrelated_to_the_token(db: Database) -> None:
    token = units.run(db, issue_login_token, user_id=ANA, now=NOW)
    session = units.run(db, redeem_login_token, token=token, now=NOW)
    assert len(session.session_id) == 43
    assert session.session_id != token


def test_a_new_session_expires_30_days_after_creation(db: Database) -> None:
    session = sign_in(db)
    assert session.expires_at == NOW + timedelta(days=30) == NOW + SESSION_ABSOLUTE_TTL
    with db.read() as conn:
        assert conn.execute(select(web_sessions.c.expires_at)).scalar_one() == session.expires_at


def test_the_repr_of_a_new_session_hides_its_id(db: Database) -> None:
    session = sign_in(db)
    assert session.session_id not in repr(session)


def test_an_unknown_session_has_no_user(db: Database) -> None:
    sign_in(db)
    assert session_user(db, session_id="A" * 43, now=NOW) is None
    assert session_user(db, session_id="", now=NOW) is None


def test_a_session_unused_for_just_under_7_days_is_live(db: Database) -> None:
    session = sign_in(db)
    assert session_user(db, session_id=session.session_id, now=NOW + SESSION_IDLE_TTL - TICK) == ANA


def test_a_session_unused_for_exactly_7_days_is_expired(db: Database) -> None:
    session = sign_in(db)
    assert timedelta(days=7) == SESSION_IDLE_TTL
    assert session_user(db, session_id=session.session_id, now=NOW + SESSION_IDLE_TTL) is None


def test_idleness_counts_from_the_last_recorded_use(db: Database) -> None:
    session = sign_in(db)
    session_user(db, session_id=session.session_id, now=NOW + timedelta(days=6))
    assert session_user(db, session_id=session.session_id, now=NOW + timedelta(days=12)) == ANA


def test_a_session_used_every_day_ends_30_days_after_creation(db: Database) -> None:
    session = sign_in(db)
    for day in range(1, 30):
        assert session_user(db, session_id=session.session_id, now=NOW + timedelta(days=day)) == ANA
    assert session_user(db, session_id=session.session_id, now=NOW + SESSION_ABSOLUTE_TTL - TICK) == ANA
    assert session_user(db, session_id=session.session_id, now=NOW + SESSION_ABSOLUTE_TTL) is None


def test_a_use_within_5_minutes_of_the_last_recorded_one_writes_nothing(db: Database) -> None:
    session = sign_in(db)
    assert timedelta(minutes=5) == SESSION_TOUCH_EVERY
    session_user(db, session_id=session.session_id, now=NOW + SESSION_TOUCH_EVERY - TICK)
    assert last_used(db, session) == NOW


def test_a_use_5_minutes_after_the_last_recorded_one_is_recorded(db: Database) -> None:
    session = sign_in(db)
    session_user(db, session_id=session.session_id, now=NOW + SESSION_TOUCH_EVERY)
    assert last_used(db, session) == NOW + SESSION_TOUCH_EVERY


def test_the_touch_window_restarts_from_the_recorded_use(db: Database) -> None:
    session = sign_in(db)
    session_user(db, session_id=session.session_id, now=NOW + timedelta(minutes=6))
    session_user(db, session_id=session.session_id, now=NOW + timedelta(minutes=10))
    assert last_used(db, session) == NOW + timedelta(minutes=6)


def test_an_expired_session_is_not_touched(db: Database) -> None:
    session = sign_in(db)
    session_user(db, session_id=session.session_id, now=NOW + SESSION_IDLE_TTL)
    assert last_used(db, session) == NOW


def test_an_ended_session_has_no_user(db: Database) -> None:
    session = sign_in(db)
    units.run(db, end_session, session_id=session.session_id)
    assert session_user(db, session_id=session.session_id, now=NOW) is None
    assert count(db, web_sessions) == 0


def test_ending_a_session_leaves_the_users_other_sessions(db: Database) -> None:
    phone, laptop = sign_in(db), sign_in(db)
    units.run(db, end_session, session_id=phone.session_id)
    assert session_user(db, session_id=laptop.session_id, now=NOW) == ANA


def test_ending_a_session_twice_or_an_unknown_one_is_harmless(db: Database) -> None:
    session = sign_in(db)
    units.run(db, end_session, session_id=session.session_id)
    units.run(db, end_session, session_id=session.session_id)
    units.run(db, end_session, session_id="not a session")
    assert count(db, web_sessions) == 0
