"""`tasksvc dev` (SPEC section 12): the chat simulator, driven in headless Chromium, talks to the real bot."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.system.unit import Unit, unit_env

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

if not CHROMIUM.exists():
    pytest.skip(f"BROWSER TESTS SKIPPED: {CHROMIUM} is absent (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
def dev_unit(tmp_path: Path) -> Iterator[Unit]:
    env = unit_env(tmp_path)
    del env["NODE_ENV"], env["DB_PATH"]  # dev mode chooses them: development, tmp/tasks.db under its cwd
    unit = Unit("dev", env, tmp_path).start(wait_for="/dev/chat")
    yield unit
    assert unit.stop() == 0, unit.log()


def test_dev_prints_the_addresses_to_open(dev_unit: Unit) -> None:
    assert f"http://127.0.0.1:{dev_unit.port}/dev/chat" in dev_unit.log()
    assert (dev_unit.cwd / "tmp" / "tasks.db").exists()


def test_a_new_task_typed_in_the_simulator_gets_the_bots_reply_with_tomorrow(dev_unit: Unit) -> None:
    tomorrow = (datetime.now(ZoneInfo("Europe/Madrid")) + timedelta(days=1)).strftime("%d/%m")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(15_000)
        page.goto(dev_unit.url("/dev/chat"))
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        page.select_option("#chat", label="Familia")
        page.fill("#text", "/t nueva Comprar pan mañana")
        page.click("button[type=submit]")
        reply = page.locator("#log li.out", has_text="Comprar pan")
        expect(reply).to_contain_text(f"vence {tomorrow}")
        page.screenshot(path=str(ARTIFACTS / "dev-chat-simulator.png"), full_page=True)
        browser.close()
