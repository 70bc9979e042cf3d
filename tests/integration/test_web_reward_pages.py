"""The pages of rewards and approvals (SPEC section 34): a group's rewards with my balance and a redeem button, and
"Aprobaciones" with the reward requests (approve, refuse with a reason) and the photos that wait for me; plain forms
checked as the task form is, in the reader's language."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator

import pytest

from taskcore.chores.proof import PendingPhoto
from taskcore.services import languages, reward_requests
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW
from tests.chat_support import queued
from tests.integration.test_web_rewards import ADMIN, earn, offer, rewards_web
from tests.integration.test_web_task_form import browser
from tests.integration.web_helpers import GROUP, ME, WebEnv

PAGE = f"/grupos/{GROUP.replace('@', '%40')}/premios"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with rewards_web(db) as env:
        yield env


async def test_the_rewards_page_shows_my_balance_and_a_redeem_button_per_reward(web: WebEnv) -> None:
    offer(web.db, 3)
    earn(web.db, 5)
    status, page = await browser(web).get(PAGE)
    assert status == 200
    assert "Tienes 5 puntos" in page
    assert f'action="/grupos/{GROUP.replace("@", "%40")}/premios/1/canjear"' in page
    assert "Canjear" in page
    _, group_page = await browser(web).get(f"/grupos/{GROUP.replace('@', '%40')}")
    assert 'href="/grupos/' in group_page
    assert "Premios y tus puntos" in group_page


async def test_redeeming_from_the_page_makes_the_request_and_tells_the_group(web: WebEnv) -> None:
    offer(web.db, 3)
    earn(web.db, 5)
    me = browser(web)
    status, _, location = await me.post(f"{PAGE}/1/canjear", [("form_check", await me.check(PAGE))])
    assert (status, location) == (303, PAGE.replace("%40", "@"))
    _, page = await me.get(PAGE)
    assert "Tus canjes" in page
    assert "Pendiente" in page
    assert "(3 apartados para canjes pendientes)" in page
    assert queued(web.db)[-1].text.endswith("/t aprobar canje 1")


async def test_a_redeem_over_the_balance_is_the_page_again_naming_it(web: WebEnv) -> None:
    offer(web.db, 9)
    earn(web.db, 2)
    me = browser(web)
    check = await me.check(PAGE)
    status, page, _ = await me.post(f"{PAGE}/1/canjear", [("form_check", check)])
    assert status == 409
    assert html.escape("No te llega: «Cine» cuesta 9 puntos y tienes 2 puntos.", quote=False) in page
    assert queued(web.db) == []


async def test_a_form_without_its_check_is_refused(web: WebEnv) -> None:
    offer(web.db, 1)
    earn(web.db, 2)
    status, _, _ = await browser(web).post(f"{PAGE}/1/canjear", [("form_check", "0" * 64)])
    assert status == 403
    assert queued(web.db) == []


async def test_approvals_lists_requests_and_photos_and_approves(web: WebEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    offer(web.db, 3)
    earn(web.db, 5)
    units.run(web.db, reward_requests.redeem, reward_requests.GatingMode.OFF, user_id=ME, reward_id=1, group_id=GROUP,
              now=NOW)
    photo = PendingPhoto(7, GROUP, "Familia", "Limpiar el baño", "Luis", NOW)
    monkeypatch.setattr(reward_requests, "pending_photos", lambda db, user_id: [photo])
    admin = browser(web, ADMIN)
    status, page = await admin.get("/aprobaciones")
    assert status == 200
    assert "2 cosas esperan tu aprobación" in page
    assert html.escape("Ana pide «Cine»", quote=False) in page
    assert "Limpiar el baño" in page
    assert "/t aprobar 7" in page
    check = await admin.check("/aprobaciones")  # the session's: the same for every form of the session
    status, _, location = await admin.post("/aprobaciones/canjes/1/aprobar", [("form_check", check)])
    assert (status, location) == (303, "/aprobaciones")
    assert queued(web.db)[-1].text == f"✅ Canje #1 aprobado: «Cine» para @{ME}. Le quedan 2 puntos."
    status, page, _ = await admin.post("/aprobaciones/canjes/1/aprobar", [("form_check", check)])
    assert status == 409
    assert "El canje #1 ya estaba aprobado." in page


async def test_refusing_with_a_reason_and_a_member_who_is_not_admin(web: WebEnv) -> None:
    offer(web.db, 3)
    earn(web.db, 5)
    units.run(web.db, reward_requests.redeem, reward_requests.GatingMode.OFF, user_id=ME, reward_id=1, group_id=GROUP,
              now=NOW)
    me = browser(web)
    _, page = await me.get("/aprobaciones")
    assert "Nada espera tu aprobación." in page
    check = await me.check(PAGE)
    status, page, _ = await me.post("/aprobaciones/canjes/1/aprobar", [("form_check", check)])
    assert status == 403
    admin = browser(web, ADMIN)
    status, _, _ = await admin.post("/aprobaciones/canjes/1/rechazar",
                                    [("form_check", await admin.check("/aprobaciones")), ("reason", "mañana")])
    assert status == 303
    assert queued(web.db)[-1].text.endswith("Motivo: mañana")


async def test_the_pages_speak_the_readers_language(web: WebEnv) -> None:
    offer(web.db, 3)
    earn(web.db, 1)
    for user, lang in ((ME, "pt"), (ADMIN, "en")):
        units.run(web.db, languages.choose_language, user_id=user, lang=lang, default="es", now=NOW)
    async with web.client.get(PAGE, headers=web.session_for(ME)) as response:
        page = await response.text()
    assert "Você tem 1 ponto" in page
    assert "Resgatar" in page
    async with web.client.get("/aprobaciones", headers=web.session_for(ADMIN)) as got:
        page = await got.text()
    assert "Nothing is waiting for your approval." in page
    assert "Approvals" in page


@pytest.mark.parametrize("path", ["/aprobaciones", PAGE])
async def test_the_pages_need_a_session(web: WebEnv, path: str, db: Database) -> None:
    async with web.client.get(path, allow_redirects=False) as response:
        assert (response.status, response.headers.get("Location")) == (303, "/")
