"""The group's import page (SPEC section 35), through the real web app as a browser uses it: choose a file, see
the lines it would create and its errors (nothing created), confirm, and the lines are created with one group
message; the forms carry the page's check and come from this site."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator
from urllib.parse import quote

import aiohttp
import pytest
from sqlalchemy import select

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tests.builders import NOW, make_group
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

CHECK = re.compile(r'name="form_check" value="([0-9a-f]{64})"')
CARRIED = re.compile(r'<textarea name="csv" hidden aria-hidden="true">\n(.*?)</textarea>', re.S)
PAGE = f"/grupos/{quote(GROUP, safe='@')}/importar"
FILE = ("Descripción;Fecha;Asignados\r\n"
        "Sacar la basura;05/12/2026;Ana\r\n"
        "Regar;31/02/2026;\r\n"
        "Fregar <b>platos</b> & vasos;;Bruno\r\n")


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    make_group(db, "120363000000000009@g.us", name="Vecinos", members=(OTHER,))
    with db.write() as conn:
        ensure_user(conn, ME, NOW, name="Ana")
        ensure_user(conn, OTHER, NOW, name="Bruno")
    async with web_env(db) as env:
        yield env


def descriptions(db: Database) -> list[str]:
    with db.read() as conn:
        return list(conn.execute(select(schema.tasks.c.description).order_by(schema.tasks.c.id)).scalars())


def messages(db: Database) -> list[str]:
    q = schema.outbound_queue
    with db.read() as conn:
        return [json.loads(payload)["text"] for payload in conn.execute(select(q.c.payload)).scalars()]


async def page(web: WebEnv, path: str = PAGE, cookie: dict[str, str] | None = None) -> tuple[int, str]:
    async with web.client.get(path, headers=cookie or web.session_for(ME), allow_redirects=False) as response:
        return response.status, await response.text()


async def send(web: WebEnv, fields: dict[str, str | bytes], cookie: dict[str, str],
               path: str = PAGE) -> tuple[int, str, str | None]:
    form = aiohttp.FormData(default_to_multipart=True)  # as a form with enctype="multipart/form-data" sends it
    for name, value in fields.items():
        if isinstance(value, bytes):
            form.add_field(name, value, filename="tareas.csv", content_type="text/csv")
        else:
            form.add_field(name, value)
    async with web.client.post(path, data=form, headers=cookie, allow_redirects=False) as response:
        return response.status, await response.text(), response.headers.get("Location")


async def test_the_group_page_links_to_the_export_and_the_import(web: WebEnv) -> None:
    _, text = await page(web, f"/grupos/{quote(GROUP, safe='@')}")
    links = re.findall(r'href="([^"]+)"', text)
    assert any(link.startswith("/api/groups/") and link.endswith("/tasks.csv") for link in links)
    assert any(link.endswith("/importar") for link in links)


async def test_a_file_is_previewed_then_confirmed_and_created_with_one_message(web: WebEnv) -> None:
    cookie = web.session_for(ME)
    status, text = await page(web, cookie=cookie)
    assert status == 200
    assert 'type="file"' in text
    check = CHECK.search(text)
    assert check is not None
    status, preview, _ = await send(web, {"form_check": check.group(1), "step": "preview",
                                          "file": FILE.encode()}, cookie)
    assert status == 200
    assert "Sacar la basura" in preview
    assert "Vence el 2026-12-05" in preview
    assert "Para Ana" in preview
    assert "Línea 3: Fecha no válida: «31/02/2026»" in preview
    assert "Fregar platos &amp; vasos" in preview
    assert "Crear 2 tareas" in preview
    assert descriptions(web.db) == []
    carried = CARRIED.search(preview)
    assert carried is not None
    status, answer, location = await send(web, {"form_check": check.group(1), "step": "confirm",
                                           "csv": html.unescape(carried.group(1))}, cookie)
    assert (status, location) == (303, f"/grupos/{quote(GROUP, safe='@')}"), answer
    assert descriptions(web.db) == ["Sacar la basura", "Fregar platos & vasos"]
    assert len(messages(web.db)) == 1
    assert messages(web.db)[0].startswith("Ana ha importado 2 tareas desde un archivo")


async def test_a_file_refused_whole_is_the_page_again_with_the_reason(web: WebEnv) -> None:
    cookie = web.session_for(ME)
    check = CHECK.search((await page(web, cookie=cookie))[1])
    assert check is not None
    status, text, _ = await send(web, {"form_check": check.group(1), "step": "preview",
                                       "file": "Descripción\nCafé\n".encode("latin-1")}, cookie)
    assert status == 400
    assert "UTF-8" in text
    assert 'type="file"' in text
    body = ("description\n" + "".join(f"T{n}\n" for n in range(501))).encode()
    status, text, _ = await send(web, {"form_check": check.group(1), "step": "preview", "file": body}, cookie)
    assert (status, "501" in text) == (413, True)
    assert descriptions(web.db) == []


async def test_a_form_without_the_page_s_check_or_from_another_site_creates_nothing(web: WebEnv) -> None:
    cookie = web.session_for(ME)
    check = CHECK.search((await page(web, cookie=cookie))[1])
    assert check is not None
    status, _, _ = await send(web, {"form_check": "0" * 64, "step": "confirm", "csv": FILE}, cookie)
    assert status == 403
    status, _, _ = await send(web, {"form_check": check.group(1), "step": "confirm", "csv": FILE},
                              {**cookie, "Sec-Fetch-Site": "cross-site"})
    assert status == 403
    assert descriptions(web.db) == []


async def test_another_group_s_page_is_forbidden_and_without_a_session_it_is_the_sign_in(web: WebEnv) -> None:
    assert (await page(web, "/grupos/120363000000000009@g.us/importar"))[0] == 403
    async with web.client.get(PAGE, allow_redirects=False) as response:
        assert response.status == 303


async def test_the_page_is_in_the_person_s_language(web: WebEnv) -> None:
    from taskcore.services.languages import choose_language  # noqa: PLC0415

    units.run(web.db, choose_language, user_id=ME, lang="en", default="es", now=NOW)
    _, text = await page(web)
    assert "Import tasks from a file" in text


async def test_an_american_s_preview_says_how_its_dates_were_read_and_flags_a_past_one(web: WebEnv) -> None:
    """SPEC section 39 (measured: an American's 12/01/2026 became 12 January without a word)."""
    american, house = "13105550123", "120363000000000002@g.us"
    make_group(web.db, house, name="House", members=(american,))
    path = f"/grupos/{quote(house, safe='@')}/importar"
    cookie = web.session_for(american)
    check = CHECK.search((await page(web, path, cookie=cookie))[1])
    assert check is not None
    body = b"description,due date\nPay the rent,12/01/2026\nOld bill,03/02/2025\n"
    status, text, _ = await send(web, {"form_check": check.group(1), "step": "preview", "file": body}, cookie, path)
    assert status == 200
    assert ("Dates are read month first (MM/DD/YYYY): 12/01/2026 is December 1, 2026. If your sheet puts the day "
            "first, write them as YYYY-MM-DD.") in text
    assert "Due 2026-12-01" in text
    assert "⚠️ The date 2025-03-02 has already passed: is that the one you meant?" in html.unescape(text)
