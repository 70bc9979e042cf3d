"""Up-only migrations with checksums (seed section 9, SPEC section 3)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import DBAPIError, OperationalError

from taskcore.errors import SchemaError
from taskcore.storage import migrator
from taskcore.storage.db import Database, is_schema_error, is_unavailable
from taskcore.storage.schema import metadata


def test_a_fresh_database_gets_every_migration(empty_db: Database) -> None:
    applied = migrator.migrate(empty_db)
    assert applied == [m.version for m in migrator.load_migrations()]
    assert migrator.tables_exist(empty_db, ["web_tokens", "web_sessions", "tasks", "schema_migrations"])


def test_running_the_migrations_twice_is_a_no_op(empty_db: Database) -> None:
    migrator.migrate(empty_db)
    assert migrator.migrate(empty_db) == []
    with empty_db.read() as conn:
        count = conn.execute(text("SELECT count(*) FROM schema_migrations")).scalar_one()
    assert count == len(migrator.load_migrations())


def test_a_database_from_a_newer_release_is_refused(db: Database) -> None:
    with db.write() as conn:
        conn.execute(
            text("INSERT INTO schema_migrations VALUES (9999, 'future', 'abc', CURRENT_TIMESTAMP)")
        )
    with pytest.raises(SchemaError, match=r"9999.*does not know"):
        migrator.migrate(db)
    with pytest.raises(SchemaError):
        migrator.check(db)


def test_a_changed_checksum_is_refused(db: Database) -> None:
    with db.write() as conn:
        conn.execute(text("UPDATE schema_migrations SET checksum = 'tampered' WHERE version = 1"))
    with pytest.raises(SchemaError, match="checksum"):
        migrator.migrate(db)


def test_an_edited_migration_file_changes_its_checksum() -> None:
    first = migrator.load_migrations()[0]
    assert replace(first, template=first.template + "\n-- edit").checksum != first.checksum


def test_the_migrated_database_matches_the_core_schema(db: Database) -> None:
    inspector = inspect(db.engine)
    for table in metadata.sorted_tables:
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        assert columns == {c.name for c in table.columns}, table.name
        pk = set(inspector.get_pk_constraint(table.name)["constrained_columns"])
        assert pk == {c.name for c in table.primary_key.columns}, table.name


def test_the_web_waits_for_tables_that_do_not_exist_yet(empty_db: Database) -> None:
    assert not migrator.tables_exist(empty_db, ["web_tokens", "web_sessions"])


def test_sqlite_connections_use_wal_busy_timeout_foreign_keys_and_normal_sync(sqlite_db: Database) -> None:
    with sqlite_db.read() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1


def test_a_package_without_migration_files_is_an_error_not_an_empty_schema(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    (tmp_path / "__init__.py").write_text("")
    monkeypatch.setattr(migrator.resources, "files", lambda _package: tmp_path)
    with pytest.raises(SchemaError, match=r"no migration files .* reinstall"):
        migrator.load_migrations()


def test_a_complete_schema_passes_the_table_check(db: Database) -> None:
    assert migrator.missing_tables(db) == []
    migrator.require_schema(db)


def test_a_table_missing_after_migrating_is_named(db: Database) -> None:
    with db.write() as conn:
        conn.execute(text("DROP TABLE outbound_queue"))
    assert migrator.missing_tables(db) == ["outbound_queue"]
    with pytest.raises(SchemaError, match="lacks table\\(s\\) outbound_queue after migrating"):
        migrator.require_schema(db)


def test_a_missing_table_is_a_schema_error_not_an_outage(db: Database) -> None:
    with db.write() as conn:
        conn.execute(text("DROP TABLE job_leases"))
    with pytest.raises(DBAPIError) as raised, db.read() as conn:
        conn.execute(text("SELECT * FROM job_leases"))
    assert is_schema_error(raised.value)
    assert not is_unavailable(raised.value)


def test_a_busy_database_is_an_outage_not_a_schema_error() -> None:
    busy = OperationalError("UPDATE tasks", {}, sqlite3.OperationalError("database is locked"))
    assert is_unavailable(busy)
    assert not is_schema_error(busy)


def test_preferences_saved_before_the_zones_migration_are_looked_at_by_the_first_tick(
    empty_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = migrator.load_migrations()
    monkeypatch.setattr(migrator, "load_migrations", lambda: [m for m in every if m.version < 4])
    migrator.migrate(empty_db)
    saved = datetime(2026, 1, 1, tzinfo=UTC)
    with empty_db.write() as conn:
        conn.execute(text("INSERT INTO users (id, created_at) VALUES ('1', :t), ('2', :t)"), {"t": saved})
        conn.execute(text("INSERT INTO user_preferences (user_id, freq, time, updated_at) VALUES "
                          "('1', 'daily', '08:30', :t), ('2', 'off', '08:30', :t)"), {"t": saved})
    monkeypatch.setattr(migrator, "load_migrations", lambda: every)
    migrator.migrate(empty_db)
    p = metadata.tables["user_preferences"]
    with empty_db.read() as conn:
        looks = dict(conn.execute(select(p.c.user_id, p.c.next_due_at)).all())
    assert looks == {"1": datetime(1970, 1, 1, tzinfo=UTC), "2": None}


def test_a_semicolon_inside_a_trigger_a_function_body_or_a_string_does_not_end_the_statement() -> None:
    template = ("CREATE TABLE a (x TEXT);\n"
                "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  INSERT INTO b VALUES (CASE WHEN 1 THEN 'x;' END);\n"
                "  DELETE FROM c;\nEND;\n"
                "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; RETURN NULL; END $$;\n"
                "INSERT INTO a VALUES ('end; begin');\n")
    statements = migrator.Migration(99, "probe", template).statements("sqlite")
    assert [s.split()[0:2] for s in statements] == [["CREATE", "TABLE"], ["CREATE", "TRIGGER"], ["CREATE", "FUNCTION"],
                                                    ["INSERT", "INTO"]]
    assert statements[1].endswith("END")
    assert statements[3] == "INSERT INTO a VALUES ('end; begin')"
