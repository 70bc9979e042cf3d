"""The chat simulator speaks the language of the person chosen to write (SPEC section 39), in real Chromium at a
phone's width: a Brazilian picked, its words are Portuguese; an American, English; a Spaniard, Spanish; and its
household forms (a group, a LID-only person) are there."""

from __future__ import annotations

import asyncio

import pytest
from playwright.sync_api import expect, sync_playwright

from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run.devgateway.local import LocalGateway
from tests.builders import GROUP, NOW, make_group
from tests.chromium import ARGS, CHROMIUM

pytestmark = pytest.mark.browser

ANA, BRUNA, JOE = "34600111111", "5521987654321", "13105550123"


def drive(url: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_context(viewport={"width": 360, "height": 760}).new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{url}/dev/chat")
        expect(page.locator("#user option")).to_have_count(3)
        page.select_option("#user", BRUNA)
        expect(page.get_by_role("heading")).to_have_text("Simulador de chat (desenvolvimento)")
        expect(page.locator("#send button[type=submit]")).to_have_text("Enviar")
        expect(page.get_by_text("Quem escreve", exact=True)).to_be_visible()
        page.select_option("#user", JOE)
        expect(page.get_by_role("heading")).to_have_text("Chat simulator (development)")
        expect(page.locator("#send button[type=submit]")).to_have_text("Send")
        expect(page.locator("#text")).to_have_attribute("placeholder", "Write a message (or the photo's caption)")
        expect(page.get_by_text("Create a group")).to_be_visible()
        page.select_option("#user", ANA)
        expect(page.get_by_role("heading")).to_have_text("Simulador de chat (desarrollo)")
        expect(page.get_by_text("Crear un grupo")).to_be_visible()
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter((el) =>
            el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
            .map((el) => el.outerHTML.slice(0, 80))""")
        assert wide == []  # nothing sideways on a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        browser.close()


async def test_the_simulator_speaks_the_writer_s_language(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, BRUNA, JOE))
    with sqlite_db.write() as conn:
        for user, name in ((ANA, "Ana"), (BRUNA, "Bruna"), (JOE, "Joe")):
            ensure_user(conn, user, NOW, name=name)
    async with LocalGateway(db=sqlite_db) as local:
        await asyncio.to_thread(drive, local.url)
