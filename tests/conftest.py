"""Shared fixtures: one `db` fixture over every storage backend the run can reach (STYLE habit 2)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url

PG_URL = os.environ.get("TASKSVC_TEST_DATABASE_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]
NO_POSTGRESQL = ("TASKSVC_TEST_DATABASE_URL is not set: the storage tests run on SQLite only "
                 "(.ci/run sets it when PostgreSQL answers on 127.0.0.1:5432)")


def pytest_report_header() -> str:
    """Which storage backends the ``db`` fixtures run on, at the top of every run."""
    return f"storage backends: {', '.join(BACKENDS)}" + ("" if PG_URL else f" ({NO_POSTGRESQL})")


def pg_schema_url(base: str, schema: str) -> str:
    """The URL of ``base`` with every connection's search_path set to ``schema``."""
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options=-csearch_path%3D{schema}"


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped afterwards; the test is skipped loudly without PostgreSQL."""
    if not PG_URL:
        pytest.skip("TASKSVC_TEST_DATABASE_URL is not set: no PostgreSQL for this run")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = Database.from_url(PG_URL)
    with admin.write() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    yield pg_schema_url(PG_URL, schema)
    with admin.write() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


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


@pytest.fixture
def db(empty_db: Database) -> Database:
    """A migrated database on each backend."""
    migrator.migrate(empty_db)
    return empty_db


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    """A migrated SQLite file, for behaviour that only SQLite has."""
    database = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(database)
    yield database
    database.dispose()
