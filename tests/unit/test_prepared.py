"""Prepared statements (the webhook's hot path) behave as Connection.execute does: the same conversions both ways,
the same exceptions, inside the caller's transaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import Connection, bindparam, exc, insert, select

from taskcore.storage import schema
from taskcore.storage.db import Database, is_busy_error
from taskcore.storage.prepared import Prepared
from tests.builders import NOW

users = schema.users
INSERT_USER = Prepared(insert(users).returning(users.c.id, users.c.created_at),
                       ["id", "display_name", "created_at", "last_seen_at"])
READ_USER = Prepared(select(users.c.display_name, users.c.last_seen_at).where(users.c.id == bindparam("id")), ["id"])


def test_aware_datetimes_go_in_as_utc_and_come_back_aware(db: Database) -> None:
    madrid_noon = datetime(2026, 11, 22, 12, 0, tzinfo=timezone(timedelta(hours=1)))
    with db.write() as conn:
        row = INSERT_USER.first(conn, {"id": "1", "display_name": "Ana", "created_at": madrid_noon,
                                       "last_seen_at": None})
    assert row == ("1", madrid_noon)
    assert row[1].tzinfo == UTC
    with db.read() as conn:
        assert READ_USER.first(conn, {"id": "1"}) == ("Ana", None)
        assert conn.execute(select(users.c.created_at)).scalar_one() == madrid_noon


def test_the_same_datetime_bound_again_and_a_different_one_after_it_each_go_in_as_themselves(db: Database) -> None:
    later = NOW + timedelta(minutes=5)
    given = [NOW, NOW, later, NOW, later, later + timedelta(microseconds=1)]
    with db.write() as conn:
        for n, instant in enumerate(given):
            INSERT_USER.run(conn, {"id": str(n), "display_name": None, "created_at": instant, "last_seen_at": instant})
    with db.read() as conn:
        rows = conn.execute(select(users.c.created_at, users.c.last_seen_at).order_by(users.c.id)).all()
    assert [tuple(row) for row in rows] == [(instant, instant) for instant in given]


def test_a_row_that_is_not_there_is_none(db: Database) -> None:
    with db.read() as conn:
        assert READ_USER.first(conn, {"id": "nobody"}) is None
        assert READ_USER.all(conn, {"id": "nobody"}) == []


def test_a_naive_datetime_is_refused_as_everywhere_else(db: Database) -> None:
    with db.write() as conn, pytest.raises(ValueError, match="naive"):
        INSERT_USER.run(conn, {"id": "1", "display_name": None, "created_at": datetime(2026, 1, 1),
                               "last_seen_at": None})


def test_driver_errors_come_out_as_sqlalchemy_errors_and_roll_back_the_transaction(db: Database) -> None:
    row = {"id": "1", "display_name": None, "created_at": NOW, "last_seen_at": None}
    with db.write() as conn:
        INSERT_USER.run(conn, row)

    def another_then_a_duplicate(conn: Connection) -> None:
        INSERT_USER.run(conn, {**row, "id": "2"})
        INSERT_USER.run(conn, row)

    with pytest.raises(exc.IntegrityError) as raised:
        db.transact(another_then_a_duplicate)
    assert not is_busy_error(raised.value)
    with db.read() as conn:
        assert READ_USER.first(conn, {"id": "2"}) is None


def test_many_rows_go_in_one_call(db: Database) -> None:
    rows = [{"id": str(i), "display_name": f"U{i}", "created_at": NOW, "last_seen_at": NOW} for i in range(3)]
    with db.write() as conn:
        Prepared(insert(users), ["id", "display_name", "created_at", "last_seen_at"]).run_many(conn, rows)
    with db.read() as conn:
        assert [READ_USER.first(conn, {"id": str(i)}) for i in range(3)] == [(f"U{i}", NOW) for i in range(3)]


def test_rows_given_by_position_go_in_as_the_same_rows_by_name(db: Database) -> None:
    keys = ["id", "display_name", "created_at", "last_seen_at"]
    madrid_noon = datetime(2026, 11, 22, 12, 0, tzinfo=timezone(timedelta(hours=1)))
    rows = [(str(i), f"U{i}", madrid_noon, None if i % 2 else NOW) for i in range(3)]
    with db.write() as conn:
        Prepared(insert(users), list(reversed(keys))).run_rows(conn, [tuple(reversed(row)) for row in rows])
    with db.read() as conn:
        found = conn.execute(select(users.c.id, users.c.display_name, users.c.created_at, users.c.last_seen_at)
                             .order_by(users.c.id)).all()
    assert [tuple(row) for row in found] == rows


def test_rows_by_position_also_carry_the_statements_own_values(db: Database) -> None:
    rename = Prepared(users.update().where(users.c.id == bindparam("who"), users.c.display_name == "Ana")
                      .values(display_name=bindparam("name")), ["who", "name"])
    with db.write() as conn:
        for user_id, name in (("1", "Ana"), ("2", "Bea")):
            INSERT_USER.run(conn, {"id": user_id, "display_name": name, "created_at": NOW, "last_seen_at": None})
        rename.run_rows(conn, [("1", "Ana María"), ("2", "Beatriz")])
    with db.read() as conn:
        assert [READ_USER.first(conn, {"id": user_id}) for user_id in ("1", "2")] == [("Ana María", None),
                                                                                    ("Bea", None)]


def test_a_statement_needing_a_parameter_not_declared_is_refused(db: Database) -> None:
    with db.read() as conn, pytest.raises(ValueError, match="parameters not given"):
        Prepared(select(users.c.id).where(users.c.id == bindparam("id"))).first(conn, {"id": "1"})


def test_a_value_written_into_the_statement_is_sent_with_it(db: Database) -> None:
    named = Prepared(select(users.c.id).where(users.c.display_name == "Ana", users.c.id != bindparam("id")), ["id"])
    with db.write() as conn:
        for user_id, name in (("1", "Ana"), ("2", "Ana"), ("3", "Bea")):
            INSERT_USER.run(conn, {"id": user_id, "display_name": name, "created_at": NOW, "last_seen_at": None})
    with db.read_prepared() as conn:
        assert named.all(conn, {"id": "1"}) == [("2",)]


def test_raw_rows_are_the_drivers_own(db: Database) -> None:
    with db.write() as conn:
        INSERT_USER.run(conn, {"id": "1", "display_name": "Ana", "created_at": NOW, "last_seen_at": None})
    with db.read_prepared() as conn:
        assert [tuple(row) for row in READ_USER.raw(conn, {"id": "1"})] == [("Ana", None)]


def test_a_lean_read_sees_one_snapshot_and_ends_it(db: Database) -> None:
    count = Prepared(select(users.c.id).order_by(users.c.id))
    row = {"display_name": None, "created_at": NOW, "last_seen_at": None}
    with db.write() as conn:
        INSERT_USER.run(conn, {"id": "1", **row})
    with db.read_prepared() as conn:
        before = count.all(conn, {})
        with db.write() as other:  # another connection commits between two reads of the same transaction
            INSERT_USER.run(other, {"id": "2", **row})
        seen_again = count.all(conn, {})
    with db.read_prepared() as conn:
        after = count.all(conn, {})
    if db.is_sqlite:  # PostgreSQL reads at READ COMMITTED, as every read here does
        assert seen_again == before == [("1",)]
    assert after == [("1",), ("2",)]
