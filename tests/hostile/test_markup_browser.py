"""In real Chromium, against the real unit: the hostile group name, person name and descriptions of
tests/hostile/markup.py show as typed on every page, before and after the page's script updates them through the
API, and none of them runs (no dialog, ``window.pwned`` never set, no console error from a blocked script).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import quote

import pytest
from playwright.sync_api import Dialog, Page, expect, sync_playwright

from taskcore.services.web_auth import issue_login_token
from tasksvc_run import units
from tests.chromium import ARGS, CHROMIUM
from tests.hostile.conftest import ME, Running
from tests.hostile.markup import GROUP_NAME, HOSTILE_GROUP, PERSON_NAME, RAW_DESCRIPTION

pytestmark = pytest.mark.browser


@pytest.fixture
def page(running: Running, marked: str) -> Iterator[tuple[Page, list[str]]]:
    """A phone-sized tab signed in as ME through a real login link; the dialogs and console errors it met."""
    met: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        tab = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES").new_page()
        tab.set_default_timeout(10_000)
        def on_dialog(dialog: Dialog) -> None:
            met.append(f"dialog: {dialog.message}")
            dialog.dismiss()

        tab.on("dialog", on_dialog)
        tab.on("console", lambda msg: met.append(f"console: {msg.text}") if msg.type == "error" else None)
        token = units.run(running.db, issue_login_token, user_id=ME, now=datetime.now(UTC))
        tab.goto(running.unit.url(f"/login?token={token}"))
        yield tab, met
        browser.close()


def _nothing_ran(tab: Page, met: list[str]) -> None:
    assert tab.evaluate("window.pwned") is None
    assert met == []


def test_markup_in_every_page_shows_as_text_and_never_runs(page: tuple[Page, list[str]], running: Running) -> None:
    tab, met = page
    expect(tab.get_by_role("heading", name="Mis tareas")).to_be_visible()
    expect(tab.locator("#task-list").get_by_text(GROUP_NAME, exact=True).first).to_be_visible()
    expect(tab.get_by_text(PERSON_NAME, exact=True).first).to_be_visible()
    expect(tab.get_by_text(RAW_DESCRIPTION, exact=True).first).to_be_visible()
    _nothing_ran(tab, met)
    for path in ("/?status=recent", "/grupos", f"/grupos/{quote(HOSTILE_GROUP)}", "/recordatorios",
                 "/?search=%22%3E%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E"):
        tab.goto(running.unit.url(path))
        tab.wait_for_load_state("load")
        _nothing_ran(tab, met)
    tab.goto(running.unit.url("/grupos"))
    expect(tab.get_by_role("link", name=GROUP_NAME)).to_be_visible()


def test_text_the_script_writes_after_an_action_stays_text(page: tuple[Page, list[str]], running: Running) -> None:
    tab, met = page
    tab.goto(running.unit.url(f"/grupos/{quote(HOSTILE_GROUP)}"))
    item = tab.locator("li.task", has_text=RAW_DESCRIPTION).first
    expect(item).to_be_visible()
    item.get_by_role("button", name="Soltar").click()  # the script redraws the item from the API's answer
    expect(item.get_by_role("button", name="Tomar")).to_be_visible()
    item.get_by_role("button", name="Tomar").click()
    expect(item.get_by_role("button", name="Soltar")).to_be_visible()
    expect(item.get_by_text(PERSON_NAME, exact=True)).to_be_visible()
    expect(item.locator('[data-field="description"]')).to_have_text(RAW_DESCRIPTION)
    _nothing_ran(tab, met)
