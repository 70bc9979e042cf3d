"""Shared fixtures: one `db` fixture over every storage backend the run can reach (STYLE habit 2)."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from taskcore.i18n import SOURCE, speak_by_default
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tests.chromium import require_chromium

# The service's texts outside any `speaking` block are Spanish, as its processes say at start (tasksvc_run.cli.main);
# a program that imports the library gets English (tests/unit/test_library_errors.py checks that in a fresh process).
speak_by_default(SOURCE)

PG_URL = os.environ.get("TASKSVC_TEST_DATABASE_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]
NO_POSTGRESQL = ("TASKSVC_TEST_DATABASE_URL is not set: the storage tests run on SQLite only "
                 "(.ci/run sets it to the PostgreSQL of 127.0.0.1:5432)")


def require_postgresql() -> str:
    """The run's PostgreSQL URL; without one the test fails in CI (CI set: the store's contract and every storage
    test must run on PostgreSQL there, SPEC section 37) and is skipped elsewhere, saying why."""
    if PG_URL:
        return PG_URL
    if os.environ.get("CI"):
        pytest.fail(f"{NO_POSTGRESQL}; in CI the storage tests must also run on PostgreSQL", pytrace=False)
    pytest.skip(NO_POSTGRESQL)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``browser`` needs Chromium before anything is set up: it fails in CI without it (.ci/run
    installs it) and is skipped elsewhere (tests/chromium.py)."""
    if item.get_closest_marker("browser") is not None:
        require_chromium()


def pytest_report_header() -> str:
    """Which storage backends the ``db`` fixtures run on, at the top of every run."""
    return f"storage backends: {', '.join(BACKENDS)}" + ("" if PG_URL else f" ({NO_POSTGRESQL})")


def pg_schema_url(base: str, schema: str) -> str:
    """The URL of ``base`` with every connection's search_path set to ``schema``."""
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options=-csearch_path%3D{schema}"


@pytest.fixture
def pg_schema(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped afterwards; the test is skipped loudly without PostgreSQL."""
    pool: _SchemaPool = request.getfixturevalue("_pg_schemas")
    schema = pool.create()
    yield pg_schema_url(pool.base, schema)
    pool.drop(schema)


def _fresh_database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Database:
    if backend == "sqlite":
        return Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    url: str = request.getfixturevalue("pg_schema")
    return Database.from_url(url)


@pytest.fixture(params=BACKENDS)
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An unmigrated database on each backend."""
    database = _fresh_database(request.param, tmp_path, request)
    yield database
    database.dispose()


@pytest.fixture(scope="session")
def _migrated_sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once per test process, closed (its write-ahead log folded in), to copy."""
    path = tmp_path_factory.mktemp("migrated") / "tasks.db"
    database = Database.from_url(sqlite_url(path))
    migrator.migrate(database)
    database.dispose()  # the last connection closed folds the write-ahead log into the file and removes it
    if path.with_name("tasks.db-wal").exists():
        pytest.fail("the migrated SQLite file kept a write-ahead log after its last connection closed")
    return path


class _SchemaPool:
    """Migrated PostgreSQL schemas of one test process, emptied between tests. Migrating a schema takes about half
    a second and 1,600 tests take one: a schema whose shape a test left as migrated (its columns, indexes,
    constraints and migration records) is emptied (its sequences restarted) and taken by the next test;
    one a test changed (a dropped table, an altered column) is dropped."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.admin = Database.from_url(base)
        self.spare: list[str] = []
        self.shape: list[str] | None = None

    def take(self) -> str:
        if self.spare:
            return self.spare.pop()
        schema = self.create()
        database = Database.from_url(pg_schema_url(self.base, schema))
        migrator.migrate(database)
        database.dispose()
        if self.shape is None:
            self.shape = self._shape(schema)
        return schema

    def create(self) -> str:
        """A new, empty schema (not migrated, not pooled)."""
        schema = f"t_{uuid.uuid4().hex[:12]}"
        with self.admin.write() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        return schema

    def _shape(self, schema: str) -> list[str]:
        with self.admin.read() as conn:
            rows = conn.execute(text(_SHAPE_SQL.format(schema=schema))).scalars()
            return sorted(str(row).replace(f"{schema}.", "").replace(schema, "") for row in rows)

    def give_back(self, schema: str) -> None:
        try:
            reusable = self._shape(schema) == self.shape
            if reusable:
                self._empty(schema)
        except DBAPIError:  # no migration records left, a role that may not turn foreign keys' triggers off
            reusable = False
        if reusable:
            self.spare.append(schema)
        else:
            self.drop(schema)

    def _empty(self, schema: str) -> None:
        """Every table but the migration records emptied and every sequence back at its start. DELETE with the
        foreign keys' triggers off: TRUNCATE makes new files for each table and index and took longer than
        migrating anew (0.15-0.65 s against 0.05 s)."""
        with self.admin.write() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '10s'"))
            conn.execute(text("SET LOCAL session_replication_role = replica"))
            tables = conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = :schema "
                                       "AND tablename <> 'schema_migrations'"), {"schema": schema}).scalars().all()
            for table in tables:
                conn.execute(text(f'DELETE FROM "{schema}"."{table}"'))  # noqa: S608 (names from pg_tables)
            conn.execute(text("SELECT setval(c.oid, s.seqstart, false) FROM pg_class c "
                              "JOIN pg_sequence s ON s.seqrelid = c.oid "
                              "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = :schema"),
                         {"schema": schema})

    def drop(self, schema: str) -> None:
        with self.admin.write() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))

    def close(self) -> None:
        while self.spare:
            self.drop(self.spare.pop())
        self.admin.dispose()


# What makes two migrated schemas the same: columns, indexes, constraints, sequences and the migrations recorded.
_SHAPE_SQL = """
SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' '
       || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE n.nspname = '{schema}' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = '{schema}'
UNION ALL SELECT 'constraint ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
  FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = '{schema}'
UNION ALL SELECT 'sequence ' || c.relname || ' ' || s.seqstart FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid
  JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '{schema}'
UNION ALL SELECT 'migration ' || version || ' ' || checksum FROM "{schema}".schema_migrations
"""


@pytest.fixture(scope="session")
def _pg_schemas() -> Iterator[_SchemaPool]:
    pool = _SchemaPool(require_postgresql())
    yield pool
    pool.close()


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A migrated database on each backend: a copy of a file migrated once per test process, or a migrated
    PostgreSQL schema that is empty (_SchemaPool). The same as migrating a new one, in a fraction of the time."""
    if request.param == "sqlite":
        path = tmp_path / "tasks.db"
        shutil.copyfile(request.getfixturevalue("_migrated_sqlite_file"), path)
        database = Database.from_url(sqlite_url(path))
        yield database
        database.dispose()
        return
    pool: _SchemaPool = request.getfixturevalue("_pg_schemas")
    schema = pool.take()
    database = Database.from_url(pg_schema_url(pool.base, schema))
    try:
        yield database
    finally:
        database.dispose()
        pool.give_back(schema)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    """A migrated SQLite file, for behaviour that only SQLite has."""
    database = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(database)
    yield database
    database.dispose()
