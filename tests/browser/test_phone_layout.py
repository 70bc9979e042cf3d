"""On a phone (SPEC section 23): at 390×844 CSS pixels the header and navigation of every page take at most 120 px,
the first task of "Mis tareas" shows without scrolling, the navigation speaks to people ("Apps y scripts"), and the
form to add a task works in real Chromium."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from taskcore.services.devseed import seed_dev_data
from taskcore.services.web_auth import issue_login_token
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.builders import NOW, TODAY
from tests.chromium import ARGS, CHROMIUM
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import ME, ThreadedServer, threaded_app, web_settings

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PHONE = {"width": 390, "height": 844}
MAX_HEADER = 120


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


@pytest.fixture
def phone(server: tuple[ThreadedServer, Database]) -> Iterator[Page]:
    running, db = server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_context(viewport=PHONE, locale="es-ES").new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{running.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
        expect(page.get_by_role("heading", name="Mis tareas")).to_be_visible()
        yield page
        browser.close()


def header_height(page: Page) -> float:
    """The header's height, its navigation included, as the page lays it out."""
    return float(page.evaluate("document.querySelector('header.top').getBoundingClientRect().height"))


def test_the_header_is_short_on_every_page_and_the_first_task_shows(phone: Page) -> None:
    page = phone
    first_top = float(page.evaluate("document.querySelector('#task-list li.task').getBoundingClientRect().top"))
    assert page.locator("#task-list li.task").count() > 1  # a few tasks
    assert 0 < first_top < PHONE["height"]
    assert page.evaluate("window.scrollY") == 0
    page.get_by_role("link", name="Grupos").click()
    group_path = page.locator(".groups a").first.get_attribute("href")
    origin = str(page.evaluate("location.origin"))
    heights = {}
    for path in ["/", "/grupos", str(group_path), "/recordatorios", "/calendario", "/tokens"]:
        page.goto(origin + path)
        heights[path] = header_height(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path  # no sideways page
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(origin + "/")
    page.screenshot(path=str(ARTIFACTS / "browser-phone.png"))
    (ARTIFACTS / "phone-header.json").write_text(json.dumps({"heights": heights, "first_task_top": first_top}))
    assert all(height <= MAX_HEADER for height in heights.values()), heights


def test_the_navigation_speaks_to_people(phone: Page) -> None:
    nav = phone.get_by_role("navigation", name="Secciones")
    expect(nav.get_by_role("link", name="Apps y scripts")).to_have_attribute("href", "/tokens")
    expect(nav.get_by_text("Tokens")).to_have_count(0)
    nav.get_by_role("link", name="Apps y scripts").click()
    expect(phone.get_by_role("heading", name="Tokens de acceso")).to_be_visible()
    current = phone.locator('.top nav [aria-current="page"]')
    expect(current).to_have_text("Apps y scripts")
    expect(current).to_be_in_viewport()  # the sideways navigation shows where one is


def test_a_task_added_with_the_form_is_on_the_list(phone: Page) -> None:
    page = phone
    page.get_by_text("Nueva tarea").click()
    page.get_by_label("Descripción").first.fill("Comprar bombillas")
    page.get_by_label("Fecha límite").first.fill("2026-11-28")
    page.get_by_role("button", name="Añadir").click()
    expect(page.get_by_role("heading", name="Mis tareas")).to_be_visible()
    item = page.locator("li.task", has_text="Comprar bombillas")
    expect(item).to_be_visible()
    expect(item).to_contain_text("Vence el 28/11")
    page.get_by_text("Nueva tarea").click()
    page.get_by_role("button", name="Añadir").click()  # empty: the browser itself asks for the description
    expect(page.locator("li.task", has_text="Comprar bombillas")).to_have_count(1)
