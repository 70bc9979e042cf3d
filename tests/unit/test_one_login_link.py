"""One live login link per person (SPEC section 32): a new one revokes the older ones not used yet."""

from __future__ import annotations

import pytest

from taskcore.errors import Unauthorized
from taskcore.services.web_auth import issue_login_token, redeem_login_token
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW

ME, OTHER = "34600000001", "34600000002"


def test_a_new_link_revokes_the_older_one_and_leaves_other_people_s(db: Database) -> None:
    older = units.run(db, issue_login_token, user_id=ME, now=NOW)
    theirs = units.run(db, issue_login_token, user_id=OTHER, now=NOW)
    newer = units.run(db, issue_login_token, user_id=ME, now=NOW)
    with pytest.raises(Unauthorized):
        units.run(db, redeem_login_token, token=older, now=NOW)
    assert units.run(db, redeem_login_token, token=newer, now=NOW).user_id == ME
    assert units.run(db, redeem_login_token, token=theirs, now=NOW).user_id == OTHER


def test_twenty_links_in_a_row_leave_one_alive(db: Database) -> None:
    tokens = [units.run(db, issue_login_token, user_id=ME, now=NOW) for _ in range(20)]
    with db.read() as conn:
        alive = conn.exec_driver_sql("SELECT count(*) FROM web_tokens WHERE used_at IS NULL").scalar()
    assert alive == 1
    assert units.run(db, redeem_login_token, token=tokens[-1], now=NOW).user_id == ME
