"""Dates for the reader on the pages (SPEC section 39), in real Chromium: an English reader's task says ``1 Dec``
(a British number) or ``Dec 1`` (an American one) when the page is drawn and again after the page's script redraws
it (claiming it), never ``01/12``; a Spanish reader keeps ``01/12``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from taskcore.services.web_auth import issue_login_token
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group, make_task
from tests.chromium import ARGS, CHROMIUM
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import ThreadedServer, threaded_app, web_settings

pytestmark = pytest.mark.browser

BRITON, AMERICAN, SPANIARD = "447812345678", "13105550123", "34600111111"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[ThreadedServer, Database]]:
    db = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(db)
    make_group(db, GROUP, name="Flat", members=(BRITON, AMERICAN, SPANIARD))
    make_task(db, creator=SPANIARD, group_id=GROUP, description="Pay the rent", due="2026-12-01")
    try:
        with threaded_app(web_settings(), db, FrozenClock(current=NOW)) as running:
            yield running, db
    finally:
        db.dispose()


@contextmanager
def signed_in(server: tuple[ThreadedServer, Database], user: str, path: str) -> Iterator[Page]:
    """A phone-sized page of ``path``, signed in as ``user`` by a login link."""
    running, db = server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_context(viewport={"width": 360, "height": 760}).new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{running.url}/login?token={units.run(db, issue_login_token, user_id=user, now=NOW)}")
        page.goto(f"{running.url}{path}")
        try:
            yield page
        finally:
            browser.close()


@pytest.mark.parametrize(("user", "shown", "claim"), [
    (BRITON, "Due 1 Dec", "Claim"), (AMERICAN, "Due Dec 1", "Claim"), (SPANIARD, "Vence el 01/12", "Tomar"),
])
def test_a_date_is_the_reader_s_before_and_after_the_script_redraws_it(
        server: tuple[ThreadedServer, Database], user: str, shown: str, claim: str) -> None:
    with signed_in(server, user, f"/grupos/{GROUP}") as page:
        item = page.locator("li.task", has_text="Pay the rent")
        expect(item.locator('[data-field="due"]')).to_have_text(shown)
        item.get_by_role("button", name=claim).click()
        expect(item.get_by_role("button", name=claim)).to_be_hidden()  # drawn again by the script
        expect(item.locator('[data-field="due"]')).to_have_text(shown)


@pytest.mark.parametrize(("user", "said"), [
    (AMERICAN, "Saved: we will remind you at 7:15 AM (America/Los_Angeles)."),
    (BRITON, "Saved: we will remind you at 07:15 (Europe/London)."),
])
def test_the_saved_reminder_time_is_on_the_reader_s_clock(server: tuple[ThreadedServer, Database], user: str,
                                                         said: str) -> None:
    with signed_in(server, user, "/recordatorios") as page:
        page.get_by_label("Monday to Friday").check()
        page.get_by_label(re.compile(r"^Time\b")).fill("07:15")
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_role("status")).to_have_text(said)
