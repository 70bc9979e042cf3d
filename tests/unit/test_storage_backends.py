"""The storage tests, the store's contract among them, run on every backend the run can reach; in CI that includes
PostgreSQL (SPEC section 37: .ci/run sets TASKSVC_TEST_DATABASE_URL to the machine's 127.0.0.1:5432), and a run
there without it fails instead of passing on SQLite alone. Elsewhere a run without PostgreSQL says so (a skip with
the reason in the summary)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

import tests.conftest
from taskcore.storage.db import Database
from tests.conftest import BACKENDS, require_postgresql

CONTRACT = "tests/unit/test_conversation_store_contract.py"


def test_the_storage_tests_also_run_on_postgresql() -> None:
    database = Database.from_url(require_postgresql())
    try:
        with database.read() as conn:
            assert conn.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        database.dispose()
    assert "postgresql" in BACKENDS


def test_the_store_s_contract_is_collected_on_postgresql(request: pytest.FixtureRequest) -> None:
    """Not the fixture's intent but the run's items: the contract's PostgreSQL half is among the tests collected."""
    assert (request.config.rootpath / CONTRACT).is_file(), f"the store's contract moved: CONTRACT names {CONTRACT}"
    contract = [item.nodeid for item in request.session.items if item.nodeid.startswith(CONTRACT)]
    if not contract:
        pytest.skip(f"{CONTRACT} is not part of this run")
    require_postgresql()
    assert any("[postgresql]" in nodeid for nodeid in contract)
    assert {nodeid.rpartition("[")[0] for nodeid in contract if "[postgresql]" in nodeid} == \
        {nodeid.rpartition("[")[0] for nodeid in contract if "[memory]" in nodeid}


def test_without_postgresql_ci_fails_and_a_local_run_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tests.conftest, "PG_URL", None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="in CI the storage tests must also run on PostgreSQL"):
        require_postgresql()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        require_postgresql()
