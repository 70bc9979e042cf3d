"""Sign-in by link, the session cookie, sign-out and the development default user (SPEC section 6, seed A1, A6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from http.cookies import SimpleCookie

import pytest

from taskcore.services.web_auth import issue_login_token
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web.routes import ROUTES
from tasksvc_run.web.session import COOKIE
from tests.integration.web_helpers import ME, WebEnv, web_env

MADRID = {"tz": "Europe/Madrid", "tz_source": "phone",  # a +34 number: its prefix says Spain (SPEC 30)
           "lang": "es", "quiet": None, "away_until": None}


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with web_env(db) as env:
        yield env


def session_cookie(set_cookie: str) -> SimpleCookie:
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(set_cookie)
    return cookie


async def login(web: WebEnv, token: str) -> tuple[int, dict[str, str], str]:
    async with web.client.get("/login", params={"token": token}, allow_redirects=False) as response:
        return response.status, dict(response.headers), await response.text()


class TestLogin:
    async def test_a_valid_link_sets_the_session_cookie_and_redirects_home(self, web: WebEnv) -> None:
        status, headers, _ = await login(web, units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now()))
        morsel = session_cookie(headers["Set-Cookie"])[COOKIE]
        assert (status, headers["Location"]) == (303, "/")
        assert (morsel["httponly"], morsel["samesite"], morsel["path"], morsel["secure"]) == (True, "Lax", "/", "")
        assert morsel["max-age"] == str(30 * 24 * 3600)

    async def test_the_cookie_is_secure_when_the_public_base_is_https(self, db: Database) -> None:
        async with web_env(db, WEB_BASE_URL="https://tareas.example.org") as web:
            _, headers, _ = await login(web, units.run(db, issue_login_token, user_id=ME, now=web.clock.now()))
        assert session_cookie(headers["Set-Cookie"])[COOKIE]["secure"] is True

    async def test_the_new_session_opens_the_api(self, web: WebEnv) -> None:
        await login(web, units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now()))
        async with web.client.get("/api/me/preferences") as response:  # the client's cookie jar holds it
            assert response.status == 200

    async def test_a_link_works_only_once(self, web: WebEnv) -> None:
        token = units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now())
        await login(web, token)
        status, headers, page = await login(web, token)
        assert (status, "Set-Cookie" in headers) == (401, False)
        assert "/t web" in page

    async def test_an_expired_link_is_refused(self, web: WebEnv) -> None:
        token = units.run(web.db, issue_login_token, user_id=ME, now=web.clock.now())
        web.clock.advance(timedelta(minutes=16))
        assert (await login(web, token))[0] == 401

    @pytest.mark.parametrize("token", ["", "x" * 43, "not a token", "%00"])
    async def test_an_invalid_link_gets_a_401_page_explaining_how_to_get_a_new_one(self, web: WebEnv,
                                                                                  token: str) -> None:
        status, headers, page = await login(web, token)
        assert (status, headers["Content-Type"]) == (401, "text/html; charset=utf-8")
        assert "<kbd>/t web</kbd>" in page

    async def test_the_login_page_sends_no_referrer_so_the_token_cannot_leak(self, web: WebEnv) -> None:
        _, headers, _ = await login(web, "bad")
        assert headers["Referrer-Policy"] == "no-referrer"


class TestSession:
    @pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
    async def test_every_api_operation_needs_a_session(self, web: WebEnv, route: object) -> None:
        path = route.path.replace("{id}", "1")  # type: ignore[attr-defined]
        status, problem = await web.call(route.method, path, user=None)  # type: ignore[attr-defined]
        assert (status, problem["status"]) == (401, 401)

    async def test_an_unknown_session_cookie_is_no_session(self, web: WebEnv) -> None:
        status, _ = await web.call("GET", "/api/me/tasks", user=None, headers={"Cookie": f"{COOKIE}={'a' * 43}"})
        assert status == 401

    async def test_a_session_unused_for_seven_days_expires(self, web: WebEnv) -> None:
        headers = web.session_for()
        web.clock.advance(timedelta(days=7, minutes=1))
        assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 401

    async def test_a_session_in_use_lasts_until_its_absolute_expiry(self, web: WebEnv) -> None:
        headers = web.session_for()
        for _ in range(4):
            web.clock.advance(timedelta(days=6))
            assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 200
        web.clock.advance(timedelta(days=6))
        assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 401


class TestLogout:
    async def test_logout_ends_the_session_and_clears_the_cookie(self, web: WebEnv) -> None:
        headers = web.session_for()
        async with web.client.post("/logout", headers=headers, allow_redirects=False) as response:
            cleared = session_cookie(response.headers["Set-Cookie"])[COOKIE]
            assert (response.status, response.headers["Location"]) == (303, "/")
        assert (cleared.value, cleared["max-age"]) == ("", "0")
        assert (await web.call("GET", "/api/me/tasks", user=None, headers=headers))[0] == 401

    async def test_logout_without_a_session_is_harmless(self, web: WebEnv) -> None:
        async with web.client.post("/logout", allow_redirects=False) as response:
            assert response.status == 303


class TestDevelopmentDefaultUser:
    async def test_in_development_the_default_user_needs_no_cookie(self, db: Database) -> None:
        async with web_env(db, NODE_ENV="development", DEV_DEFAULT_USER=ME) as web:
            await web.call("POST", "/api/me/preferences", user=None, json={"freq": "daily"})
        async with web_env(db) as web:
            assert await web.call("GET", "/api/me/preferences", user=ME) == (
                200, {"freq": "daily", "time": "08:30", **MADRID})

    @pytest.mark.parametrize("env", ["test", "production"])
    async def test_outside_development_the_default_user_is_ignored(self, db: Database, env: str) -> None:
        async with web_env(db, NODE_ENV=env, DEV_DEFAULT_USER=ME) as web:
            assert (await web.call("GET", "/api/me/tasks", user=None))[0] == 401

    async def test_a_real_session_wins_over_the_default_user(self, db: Database) -> None:
        async with web_env(db, NODE_ENV="development", DEV_DEFAULT_USER="34999999999") as web:
            await web.call("POST", "/api/me/preferences", user=ME, json={"freq": "weekly"})
            assert await web.call("GET", "/api/me/preferences", user=None) == (
                200, {"freq": "off", "time": "08:30", **MADRID, "tz_source": "default"})  # no valid number
