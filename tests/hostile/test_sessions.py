"""Sessions against an attacker, through the proxy of the real unit: no session fixation, no token replay, and the
cookie flags of SPEC section 6 (HttpOnly, SameSite=Lax, Path=/, Secure behind https) as the browser receives them.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

from taskcore.services.web_auth import issue_login_token
from tasksvc_run import units
from tests.hostile.conftest import ME, Running, run_unit

ATTACKER = "34611000666"


def _session(answer_cookie: str) -> str:
    """The session id of a Set-Cookie header value."""
    return SimpleCookie(answer_cookie)["tasksvc_session"].value


def _who(running: Running, cookie: str) -> int:
    """The status of GET /api/me/tasks with ``cookie``."""
    return running.request("GET", "/api/me/tasks", headers={"Cookie": cookie}).status


def test_a_cookie_planted_before_login_is_not_adopted(running: Running) -> None:
    planted = secrets.token_urlsafe(32)  # the shape of a real session id
    answer = running.login(ME, cookie=f"tasksvc_session={planted}")
    assert answer.status == 303
    issued = _session(answer.cookies[0])
    assert issued != planted
    assert _who(running, f"tasksvc_session={planted}") == 401
    assert _who(running, f"tasksvc_session={issued}") == 200


def test_an_attackers_own_session_planted_in_a_victims_browser_stays_the_attackers(running: Running) -> None:
    attacker = running.cookie(ATTACKER)
    asked = running.login(ME, cookie=attacker)
    assert (asked.status, asked.cookies) == (200, [])  # another user's session: the victim is asked first
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', asked.body.decode()))
    answer = running.request("POST", "/login", body=urlencode(form).encode(),
                             headers={"Cookie": attacker, "Content-Type": "application/x-www-form-urlencoded"})
    victim = f"tasksvc_session={_session(answer.cookies[0])}"
    assert victim != attacker
    prefs = running.request("POST", "/api/me/preferences", body=b'{"freq": "weekly", "time": "06:45"}',
                            headers={"Cookie": victim, "Content-Type": "application/json"})
    assert prefs.status == 200
    seen_by_attacker = running.request("GET", "/api/me/preferences", headers={"Cookie": attacker}).json()
    assert seen_by_attacker != {"freq": "weekly", "time": "06:45"}  # the victim's writes never reach the attacker


def test_a_used_login_link_gives_401_and_no_cookie(running: Running) -> None:
    token = units.run(running.db, issue_login_token, user_id=ME, now=datetime.now(UTC))
    first = running.request("GET", f"/login?token={token}")
    replay = running.request("GET", f"/login?token={token}")
    assert first.status == 303
    assert replay.status == 401
    assert replay.headers["content-type"].startswith("text/html")
    assert replay.cookies == []


def test_a_replayed_link_does_not_end_the_session_it_opened(running: Running) -> None:
    token = units.run(running.db, issue_login_token, user_id=ME, now=datetime.now(UTC))
    cookie = f"tasksvc_session={_session(running.request('GET', f'/login?token={token}').cookies[0])}"
    assert running.request("GET", f"/login?token={token}").status == 401
    assert _who(running, cookie) == 200


def test_forged_tokens_and_session_ids_are_refused(running: Running) -> None:
    for token in ("", "x", "A" * 43, "A" * 4000, "%00", "..%2f..", secrets.token_urlsafe(32)):
        assert running.request("GET", f"/login?token={token}").status == 401, token
    for session in ("", "A" * 43, "A" * 4000, '"quoted"', secrets.token_urlsafe(32)):
        assert _who(running, f"tasksvc_session={session}") == 401, session


def test_logout_ends_the_session_for_whoever_holds_the_cookie(running: Running) -> None:
    cookie = running.cookie()
    answer = running.request("POST", "/logout", headers={"Cookie": cookie})
    assert answer.status == 303
    cleared = SimpleCookie(answer.cookies[0])["tasksvc_session"]
    assert cleared.value == "" or cleared["max-age"] == "0"
    assert _who(running, cookie) == 401


def _flags(set_cookie: str) -> dict[str, str | bool]:
    morsel = SimpleCookie(set_cookie)["tasksvc_session"]
    return {"httponly": bool(morsel["httponly"]), "samesite": morsel["samesite"], "path": morsel["path"],
            "secure": bool(morsel["secure"])}


def test_the_cookie_is_httponly_lax_and_site_wide_and_not_secure_over_http(running: Running) -> None:
    answer = running.login()
    assert len(answer.cookies) == 1
    assert _flags(answer.cookies[0]) == {"httponly": True, "samesite": "Lax", "path": "/", "secure": False}


@pytest.fixture(scope="module")
def https_unit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from run_unit(Path(tmp_path_factory.mktemp("https")), WEB_BASE_URL="https://tareas.example.org")


def test_behind_an_https_base_url_the_cookie_is_also_secure(https_unit: Running) -> None:
    answer = https_unit.login()
    assert _flags(answer.cookies[0]) == {"httponly": True, "samesite": "Lax", "path": "/", "secure": True}
    logout = https_unit.request("POST", "/logout", headers={"Cookie": answer.cookies[0].split(";", 1)[0]})
    assert _flags(logout.cookies[0])["secure"] is True
