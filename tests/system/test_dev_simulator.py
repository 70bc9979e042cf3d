"""`tasksvc dev` (SPEC section 12): the chat simulator, driven in headless Chromium, talks to the real bot."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, ViewportSize, expect, sync_playwright

from tests.chromium import ARGS, CHROMIUM
from tests.pictures import same_picture, save_picture
from tests.system.unit import Unit, unit_env

pytestmark = pytest.mark.browser

# A loaded machine starts the unit and fills the simulator slowly: its assertions wait as long as its pages (15 s).
expect.set_options(timeout=15_000)
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def start_dev(tmp_path: Path, **extra: str) -> Unit:
    env = unit_env(tmp_path, **extra)
    del env["NODE_ENV"], env["DB_PATH"]  # dev mode chooses them: development, tmp/tasks.db under its cwd
    return Unit("dev", env, tmp_path).start(wait_for="/dev/chat")


@contextmanager
def simulator(unit: Unit, viewport: ViewportSize | None = None, **options: Any) -> Iterator[Page]:
    """The unit's chat simulator open in headless Chromium (a phone's screen unless ``viewport`` says otherwise)."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport=viewport or {"width": 390, "height": 844}, **options)
        page.set_default_timeout(15_000)
        page.goto(unit.url("/dev/chat"))
        yield page
        browser.close()


@pytest.fixture
def dev_unit(tmp_path: Path) -> Iterator[Unit]:
    unit = start_dev(tmp_path)
    yield unit
    assert unit.stop() == 0, unit.log()


@pytest.fixture
def quiet_dev_unit(tmp_path: Path) -> Iterator[Unit]:
    """Without reactions: the picture holds only text, whatever emoji fonts the machine has."""
    unit = start_dev(tmp_path, REACTIONS_ENABLED="false")
    yield unit
    assert unit.stop() == 0, unit.log()


@pytest.fixture(params=["evolution", "waha"])
def quiet_dev_unit_on_each_gateway(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Unit]:
    """`quiet_dev_unit` over each local gateway (GATEWAY_KIND: `tasksvc dev --gateway waha` sets it)."""
    unit = start_dev(tmp_path, REACTIONS_ENABLED="false", GATEWAY_KIND=request.param)
    yield unit
    assert unit.stop() == 0, unit.log()


def test_dev_prints_the_addresses_to_open(dev_unit: Unit) -> None:
    assert f"http://127.0.0.1:{dev_unit.port}/dev/chat" in dev_unit.log()
    assert (dev_unit.cwd / "tmp" / "tasks.db").exists()


def test_a_new_task_typed_in_the_simulator_gets_the_bots_reply_with_tomorrow(dev_unit: Unit) -> None:
    tomorrow = (datetime.now(ZoneInfo("Europe/Madrid")) + timedelta(days=1)).strftime("%d/%m")
    ARTIFACTS.mkdir(exist_ok=True)
    with simulator(dev_unit) as page:
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        page.select_option("#chat", label="Familia")
        page.fill("#text", "/t nueva Comprar pan mañana")
        page.click("button[type=submit]")
        reply = page.locator("#log li.out", has_text="Comprar pan")
        expect(reply).to_contain_text(f"vence {tomorrow}")
        page.screenshot(path=str(ARTIFACTS / "dev-chat-simulator.png"), full_page=True)


def test_in_the_simulator_a_person_replies_to_the_bot_and_reacts_to_its_message(
        quiet_dev_unit_on_each_gateway: Unit) -> None:
    with simulator(quiet_dev_unit_on_each_gateway) as page:
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        page.select_option("#chat", label="Familia")
        page.fill("#text", "/t nueva Regar las plantas")
        page.press("#text", "Enter")
        created = page.locator("#log li.out", has_text="Regar las plantas")
        expect(created).to_have_count(1)
        task_id = re.search(r"#(\d+)", created.inner_text())
        assert task_id is not None
        created.hover()
        created.get_by_role("button", name="Responder a este mensaje").click()
        expect(page.locator("#replying")).to_contain_text("Respondiendo a Bot")
        page.fill("#text", "yo")
        page.press("#text", "Enter")
        claimed = page.locator("#log li.out", has_text=f"Te quedas la tarea #{task_id[1]}")
        expect(claimed).to_have_count(1)
        expect(page.locator("#log li.in", has_text="yo").locator(".quote")).to_contain_text("Regar las plantas")
        claimed.hover()
        claimed.get_by_role("button", name="Reaccionar ✅ (completar)").click()
        expect(page.locator("#log li.out", has_text=f"Tarea #{task_id[1]} completada")).to_have_count(1)
        expect(page.locator("#log li.reaction", has_text="reacciona ✅")).to_have_count(1)


def test_the_readme_picture_of_the_simulator_shows_a_task_created_claimed_and_completed(quiet_dev_unit: Unit) -> None:
    with simulator(quiet_dev_unit, viewport={"width": 760, "height": 700}) as page:
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        page.select_option("#chat", label="Familia")
        replies = page.locator("#log li.out")
        page.fill("#text", "/t nueva Llevar las sillas al local")  # no date: the picture stays the same every day
        page.press("#text", "Enter")
        expect(replies).to_have_count(1)
        task_id = re.search(r"#(\d+)", replies.first.inner_text())
        assert task_id is not None, replies.first.inner_text()
        for command in (f"/t tomar {task_id[1]}", f"/t x {task_id[1]}"):
            expected = replies.count() + 1
            page.fill("#text", command)
            page.press("#text", "Enter")
            expect(replies).to_have_count(expected)
        expect(replies.last).to_contain_text(f"#{task_id[1]}")
        page.locator("#text").blur()
        page.mouse.move(0, 0)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        png = page.screenshot(animations="disabled", caret="hide")
    saved = save_picture(png, "chat-simulator.png")
    assert saved is None or same_picture(saved.read_bytes(), png)


def test_doctor_passes_against_the_development_modes_local_gateway(dev_unit: Unit) -> None:
    gateway = f"http://127.0.0.1:{dev_unit.env['TASKSVC_DEV_GATEWAY_PORT']}"
    env = {k: v for k, v in dev_unit.env.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")} | {
        "NODE_ENV": "development", "GATEWAY_API_URL": gateway, "GATEWAY_API_INSTANCE": "dev",
        "GATEWAY_API_KEY": "dev-local-gateway-key", "WEBHOOK_URL": dev_unit.url("/webhook"),
        "WEB_BASE_URL": dev_unit.url(""), "GROUP_GATING_MODE": "discover", "ADMIN_USERS": "34600000100"}
    done = subprocess.run([sys.executable, "-m", "tasksvc_run", "doctor"], env=env, cwd=dev_unit.cwd,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok       webhook URL" in done.stdout
    assert done.stdout.endswith("Nothing keeps the bot silent.\n")


def test_on_a_phone_the_conversation_scrolls_in_its_box_to_the_newest_message_and_long_words_wrap(
        quiet_dev_unit: Unit) -> None:
    with simulator(quiet_dev_unit, has_touch=True, is_mobile=True) as page:
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        page.select_option("#chat", label="Familia")
        replies = page.locator("#log li.out")
        for count, text in enumerate(["/t ayuda", "/t ayuda", "/t nueva " + "Supercalifragilístico" * 12], 1):
            page.fill("#text", text)
            page.press("#text", "Enter")
            expect(replies).to_have_count(count)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        box = page.evaluate("""() => { const log = document.getElementById("log");
            return { height: log.clientHeight, content: log.scrollHeight, top: log.scrollTop,
                     wide: log.scrollWidth - log.clientWidth, page: document.documentElement.scrollHeight }; }""")
    assert box["content"] > box["height"] > 0  # more than fits: the box scrolls instead of growing
    assert box["height"] <= 0.6 * 844 + 16  # 60 % of the screen, plus its padding
    assert box["top"] + box["height"] >= box["content"] - 2  # scrolled to the newest message
    assert box["wide"] <= 0  # the long word wraps inside its bubble
    assert box["page"] < 2 * 844


def test_anyone_can_be_added_and_is_answered_in_their_number_s_language(dev_unit: Unit) -> None:
    """SPEC section 30: the simulator adds a person with any number and name and writes as them."""
    with simulator(dev_unit) as page:
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        page.click("#add-person summary")
        page.fill("#person-number", "+55 21 98765 4321")
        page.fill("#person-name", "Bruna")
        page.click("#person button[type=submit]")
        expect(page.locator("#user")).to_have_value("5521987654321")
        page.select_option("#chat", value="")  # in private with the bot
        page.fill("#text", "/t nova comprar pão amanhã")
        page.click("#send button[type=submit]")
        expect(page.locator("#log li.out", has_text="comprar pão")).to_contain_text("Tarefa #")


def test_people_the_bot_learns_of_after_the_page_opened_join_its_lists(dev_unit: Unit) -> None:
    """The page's lists follow the bot's: a person who first writes from another tab (or a seed that lands after the
    page's first poll) appears without reloading."""
    with simulator(dev_unit) as page:
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)
        expect(page.locator("#user option", has_text="Lupita")).to_have_count(0)
        family = page.locator("#chat option", has_text="Familia").get_attribute("value")
        answer = page.request.post(dev_unit.url("/dev/chat/api/send"), data={
            "user": "5215512345678", "name": "Lupita", "chat": family, "text": "/t ver"})
        assert answer.ok, answer.text()
        expect(page.locator("#user option", has_text="Lupita")).to_have_count(1)
        expect(page.locator("#chat option", has_text="Familia")).to_have_count(1)  # each group listed once
