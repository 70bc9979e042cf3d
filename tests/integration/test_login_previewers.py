"""A login link pasted in a chat is fetched by link previewers before the person taps it; neither they nor a HEAD
use up the token (SPEC section 27)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.services.web_auth import issue_login_token
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.integration.web_helpers import ME, WebEnv, web_env

PREVIEWERS = [
    "WhatsApp/2.23.20.0 A",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "TelegramBot (like TwitterBot)",
    "Twitterbot/1.0",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5",
]
BROWSER = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with web_env(db) as env:
        yield env


async def open_link(web: WebEnv, token: str, *, agent: str = BROWSER, method: str = "GET") -> tuple[int, str, bool]:
    async with web.client.request(method, "/login", params={"token": token}, headers={"User-Agent": agent},
                                  allow_redirects=False) as response:
        return response.status, await response.text(), "Set-Cookie" in response.headers


@pytest.mark.parametrize("agent", PREVIEWERS)
async def test_a_previewer_gets_a_harmless_page_and_the_link_still_signs_the_person_in(web: WebEnv, agent: str) -> None:
    token = units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now())
    status, page, cookie = await open_link(web, token, agent=agent)
    assert (status, cookie) == (200, False)
    assert "Abre este enlace en tu navegador" in page
    status, _, cookie = await open_link(web, token)
    assert (status, cookie) == (303, True)


async def test_a_head_does_not_use_up_the_link(web: WebEnv) -> None:
    token = units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now())
    status, _, cookie = await open_link(web, token, method="HEAD")
    assert (status, cookie) == (200, False)
    assert (await open_link(web, token))[0] == 303


async def test_a_browser_still_uses_the_link_once(web: WebEnv) -> None:
    token = units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now())
    assert (await open_link(web, token))[0] == 303
    assert (await open_link(web, token))[0] == 401
