"""The README's picture of the tasks page, taken from the real page over the seeded data at a fixed instant."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from taskcore.services.devseed import seed_dev_data
from taskcore.services.web_auth import issue_login_token
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.builders import NOW, TODAY
from tests.chromium import ARGS, CHROMIUM
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import ME, ThreadedServer, threaded_app, web_settings
from tests.pictures import same_picture, save_picture

pytestmark = pytest.mark.browser

PICTURE_ARGS = [*ARGS, "--font-render-hinting=none"]  # the same glyphs from run to run


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[ThreadedServer, Database]]:
    db = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(db)
    units.run(db, seed_dev_data, default_user=ME, now=NOW, today=TODAY)
    try:
        with threaded_app(web_settings(), db, FrozenClock(current=NOW)) as running:
            yield running, db
    finally:
        db.dispose()


def test_the_tasks_page_picture_shows_the_seeded_tasks(server: tuple[ThreadedServer, Database]) -> None:
    running, db = server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=PICTURE_ARGS)
        page = browser.new_context(viewport={"width": 900, "height": 1000}, locale="es-ES").new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{running.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
        expect(page.get_by_role("heading", name="Mis tareas")).to_be_visible()
        expect(page.locator("li.task", has_text="Comprar pan y leche")).to_be_visible()
        png = page.screenshot(animations="disabled", caret="hide")
        browser.close()
    saved = save_picture(png, "tasks.png")
    assert saved is None or same_picture(saved.read_bytes(), png)
