"""A shared task on the group page (SPEC section 19): each assignee's part with a tick, and the button acting on
one's own part, in real Chromium. The screenshot lands in artifacts/browser-shared-task-parts.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.public_ids import public_id
from taskcore.services.people import public_key
from taskcore.services.tasks import complete_task, get_task
from taskcore.services.web_auth import issue_login_token
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.chromium import ARGS, CHROMIUM
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import GROUP, ME, OTHER, threaded_app, web_settings

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
SCREENSHOT = ARTIFACTS / "browser-shared-task-parts.png"
THIRD = "34600000003"
NAMES = {ME: "Ana", OTHER: "Bea", THIRD: "Carlos"}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(database)
    make_group(database, GROUP, name="Piso compartido", members=tuple(NAMES))
    for user, name in NAMES.items():
        database.transact(lambda conn, user=user, name=name: conn.execute(
            update(schema.users).where(schema.users.c.id == user).values(display_name=name)))
    yield database
    database.dispose()


def test_the_group_page_ticks_each_part_and_the_button_finishes_only_mine(tmp_path: Path, db: Database) -> None:
    task = make_task(db, creator=OTHER, group_id=GROUP, description="Enviar la hoja de gastos del mes",
                     assignees=(ME, OTHER, THIRD), each=True, due="2026-11-30")
    units.run(db, complete_task, GatingMode.ENFORCE, user_id=OTHER, task_id=task.id, now=NOW)
    key = units.run(db, public_key, now=NOW)
    me, other = public_id(ME, key), public_id(OTHER, key)  # the page names people by public id (SPEC section 32)
    with threaded_app(web_settings(), db, FrozenClock(current=NOW)) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 760}, locale="es-ES").new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto(f"{server.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
        page.goto(f"{server.url}/grupos/{GROUP}")
        item = page.locator("li.task", has_text="Enviar la hoja")
        expect(item.locator('[data-field="progress"]')).to_have_text("1/3 partes")
        expect(item.locator(f'[data-person="{other}"]')).to_have_class("person part-done")
        expect(item.locator(f'[data-person="{other}"]')).to_contain_text("✓ Bea (parte hecha)")
        expect(item.locator(f'[data-person="{me}"]')).to_contain_text("○ Ana (parte pendiente)")

        item.get_by_role("button", name="Terminar mi parte").click()
        expect(page.get_by_role("status")).to_have_text("Tu parte queda hecha.")
        expect(item.locator('[data-field="progress"]')).to_have_text("2/3 partes")
        expect(item.locator(f'[data-person="{me}"]')).to_contain_text("✓ Ana (parte hecha)")
        expect(item.get_by_role("button", name="Terminar mi parte")).to_be_hidden()
        expect(item.get_by_text("Completada")).to_be_hidden()
        expect(item.get_by_role("button", name="Soltar")).to_be_visible()
        item.locator("summary", has_text="Editar").click()
        expect(item.get_by_label("Cada responsable su parte")).to_be_checked()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT), full_page=True)
        browser.close()
    assert errors == []
    seen = units.look(db, get_task, GatingMode.ENFORCE, user_id=ME, task_id=task.id)
    assert (seen.completed, seen.progress) == (False, (2, 3))
