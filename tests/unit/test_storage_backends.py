"""The storage tests run on every backend the run can reach, and a run without PostgreSQL says so (a skip with the
reason in the summary) instead of leaving it out silently."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from taskcore.storage.db import Database
from tests.conftest import BACKENDS, NO_POSTGRESQL, PG_URL


def test_the_storage_tests_also_run_on_postgresql() -> None:
    if not PG_URL:
        pytest.skip(NO_POSTGRESQL)
    database = Database.from_url(PG_URL)
    try:
        with database.read() as conn:
            assert conn.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        database.dispose()
    assert "postgresql" in BACKENDS
