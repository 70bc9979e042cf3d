"""Every page fits a phone 360 px wide, nothing cut off (SPEC section 39; measured in Chromium at 412 px: the top
navigation's last link, "Recordatorios", ran off the screen), in each language, and the header stays within the
120 px of section 23 at 390 px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

from taskcore.services import languages
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

MAX_HEADER = 120
# What sticks out of the screen: every visible element whose box ends beyond the viewport's right edge, unless a
# box that scrolls sideways on purpose (a code example) holds it; and the page's own width.
CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === "hidden") continue;
    if (el.closest(".example, .visually-hidden, .skip")) continue;
    if (box.right > width + 0.5 || box.left < -0.5) {
      out.push(el.tagName + " " + (el.textContent || "").trim().slice(0, 30));
    }
  }
  return {out, scroll: document.documentElement.scrollWidth, width,
          header: document.querySelector("header.top").getBoundingClientRect().height};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadedServer, Database]]:
    db = Database.from_url(sqlite_url(Path(tmp_path_factory.mktemp("narrow")) / "tasks.db"))
    migrator.migrate(db)
    units.run(db, seed_dev_data, default_user=ME, now=NOW, today=TODAY)
    try:
        with threaded_app(web_settings(), db, FrozenClock(current=NOW)) as running:
            yield running, db
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def measure(browser: Browser, server: tuple[ThreadedServer, Database], lang: str, width: int) -> dict[str, Any]:
    running, db = server
    units.run(db, languages.choose_language, user_id=ME, lang=lang, default="es", now=NOW)
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{running.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
    page.wait_for_selector("header.top nav")
    group = page.evaluate("fetch('/api/me/groups').then(r => r.json()).then(b => b.items[0].id)")
    found = {}
    for path in ["/", "/grupos", f"/grupos/{group}", f"/grupos/{group}/importar", f"/grupos/{group}/premios",
                 "/aprobaciones", "/recordatorios", "/calendario", "/tokens"]:
        page.goto(running.url + path)
        found[path] = page.evaluate(CUT_OFF)
    context.close()
    return found


@pytest.mark.parametrize("lang", ["es", "pt", "en"])
@pytest.mark.parametrize("width", [360, 412])
def test_nothing_is_cut_off_on_a_narrow_phone(browser: Browser, server: tuple[ThreadedServer, Database], lang: str,
                                              width: int) -> None:
    for path, seen in measure(browser, server, lang, width).items():
        assert seen["out"] == [], (lang, width, path)
        assert seen["scroll"] <= width, (lang, width, path)


@pytest.mark.parametrize("lang", ["es", "pt", "en"])
def test_the_header_stays_short_with_its_links_wrapped(browser: Browser, server: tuple[ThreadedServer, Database],
                                                       lang: str) -> None:
    for path, seen in measure(browser, server, lang, 390).items():
        assert seen["header"] <= MAX_HEADER, (lang, path, seen["header"])
