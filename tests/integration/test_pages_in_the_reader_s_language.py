"""Pages in the reader's language (SPEC section 39): recurrences, states and counts on the web pages and in the API's
readable fields in the reader's language (measured: the English page said ``cada mes``); the preference form takes a
city's name for the zone as the chat's ``/t zona`` does (measured: it refused ``Tijuana``)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from urllib.parse import quote

import pytest
from sqlalchemy import update

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

BRITON = "447812345678"
PAGES = ("/", "/grupos", f"/grupos/{quote(GROUP, safe='@')}", "/recordatorios",
         f"/grupos/{quote(GROUP, safe='@')}/premios",
         "/aprobaciones", "/calendario", "/tokens")


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Flat 3B", members=(BRITON, ME, OTHER))
    with db.write() as conn:
        ensure_user(conn, BRITON, NOW, name="Harry")
        ensure_user(conn, ME, NOW, name="Ana")
    monthly = make_task(db, creator=BRITON, group_id=GROUP, description="Pay the rent", due="2026-12-01",
                        assignees=(BRITON, ME))
    with db.write() as conn:
        conn.execute(update(schema.tasks).where(schema.tasks.c.id == monthly.id).values(
            recurrence_rule="FREQ=MONTHLY;BYMONTHDAY=1", recurrence_text="cada mes"))
    async with web_env(db) as env:
        yield env


async def page(web: WebEnv, path: str, user: str = BRITON) -> str:
    async with web.client.get(path, headers=web.session_for(user)) as response:
        assert response.status == 200, path
        return await response.text()


def visible(html: str) -> str:
    """The page's text as a person reads it (no tags, scripts or styles; spaces collapsed)."""
    text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))


async def test_an_english_reader_s_pages_say_the_recurrence_in_english(web: WebEnv) -> None:
    """Measured: the English page said ``cada mes``."""
    for path in ("/", f"/grupos/{quote(GROUP, safe='@')}"):
        text = visible(await page(web, path))
        assert "↻ every month" in text, path
        assert "Due 1 Dec" in text
        assert "cada mes" not in text


async def test_the_api_s_readable_fields_follow_the_reader(web: WebEnv) -> None:
    _, mine = await web.call("GET", "/api/me/tasks", user=BRITON)
    assert mine["items"][0]["recurrence"]["text"] == "every month"
    _, theirs = await web.call("GET", f"/api/groups/{GROUP}/tasks", user=BRITON)
    assert theirs["items"][0]["recurrence"]["text"] == "every month"
    status, _ = await web.call("POST", "/api/me/preferences", user=BRITON, json={"freq": "off", "lang": "pt"})
    assert status == 200
    _, again = await web.call("GET", "/api/me/tasks", user=BRITON)  # not the answer kept for the English reader
    assert again["items"][0]["recurrence"]["text"] == "todo mês"
    _, spanish = await web.call("GET", "/api/me/tasks", user=ME)
    assert spanish["items"][0]["recurrence"]["text"] == "cada mes"


@pytest.mark.parametrize("path", PAGES)
async def test_no_page_of_an_english_reader_speaks_spanish(web: WebEnv, path: str) -> None:
    text = visible(await page(web, path))
    for spanish in ("cada ", "Vence", "tareas", "Sin ", "hecha", "puntos", "vencida"):
        assert spanish not in text, (path, spanish)


@pytest.mark.parametrize(("written", "zone"), [("Tijuana", "America/Tijuana"),
                                               ("Ciudad de México", "America/Mexico_City"),
                                               ("london", "Europe/London"), ("America/Bogota", "America/Bogota")])
async def test_the_preference_form_takes_a_city_as_the_chat_does(web: WebEnv, written: str, zone: str) -> None:
    """Measured: the form refused ``Tijuana``."""
    status, saved = await web.call("POST", "/api/me/preferences", user=BRITON, json={"freq": "daily", "tz": written})
    assert status == 200, saved
    assert saved["tz"] == zone


async def test_a_place_the_form_cannot_tell_apart_is_a_422_naming_the_zone_field(web: WebEnv) -> None:
    status, problem = await web.call("POST", "/api/me/preferences", user=BRITON, json={"freq": "daily", "tz": "Xq"})
    assert status == 422
    assert [error["field"] for error in problem["errors"]] == ["tz"]
    assert problem["errors"][0]["message"].startswith("unknown time zone: «Xq»")


async def test_the_group_page_s_week_counts_overdue_in_the_group_s_zone(web: WebEnv) -> None:
    """SPEC section 39: never the server's day (TZ is Madrid's here: already 23/11 at 23:30 UTC)."""
    with web.db.write() as conn:
        conn.execute(update(schema.groups).values(time_zone="America/Sao_Paulo"))
    make_task(web.db, creator=BRITON, group_id=GROUP, description="Wash up", due="2026-11-22", assignees=(BRITON,))
    web.clock.current = datetime(2026, 11, 22, 23, 30, tzinfo=UTC)  # 20:30 in São Paulo, still the 22nd
    html = await page(web, f"/grupos/{quote(GROUP, safe='@')}")
    row = re.search(rf'<tr data-person="{web.pid(BRITON)}"><th scope="row">Harry</th>(.*?)</tr>', html)
    assert row is not None
    assert re.findall(r"<td>(\d+)</td>", row.group(1)) == ["0", "0", "0"]  # done, points, overdue
