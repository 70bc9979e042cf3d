"""The kitchen display in real Chromium (SPEC section 41): without a session, on a phone (390×844) and a tablet
(1024×768) it fits the width, its chores are in large type, and it names people by name, never by number."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.services.display import issue_display
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.chromium import ARGS, CHROMIUM
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import GROUP, ME, OTHER, threaded_app, web_settings

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}


@pytest.fixture
def display_url(tmp_path: Path) -> Iterator[str]:
    db = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(db)
    make_group(db, GROUP, name="Casa de la playa", members=(ME, OTHER))
    with db.write() as conn:
        for user, name in ((ME, "Ana"), (OTHER, "Bruno")):
            ensure_user(conn, user, NOW, name=name)
        gm = schema.group_members
        conn.execute(update(gm).where(gm.c.user_id == ME).values(is_admin=True))
    for n, due in enumerate(("2026-11-22", "2026-11-22", "2026-11-24", "2026-11-26")):
        make_task(db, creator=ME, group_id=GROUP, assignees=(OTHER if n % 2 else ME,), due=due,
                  description=f"Una tarea de la casa con un nombre bastante largo, la número {n + 1}")
    token = units.run(db, issue_display, GatingMode.ENFORCE, group_id=GROUP, user_id=ME, now=NOW)
    try:
        with threaded_app(web_settings(), db, FrozenClock(current=NOW)) as running:
            yield f"{running.url}/pantalla/{token}"
    finally:
        db.dispose()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_display_fits_and_reads_from_across_the_kitchen(display_url: str, size: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_context(viewport=SIZES[size], locale="en-GB").new_page()
        page.set_default_timeout(10_000)
        page.goto(display_url)
        expect(page.get_by_role("heading", name="Casa de la playa")).to_be_visible()
        expect(page.get_by_role("heading", name="Para hoy")).to_be_visible()  # the group's language, not the browser's
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        chore = page.locator(".chores .what").first
        assert float(chore.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 20
        text = page.locator("body").inner_text()
        assert "Ana" in text
        assert "Bruno" in text
        for number in (ME, OTHER):
            assert number not in page.content()
        browser.close()
