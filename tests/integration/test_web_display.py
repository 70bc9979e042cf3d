"""The kitchen display over HTTP (SPEC section 41): ``/pantalla/<token>`` without a session shows today's and this
week's chores of the group, whose turn it is and the week's points, large and refreshing itself, in the group's
language, with no phone number and no id of any kind; a new address revokes the old, and revoking leaves none."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from multidict import CIMultiDict
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.errors import Forbidden
from taskcore.services import languages
from taskcore.services.display import issue_display, revoke_display
from taskcore.services.tasks import complete_task
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

THIRD = "447700900123"  # a British number: none of its digits may reach the page
PHONES = (ME, OTHER, THIRD)


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia Souza", members=PHONES)
    with db.write() as conn:
        for user, name in ((ME, "Ana"), (OTHER, "Bruno"), (THIRD, "Carla")):
            ensure_user(conn, user, NOW, name=name)
        gm = schema.group_members
        conn.execute(update(gm).where(gm.c.group_id == GROUP, gm.c.user_id == ME).values(is_admin=True))
    async with web_env(db, WEB_BASE_URL="https://tareas.example") as env:
        yield env


def seed(db: Database) -> None:
    make_task(db, creator=ME, group_id=GROUP, assignees=(OTHER,), due="2026-11-22", description="Lavar la loza")
    make_task(db, creator=ME, group_id=GROUP, assignees=(ME, THIRD), due="2026-11-20", description="Regar el jardín")
    make_task(db, creator=ME, group_id=GROUP, assignees=(THIRD,), due="2026-11-25", description="Sacar la basura")
    make_task(db, creator=ME, group_id=GROUP, due="2026-11-27", description="Limpiar el horno")
    make_task(db, creator=ME, group_id=GROUP, assignees=(OTHER,), due="2026-12-10", description="Pintar la reja")
    done = make_task(db, creator=ME, group_id=GROUP, assignees=(OTHER,), due="2026-11-22", description="Hacer pan")
    units.run(db, complete_task, GatingMode.ENFORCE, user_id=OTHER, task_id=done.id, now=NOW)


async def fetch(web: WebEnv, path: str) -> tuple[int, CIMultiDict[str], str]:
    """GET without any session."""
    async with web.client.get(path) as response:
        return response.status, CIMultiDict(response.headers), await response.text()


def new_display(web: WebEnv, user: str = ME) -> str:
    token = units.run(web.db, issue_display, GatingMode.ENFORCE, group_id=GROUP, user_id=user, now=NOW)
    return f"/pantalla/{token}"


async def test_the_display_shows_today_this_week_whose_turn_and_points_without_a_session(web: WebEnv) -> None:
    seed(web.db)
    status, headers, html = await fetch(web, new_display(web))
    assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert headers["Cache-Control"] == "no-store"
    assert '<meta http-equiv="refresh" content="60">' in html
    today, week, points = html.split('id="today-title"')[1], html.split('id="week-title"')[1], html.split(
        'id="points-title"')[1]
    today = today.split('id="week-title"')[0]
    week = week.split('id="points-title"')[0]
    assert re.findall(r'<span class="what">([^<]+)</span>', today) == ["Regar el jardín", "Lavar la loza"]
    for shown in ("Ana, Carla", "atrasada desde el 20/11", "Bruno"):
        assert shown in today
    assert re.findall(r'<span class="what">([^<]+)</span>', week) == ["Sacar la basura", "Limpiar el horno"]
    assert "Sin responsable" in week
    assert "Pintar la reja" not in html  # after this week
    assert "Hacer pan" not in html  # done
    assert re.findall(r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td></tr>', points) == [
        ("Bruno", "1", "1"), ("Ana", "0", "0"), ("Carla", "0", "0")]
    assert "Familia Souza" in html
    assert '<link rel="stylesheet" href="/static/display.css">' in html
    status, _headers, css = await fetch(web, "/static/display.css")
    assert status == 200
    assert "font: 1.5rem" in css  # large type


async def test_the_page_carries_no_phone_number_no_id_and_no_group_address(web: WebEnv) -> None:
    seed(web.db)
    _status, _headers, html = await fetch(web, new_display(web))
    for phone in PHONES:
        assert phone not in html
        assert phone[-6:] not in html
    for address in (GROUP.split("@")[0], "@g.us", "@s.whatsapp.net"):
        assert address not in html
    assert re.search(r"#\d", html) is None  # no task number
    for user in PHONES:
        assert web.pid(user) not in html


async def test_the_display_speaks_the_groups_language(web: WebEnv) -> None:
    with web.db.write() as conn:
        conn.execute(update(schema.groups).where(schema.groups.c.id == GROUP).values(lang="pt"))
    seed(web.db)
    _status, headers, html = await fetch(web, new_display(web))
    assert headers["Content-Language"] == "pt"
    for shown in ('<html lang="pt">', "Para hoje", "Pontos da semana"):
        assert shown in html


async def test_a_new_address_revokes_the_old_and_revoking_leaves_none(web: WebEnv) -> None:
    first = new_display(web)
    second = new_display(web)
    assert (await fetch(web, first))[0] == 404
    assert (await fetch(web, second))[0] == 200
    assert units.run(web.db, revoke_display, GatingMode.ENFORCE, group_id=GROUP, user_id=ME) is True
    assert (await fetch(web, second))[0] == 404
    assert (await fetch(web, "/pantalla/nunca-existio"))[0] == 404


async def test_only_a_group_admin_makes_one(web: WebEnv) -> None:
    with pytest.raises(Forbidden):
        new_display(web, OTHER)


async def test_a_blocked_group_shows_nothing(web: WebEnv) -> None:
    path = new_display(web)
    with web.db.write() as conn:
        conn.execute(update(schema.allowed_groups).where(schema.allowed_groups.c.group_id == GROUP)
                     .values(status="blocked"))
    assert (await fetch(web, path))[0] == 404


async def test_the_api_makes_replaces_and_revokes_a_groups_address(web: WebEnv) -> None:
    path = f"/api/groups/{GROUP}/display"
    status, body = await web.call("POST", path, user=ME)
    assert status == 201
    check_documented(document(), "/api/groups/{id}/display", "POST", 201, body)
    first = str(body["url"]).removeprefix("https://tareas.example")
    assert first.startswith("/pantalla/")
    assert (await fetch(web, first))[0] == 200
    status, body = await web.call("POST", path, user=ME)
    second = str(body["url"]).removeprefix("https://tareas.example")
    assert (await fetch(web, first))[0] == 404
    assert (await web.call("POST", path, user=OTHER))[0] == 403  # a member, not an admin
    assert (await web.call("DELETE", path, user=OTHER))[0] == 403
    assert (await fetch(web, second))[0] == 200
    status, _ = await web.call("DELETE", path, user=ME)
    assert status == 204
    assert (await fetch(web, second))[0] == 404
    assert (await web.call("POST", "/api/groups/120363000000000099@g.us/display", user=ME))[0] == 403


async def test_a_group_that_chose_no_language_is_shown_in_the_one_most_of_its_members_read(web: WebEnv) -> None:
    """SPEC section 39 (found trying a British flatshare: its display was in Spanish)."""
    for user in (OTHER, THIRD):
        units.run(web.db, languages.choose_language, user_id=user, lang="en", default="es", now=NOW)
    seed(web.db)
    _status, headers, html = await fetch(web, new_display(web))
    assert headers["Content-Language"] == "en"
    assert '<html lang="en">' in html
    assert "Para hoy" not in html
