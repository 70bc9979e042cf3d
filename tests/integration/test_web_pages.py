"""The server-rendered pages: sign-in help, Mis tareas, Grupos, one group, Recordatorios (SPEC section 6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, time
from html.parser import HTMLParser

import pytest
from sqlalchemy import update

from taskcore.chores.quiet import QuietHours
from taskcore.services import quiet
from taskcore.services.preferences import set_preference
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

PAGES = ["/", "/grupos", f"/grupos/{GROUP}", "/recordatorios"]


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


async def page(web: WebEnv, path: str, user: str | None = ME) -> tuple[int, str]:
    headers = web.session_for(user) if user else {}
    async with web.client.get(path, headers=headers, allow_redirects=False) as response:
        return response.status, await response.text()


class Markup(HTMLParser):
    """What the accessibility and script checks need from a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.fields: list[dict[str, str | None]] = []
        self.label_for: set[str] = set()
        self.inline_styles = 0
        self.open_labels = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.inline_styles += "style" in found or tag == "style"
        if tag == "script":
            self.scripts.append(found)
        elif tag == "label":
            self.open_labels += 1
            if found.get("for"):
                self.label_for.add(str(found["for"]))
        elif tag in ("input", "textarea", "select") and found.get("type") != "hidden":
            self.fields.append(found | {"wrapped": "yes" if self.open_labels else None})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.open_labels -= 1


class TestVisitors:
    async def test_the_home_page_explains_how_to_get_a_link(self, web: WebEnv) -> None:
        status, html = await page(web, "/", user=None)
        assert status == 200
        assert "<kbd>/t web</kbd>" in html
        assert "Cerrar sesión" not in html

    @pytest.mark.parametrize("path", PAGES[1:])
    async def test_other_pages_send_visitors_home(self, web: WebEnv, path: str) -> None:
        async with web.client.get(path, allow_redirects=False) as response:
            assert (response.status, response.headers["Location"]) == (303, "/")


class TestMyTasks:
    async def test_my_open_tasks_are_listed_with_actions(self, web: WebEnv) -> None:
        make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), description="Comprar pan", due="2026-11-20")
        _, html = await page(web, "/")
        assert "Comprar pan" in html
        assert "Vence el 20/11" in html
        assert 'data-action="complete"' in html
        assert 'class="due overdue"' in html

    async def test_a_description_with_markup_is_shown_as_text(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None, description="x")
        raw = '<script>alert(1)</script> & "co"'  # as if stored by a bug or another program: pages escape anyway
        web.db.transact(lambda conn: conn.execute(
            update(schema.tasks).where(schema.tasks.c.id == task.id).values(description=raw)))
        _, html = await page(web, "/")
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;co&#34;" in html

    async def test_the_recent_tab_shows_tasks_completed_today(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None, description="Hecha")
        await web.call("POST", f"/api/tasks/{task.id}/complete")
        _, html = await page(web, "/?status=recent")
        assert "Hecha" in html
        assert 'aria-current="page">Completadas' in html

    async def test_search_and_soon_filters_narrow_the_list(self, web: WebEnv) -> None:
        make_task(web.db, creator=ME, group_id=None, description="Pan", due="2026-11-23")
        make_task(web.db, creator=ME, group_id=None, description="Vino", due="2027-01-01")
        _, searched = await page(web, "/?search=vin")
        _, soon = await page(web, "/?soonDays=7")
        assert ("Vino" in searched, "Pan" in searched) == (True, False)
        assert ("Pan" in soon, "Vino" in soon) == (True, False)

    async def test_an_empty_list_says_so(self, web: WebEnv) -> None:
        _, html = await page(web, "/")
        assert "No tienes tareas abiertas" in html

    async def test_a_bad_filter_value_is_a_422_page(self, web: WebEnv) -> None:
        status, html = await page(web, "/?soonDays=mucho")
        assert status == 422
        assert "soonDays" in html


class TestGroups:
    async def test_the_groups_page_links_each_group_with_its_counts(self, web: WebEnv) -> None:
        make_task(web.db, creator=OTHER, group_id=GROUP)
        _, html = await page(web, "/grupos")
        assert f'href="/grupos/{GROUP.replace("@", "%40")}">Familia</a>' in html
        assert "1 abierta · 1 sin responsable" in html

    async def test_a_group_page_lists_unassigned_tasks_first(self, web: WebEnv) -> None:
        make_task(web.db, creator=OTHER, group_id=GROUP, description="Asignada", assignees=(OTHER,), due="2026-11-23")
        make_task(web.db, creator=OTHER, group_id=GROUP, description="Libre", due="2026-12-01")
        status, html = await page(web, f"/grupos/{GROUP.replace('@', '%40')}")
        assert status == 200
        assert html.index("Libre") < html.index("Asignada")

    async def test_a_group_i_am_not_in_is_a_403_page(self, web: WebEnv) -> None:
        make_group(web.db, "120363000000000009@g.us", members=(OTHER,))
        status, html = await page(web, "/grupos/120363000000000009@g.us")
        assert (status, "No tienes acceso" in html) == (403, True)


class TestReminders:
    async def test_the_form_shows_the_saved_preference(self, web: WebEnv) -> None:
        units.run(web.db, set_preference, user_id=ME, freq="weekdays", time="07:45", now=NOW)
        _, html = await page(web, "/recordatorios")
        assert 'value="weekdays" checked' in html
        assert 'value="07:45"' in html


class TestEveryPage:
    @pytest.mark.parametrize("path", PAGES)
    async def test_pages_are_spanish_with_labelled_fields_and_no_inline_script(self, web: WebEnv, path: str) -> None:
        make_task(web.db, creator=ME, group_id=GROUP, assignees=(ME,))
        status, html = await page(web, path)
        markup = Markup(html)
        assert (status, '<html lang="es">' in html) == (200, True)
        assert markup.scripts == [{"src": "/static/app.js", "defer": None}]
        assert markup.inline_styles == 0
        unlabelled = [f for f in markup.fields if not f.get("wrapped") and f.get("id") not in markup.label_for]
        assert unlabelled == []

    @pytest.mark.parametrize("path", [*PAGES, "/login", "/static/app.js", "/nope"])
    async def test_security_headers_are_on_every_response(self, web: WebEnv, path: str) -> None:
        async with web.client.get(path, headers=web.session_for()) as response:
            headers = response.headers
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert "script-src 'self';" in headers["Content-Security-Policy"]
        assert (headers["X-Content-Type-Options"], headers["Referrer-Policy"]) == ("nosniff", "no-referrer")

    @pytest.mark.parametrize(("path", "kind"), [("/static/app.js", "javascript"), ("/static/app.css", "text/css")])
    async def test_static_files_are_served(self, web: WebEnv, path: str, kind: str) -> None:
        async with web.client.get(path) as response:
            assert (response.status, kind in response.headers["Content-Type"]) == (200, True)

    async def test_the_script_never_writes_html_from_data(self, web: WebEnv) -> None:
        async with web.client.get("/static/app.js") as response:
            script = await response.text()
        assert "innerHTML" not in script
        assert "insertAdjacentHTML" not in script
        assert "textContent" in script


async def test_the_preferences_page_shows_quiet_hours_and_away(web: WebEnv) -> None:
    """SPEC section 25: the form's quiet hours and away date, saved through the preferences API."""
    units.run(web.db, quiet.set_quiet, user_id=ME, window=QuietHours(time(22, 0), time(7, 30)), now=NOW)
    units.run(web.db, quiet.set_away, user_id=ME, until=date(2026, 12, 5), today=NOW.date(), now=NOW)
    _, html = await page(web, "/recordatorios")
    assert 'name="quiet_from" value="22:00"' in html
    assert 'name="quiet_to" value="07:30"' in html
    assert 'name="away_until" value="2026-12-05"' in html
    assert "Horas de silencio" in html
