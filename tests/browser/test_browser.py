"""A person signs in with a link, sees their tasks, completes one and changes their reminders, in real Chromium.

Debian's /usr/bin/chromium is driven through playwright (no browser download). The app runs in-process on
127.0.0.1 over a seeded SQLite file; the results are checked in the database and a screenshot lands in artifacts/.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from icalendar import Calendar
from playwright.sync_api import Page, expect, sync_playwright
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.recurrence import parse_recurrence
from taskcore.services.devseed import seed_dev_data
from taskcore.services.preferences import get_preference
from taskcore.services.tasks import create_task, get_task
from taskcore.services.web_auth import issue_login_token
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.builders import NOW, TODAY, make_task
from tests.chromium import ARGS, CHROMIUM
from tests.fakes.clock import FrozenClock
from tests.integration.web_helpers import ME, ThreadedServer, threaded_app, web_settings

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
HOSTILE = '<img src=x onerror="window.pwned=1"> & <script>window.pwned=1</script>'
TIMEOUT_MS = 10_000


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(database)
    units.run(database, seed_dev_data, default_user=ME, now=NOW, today=TODAY)
    hostile = make_task(database, creator=ME, group_id=None, description="x")
    database.transact(lambda conn: conn.execute(
        update(schema.tasks).where(schema.tasks.c.id == hostile.id).values(description=HOSTILE)))
    yield database
    database.dispose()


@pytest.fixture
def server(db: Database) -> Iterator[ThreadedServer]:
    with threaded_app(web_settings(), db, FrozenClock(current=NOW)) as running:
        yield running


@dataclass
class Tab:
    """A browser page and the errors its console reported."""

    page: Page
    console_errors: list[str] = field(default_factory=list)


@pytest.fixture
def tab(server: ThreadedServer) -> Iterator[Tab]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")  # a phone
        opened = Tab(context.new_page())
        opened.page.set_default_timeout(TIMEOUT_MS)
        opened.page.on("console", lambda msg: opened.console_errors.append(msg.text) if msg.type == "error" else None)
        yield opened
        browser.close()


def _task_id(db: Database, description: str) -> int:
    with db.read() as conn:
        return int(conn.execute(schema.tasks.select().with_only_columns(schema.tasks.c.id)
                                .where(schema.tasks.c.description == description)).scalar_one())


def test_sign_in_see_tasks_complete_one_and_set_reminders(tab: Tab, server: ThreadedServer, db: Database) -> None:
    page = tab.page
    page.goto(f"{server.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
    expect(page.get_by_role("heading", name="Mis tareas")).to_be_visible()
    item = page.locator("li.task", has_text="Comprar pan y leche")
    expect(item).to_be_visible()
    hostile = page.locator(f"#desc-{_task_id(db, HOSTILE)}")
    expect(hostile).to_have_text(HOSTILE)  # markup in data is shown as text and never runs
    assert page.evaluate("window.pwned") is None

    item.get_by_role("button", name="Completar").click()
    expect(page.get_by_role("status")).to_have_text("Tarea completada.")
    expect(item.get_by_text("Completada")).to_be_visible()
    expect(item.get_by_role("button", name="Completar")).to_be_hidden()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-mis-tareas.png"), full_page=True)
    done = units.look(db, get_task, GatingMode.ENFORCE, user_id=ME, task_id=_task_id(db, "Comprar pan y leche"))
    assert (done.completed, done.completed_by) == (True, ME)

    page.get_by_role("link", name="Recordatorios").click()
    page.get_by_label("De lunes a viernes").check()
    page.get_by_label(re.compile(r"^Hora\b")).fill("07:15")
    page.get_by_role("button", name="Guardar").click()
    expect(page.get_by_role("status")).to_have_text("Guardado: te avisaremos a las 07:15 (Europe/Madrid).")
    page.screenshot(path=str(ARTIFACTS / "browser-recordatorios.png"), full_page=True)
    saved = units.look(db, get_preference, user_id=ME)
    assert (saved.freq, saved.time) == ("weekdays", "07:15")
    assert tab.console_errors == []  # no CSP violation, no script error


def test_a_task_can_be_claimed_with_the_keyboard_alone(tab: Tab, server: ThreadedServer, db: Database) -> None:
    page = tab.page
    page.goto(f"{server.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
    page.get_by_role("link", name="Grupos").press("Enter")
    page.get_by_role("link", name="Familia").press("Enter")
    item = page.locator("li.task", has_text="Llevar el coche al taller")
    item.get_by_role("button", name="Tomar").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_have_text("Ahora eres responsable.")
    expect(item.get_by_role("button", name="Soltar")).to_be_focused()  # focus stays useful for the keyboard
    claimed = units.look(db, get_task, GatingMode.ENFORCE, user_id=ME,
                         task_id=_task_id(db, "Llevar el coche al taller"))
    assert ME in claimed.assignee_ids


def test_a_recurring_chore_shows_its_rule_and_completing_it_names_the_next(
    tab: Tab, server: ThreadedServer, db: Database
) -> None:
    created = units.run(db, create_task, creator=ME, description="Regar las plantas", group_id=None, now=NOW,
                        recurrence=parse_recurrence("cada lunes y jueves"), today=TODAY)
    page = tab.page
    page.goto(f"{server.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
    item = page.locator("li.task", has_text="Regar las plantas")
    expect(item.get_by_text("↻ cada lunes y jueves")).to_be_visible()
    item.get_by_role("button", name="Completar").click()
    expect(page.get_by_role("status")).to_have_text(f"Tarea completada. Próxima: #{created.id + 1}, 26/11.")
    page.get_by_role("link", name="Recordatorios").click()
    page.get_by_label("Zona").fill("america/bogota")
    page.get_by_role("button", name="Guardar").click()
    expect(page.get_by_role("status")).to_contain_text("(America/Bogota)")
    expect(page.locator('[data-field="tz-source"]')).to_have_text("la elegiste tú")
    assert units.look(db, get_preference, user_id=ME).tz == "America/Bogota"
    assert tab.console_errors == []
    page.get_by_label("Zona").fill("Marte/Olimpo")
    page.get_by_role("button", name="Guardar").click()
    expect(page.get_by_role("alert")).to_contain_text("zona horaria desconocida")


def test_a_checklist_is_ticked_item_by_item_and_the_last_completes_the_task(
    tab: Tab, server: ThreadedServer, db: Database
) -> None:
    """SPEC section 41: each item a button; the page changes in place, and the last tick completes the task."""
    units.run(db, create_task, creator=ME, description="Ordenar el trastero", group_id=None, now=NOW,
              items=("estantes", "cajas"))
    page = tab.page
    page.goto(f"{server.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")
    item = page.locator("li.task", has_text="Ordenar el trastero")
    item.get_by_role("button", name="☐ (marcar como hecho)").first.click()
    expect(page.get_by_role("status")).to_have_text("Elemento marcado.")
    expect(item.get_by_role("button", name="☑ (hecho)")).to_be_disabled()
    item.get_by_role("button", name="☐ (marcar como hecho)").click()
    expect(page.get_by_role("status")).to_have_text("Tarea completada.")
    expect(item.get_by_text("Completada")).to_be_visible()
    done = units.look(db, get_task, GatingMode.ENFORCE, user_id=ME, task_id=_task_id(db, "Ordenar el trastero"))
    assert done.completed
    assert [entry.done for entry in done.items] == [True, True]
    assert tab.console_errors == []


def _get(url: str, **headers: str) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - the loopback server under test
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:  # noqa: S310
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def test_a_calendar_link_and_a_token_are_made_on_their_pages(tab: Tab, server: ThreadedServer, db: Database) -> None:
    page = tab.page
    page.on("dialog", lambda dialog: dialog.accept())  # "¿Revocar el token…?"
    page.goto(f"{server.url}/login?token={units.run(db, issue_login_token, user_id=ME, now=NOW)}")

    page.get_by_role("link", name="Calendario").click()
    expect(page.get_by_role("heading", name="Calendario")).to_be_visible()
    page.get_by_role("button", name="Crear dirección").click()
    expect(page.get_by_role("status")).to_have_text("Dirección de calendario creada.")
    address = page.get_by_label("Tu dirección secreta")
    expect(address).to_be_focused()
    url = address.input_value()
    assert url.startswith(f"{server.url}/cal/")
    assert url.endswith(".ics")
    status, kind, body = _get(url)
    assert (status, kind) == (200, "text/calendar; charset=utf-8")
    assert Calendar.from_ical(body).walk("VEVENT")  # the seeded tasks with a due date
    expect(page.get_by_role("button", name="Desactivar")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "browser-calendario.png"), full_page=True)

    page.get_by_role("link", name="Apps y scripts").click()
    page.get_by_label("Nombre").fill("Home Assistant")
    page.get_by_role("button", name="Crear token").click()
    expect(page.get_by_role("status")).to_have_text("Token «Home Assistant» creado.")
    token = page.get_by_label("Tu token nuevo").input_value()
    assert token.startswith("tsk_")
    status, _, body = _get(f"{server.url}/api/me/tasks", Authorization=f"Bearer {token}")
    assert status == 200
    assert json.loads(body)["total"] > 0
    item = page.locator("li.task", has_text="Home Assistant")
    expect(item).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "browser-tokens.png"), full_page=True)

    item.get_by_role("button", name="Revocar").click()
    expect(page.get_by_role("status")).to_have_text("Token «Home Assistant» revocado.")
    expect(page.get_by_text("No tienes tokens.")).to_be_visible()
    assert _get(f"{server.url}/api/me/tasks", Authorization=f"Bearer {token}")[0] == 401
    assert tab.console_errors == []
