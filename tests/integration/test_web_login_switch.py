"""/login signs in only through the link's token, and never replaces the session of another user without asking
(login CSRF, SPEC section 16); a link that matches nothing costs no database write."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import timedelta
from http.cookies import SimpleCookie
from typing import Any

import pytest
from sqlalchemy import Connection

from taskcore.errors import Unauthorized
from taskcore.services.web_auth import issue_login_token, look_up_session, redeem_login_token
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tasksvc_run.web.session import COOKIE
from tests.builders import NOW
from tests.integration.web_helpers import ME, OTHER, WebEnv, web_env

FORGED = "A" * 43  # the shape of a real token


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with web_env(db) as env:
        yield env


@pytest.fixture
def writes(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the write transactions begun on ``db`` from now on."""
    begun: list[int] = []
    original: Callable[..., AbstractContextManager[Connection]] = db.write

    @contextmanager
    def counted(**kwargs: Any) -> Iterator[Connection]:
        begun.append(1)
        with original(**kwargs) as conn:
            yield conn

    monkeypatch.setattr(db, "write", counted)
    return begun


async def get_login(web: WebEnv, token: str, cookie: str | None = None) -> tuple[int, dict[str, str], str]:
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    async with web.client.get("/login", params={"token": token}, headers=headers, allow_redirects=False) as answer:
        result = answer.status, dict(answer.headers), await answer.text()
    web.client.session.cookie_jar.clear()  # only the cookies a test sends are sent
    return result


async def post_login(web: WebEnv, form: dict[str, str], cookie: str | None = None) -> tuple[int, dict[str, str]]:
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    async with web.client.post("/login", data=form, headers=headers, allow_redirects=False) as answer:
        result = answer.status, dict(answer.headers)
    web.client.session.cookie_jar.clear()
    return result


def signed_in_as(web: WebEnv, user: str) -> str:
    """A live session id of ``user``."""
    token = units.run(web.db, issue_login_token, user_id=user, now=web.clock.now())
    return units.run(web.db, redeem_login_token, token=token, now=web.clock.now()).session_id


async def user_of(web: WebEnv, session_id: str) -> int:
    """The status of a session-only API read with ``session_id``."""
    status, _ = await web.call("GET", "/api/me/preferences", user=None, headers={"Cookie": f"{COOKIE}={session_id}"})
    return status


def owner(web: WebEnv, session_id: str) -> str | None:
    """Whose live session ``session_id`` is (None: no live session)."""
    found = units.look(web.db, look_up_session, session_id=session_id, now=web.clock.now())
    return None if found is None else found.user_id


def hidden_fields(page: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))


def new_session(headers: dict[str, str]) -> str:
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(headers["Set-Cookie"])
    return cookie[COOKIE].value


class TestNoWriteForNothing:
    @pytest.mark.parametrize("token", [FORGED, "short"])
    def test_redeeming_a_token_that_matches_nothing_begins_no_write(self, db: Database, writes: list[int],
                                                                   token: str) -> None:
        with pytest.raises(Unauthorized):
            units.run(db, redeem_login_token, token=token, now=NOW)
        assert writes == []

    def test_a_used_or_expired_token_begins_no_write_either(self, db: Database, writes: list[int]) -> None:
        used = units.run(db, issue_login_token, user_id=ME, now=NOW)
        units.run(db, redeem_login_token, token=used, now=NOW)
        expired = units.run(db, issue_login_token, user_id=ME, now=NOW - timedelta(minutes=16))
        writes.clear()
        for token in (used, expired):
            with pytest.raises(Unauthorized):
                units.run(db, redeem_login_token, token=token, now=NOW)
        assert writes == []

    async def test_the_login_page_for_a_forged_link_begins_no_write(self, web: WebEnv, writes: list[int]) -> None:
        assert (await get_login(web, FORGED))[0] == 401
        assert writes == []


class TestAnotherUsersLink:
    async def test_it_shows_a_spanish_confirmation_page_instead_of_replacing_the_session(self, web: WebEnv) -> None:
        mine = signed_in_as(web, ME)
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        status, headers, page = await get_login(web, token, cookie=mine)
        assert (status, "Set-Cookie" in headers) == (200, False)
        assert "¿Cambiar de cuenta?" in page
        assert '<form method="post" action="/login">' in page
        assert hidden_fields(page)["token"] == token
        assert (owner(web, mine), await user_of(web, mine)) == (ME, 200)  # still signed in as before

    async def test_the_page_names_both_accounts_without_their_numbers(self, web: WebEnv) -> None:
        web.db.transact(lambda conn: ensure_user(conn, ME, NOW, name="Ana"))
        mine = signed_in_as(web, ME)
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        page = (await get_login(web, token, cookie=mine))[2]
        assert "Ana" in page
        assert f"la cuenta terminada en {OTHER[-4:]}" in page
        assert OTHER not in page

    async def test_the_page_never_submits_itself(self, web: WebEnv) -> None:
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        page = (await get_login(web, token, cookie=signed_in_as(web, ME)))[2]
        assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/app.js" defer>']  # no inline script
        assert '<button type="submit">' in page

    async def test_the_token_is_not_spent_until_confirmed(self, web: WebEnv) -> None:
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        await get_login(web, token, cookie=signed_in_as(web, ME))
        status, headers, _ = await get_login(web, token)  # the same link, in a browser without a session
        assert (status, owner(web, new_session(headers))) == (303, OTHER)

    async def test_confirming_switches_to_the_links_user_and_ends_the_previous_session(self, web: WebEnv) -> None:
        mine = signed_in_as(web, ME)
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        form = hidden_fields((await get_login(web, token, cookie=mine))[2])
        status, headers = await post_login(web, form, cookie=mine)
        assert (status, headers["Location"]) == (303, "/")
        assert owner(web, new_session(headers)) == OTHER
        assert (owner(web, mine), await user_of(web, mine)) == (None, 401)

    async def test_a_cross_site_post_carries_no_session_cookie_and_is_refused(self, web: WebEnv) -> None:
        mine = signed_in_as(web, ME)
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        form = hidden_fields((await get_login(web, token, cookie=mine))[2])
        status, headers = await post_login(web, form)  # SameSite=Lax: a POST from another site comes without it
        assert (status, "Set-Cookie" in headers) == (403, False)
        assert (await get_login(web, token))[0] == 303  # the link was not spent

    @pytest.mark.parametrize("code", ["", "0" * 64, "x"])
    async def test_a_post_without_the_pages_code_is_refused(self, web: WebEnv, code: str) -> None:
        mine = signed_in_as(web, ME)
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        status, headers = await post_login(web, {"token": token, "confirm": code}, cookie=mine)
        assert (status, "Set-Cookie" in headers) == (403, False)
        assert owner(web, mine) == ME

    async def test_a_code_made_for_another_session_is_refused(self, web: WebEnv) -> None:
        token = units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now())
        form = hidden_fields((await get_login(web, token, cookie=signed_in_as(web, ME)))[2])
        another = signed_in_as(web, ME)
        assert (await post_login(web, form, cookie=another))[0] == 403

    async def test_a_malformed_form_body_is_refused_like_a_form_without_the_token(self, web: WebEnv) -> None:
        # Found by tests/hostile/test_unit_fuzz.py: a multipart body without its boundary once answered 500.
        mine = signed_in_as(web, ME)
        headers = {"Content-Type": "multipart/form-data; boundary=x", "Cookie": f"{COOKIE}={mine}"}
        async with web.client.post("/login", data=b"", headers=headers, allow_redirects=False) as answer:
            assert answer.status == 403
        assert owner(web, mine) == ME


class TestOwnLink:
    async def test_a_link_of_the_same_user_signs_in_at_once_and_ends_the_previous_session(self, web: WebEnv) -> None:
        mine = signed_in_as(web, ME)
        status, headers, _ = await get_login(web, units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now()),
                                             cookie=mine)
        assert (status, headers["Location"]) == (303, "/")
        assert owner(web, new_session(headers)) == ME
        assert (owner(web, mine), await user_of(web, mine)) == (None, 401)

    async def test_an_expired_session_cookie_does_not_ask(self, web: WebEnv) -> None:
        stale = signed_in_as(web, ME)
        web.clock.advance(timedelta(days=8))
        status, _, _ = await get_login(web, units.run(web.db, issue_login_token, user_id=OTHER, now=web.clock.now()),
                                       cookie=stale)
        assert status == 303
