"""The ``db`` fixture's shortcut (docs/decisions.md, "The test run's time"): a PostgreSQL schema taken again by a
later test is as a newly migrated one (empty, ids from 1), and one a test changed is never taken again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from taskcore.storage import migrator
from taskcore.storage.db import Database
from tests.conftest import PG_URL, _SchemaPool, pg_schema_url

pytestmark = pytest.mark.skipif(not PG_URL, reason="TASKSVC_TEST_DATABASE_URL is not set: no PostgreSQL")


@pytest.fixture
def pool() -> Iterator[_SchemaPool]:
    assert PG_URL
    schemas = _SchemaPool(PG_URL)
    yield schemas
    schemas.close()


def _open(pool: _SchemaPool, schema: str) -> Database:
    return Database.from_url(pg_schema_url(pool.base, schema))


def _add_task(database: Database, text_: str) -> int:
    with database.write() as conn:
        conn.execute(text("INSERT INTO users (id, created_at) VALUES ('34600000001', now()) "
                          "ON CONFLICT DO NOTHING"))
        return int(conn.execute(text("INSERT INTO tasks (description, created_by, created_at) "
                                     "VALUES (:d, '34600000001', now()) RETURNING id"), {"d": text_}).scalar_one())


def _schema_exists(pool: _SchemaPool, schema: str) -> bool:
    with pool.admin.read() as conn:
        found = conn.execute(text("SELECT count(*) FROM pg_namespace WHERE nspname = :s"), {"s": schema})
        return found.scalar_one() == 1


def test_a_schema_given_back_is_taken_again_empty_with_ids_from_one(pool: _SchemaPool) -> None:
    schema = pool.take()
    database = _open(pool, schema)
    assert [_add_task(database, "uno"), _add_task(database, "dos")] == [1, 2]
    database.dispose()
    pool.give_back(schema)

    assert pool.take() == schema
    again = _open(pool, schema)
    with again.read() as conn:
        assert conn.execute(text("SELECT count(*) FROM tasks")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM users")).scalar_one() == 0
    assert _add_task(again, "tres") == 1
    assert migrator.missing_tables(again) == []
    again.dispose()
    pool.give_back(schema)


@pytest.mark.parametrize("change", ["DROP TABLE outbound_queue", "ALTER TABLE tasks ADD COLUMN extra INTEGER",
                                    "CREATE INDEX ix_extra ON tasks (description)",
                                    "DELETE FROM schema_migrations WHERE version = 16",
                                    "DROP TABLE schema_migrations"])
def test_a_schema_a_test_changed_is_dropped_not_taken_again(pool: _SchemaPool, change: str) -> None:
    schema = pool.take()
    database = _open(pool, schema)
    with database.write() as conn:
        conn.execute(text(change))
    database.dispose()
    pool.give_back(schema)

    assert not _schema_exists(pool, schema)
    assert pool.take() != schema
