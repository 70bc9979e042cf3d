"""The OpenAPI document says what the server enforces (SPEC section 28): schemathesis, with every check, generates
requests from the document the installed unit serves and sends them through the proxy, once with a session cookie
and once with a bearer token; neither run reports a failure. Each run is bounded in time (MAX_TIME).

The runs bring their own credentials, so schemathesis does not generate security parameters (a made-up bearer token
beside the session cookie is the documented 400 for both credentials at once). The session run sends what the
document's session requirement names for a write without a body: the cookie and the `jsonWrite` declaration
(`Content-Type: application/json`, SPEC 16), and so leaves out the CSV import, whose body is `text/csv` (the bearer run
exercises it). The bearer run leaves out DELETE /api/me/tokens/{id}: it would revoke the token it runs with (the
session run exercises it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tests.fakes.gateway import FakeGateway
from tests.system.chatting import say
from tests.system.unit import Unit, gateway_env, http_status, unit_env

ANA = "34600000001"
# schemathesis's warning when more than eight operations answered nothing but 401 or 403 (the eight of a group: its
# tasks, its members, its rewards, redeeming one, its CSV file and its import, making and revoking its kitchen
# display, for group ids that are not Ana's)
UNAUTHENTICATED = re.compile(r"Authentication failed: (9|[1-9][0-9]+) operations")
# The preferences' `time` and `tz` are read as people write them (SPEC section 39: `7 pm`, `a las 8`, `Tijuana`), by the
# chat's own readers; a text they cannot read is a 422 naming the field, which no JSON Schema pattern can say. For that
# operation a 422 to a request the document admits is expected; every other check still runs on it.
CONFIG = """
[[operations]]
include-operation-id = "setPreferences"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
"""
WITHIN = 30.0
MAX_TIME = 15  # seconds schemathesis may spend on one run: every phase runs in ~6 s, fuzzing repeats for the rest
MAX_EXAMPLES = 12  # per operation and phase
# Every write takes from the person's bucket; generated requests must meet the rules, not the rate limit.
UNBOUNDED = {"RATE_LIMIT_PER_MIN": "1000000", "RATE_LIMIT_BURST": "1000000"}


@dataclass
class SignedIn:
    """The unit, the document it serves, and Ana's two credentials."""

    unit: Unit
    document: Path
    cookie: str
    token: str


async def _say(http: aiohttp.ClientSession, unit: Unit, gateway: FakeGateway, text: str, marker: str) -> str:
    return await say(http, unit, gateway, text, marker, sender=ANA, within=WITHIN)


async def _sign_in(unit: Unit, gateway: FakeGateway, tmp: Path) -> SignedIn:
    """Ana makes a task in the chat, signs in by her link, makes an API token; the document is saved to a file."""
    async with aiohttp.ClientSession() as http:
        await _say(http, unit, gateway, "/t nueva Sacar la basura mañana", "Tarea #1 creada")
        login = await _say(http, unit, gateway, "/t web", "/login?token=")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
        async with browser.get(login.rsplit("\n", 1)[1]) as signed_in:
            assert signed_in.status == 200, (signed_in.status, await signed_in.text(), unit.log())
        cookie = next(c.value for c in browser.cookie_jar if c.key == "tasksvc_session")
        async with browser.post(unit.url("/api/me/tokens"), json={"name": "schemathesis"}) as made:
            token = (await made.json())["token"]
        async with browser.get(unit.url("/api/openapi.json")) as answer:
            document = tmp / "openapi.json"
            document.write_bytes(await answer.read())
    return SignedIn(unit, document, cookie, token)


def _wait_for_the_web(unit: Unit) -> None:
    """Bounded: the proxy answers /health before the web is up; an /api path answers 401 once it is."""
    deadline = time.monotonic() + WITHIN
    while http_status(unit.url("/api/me/tasks")) != 401:
        assert time.monotonic() < deadline, unit.log()
        time.sleep(0.1)


@contextlib.asynccontextmanager
async def signed_in_unit(tmp: Path) -> AsyncIterator[SignedIn]:
    """The installed unit on loopback (writes unbounded by the rate limit), Ana signed in; stopped after."""
    async with FakeGateway() as gateway:
        env = unit_env(tmp, **gateway_env(gateway.url), **UNBOUNDED)
        env["WEB_BASE_URL"] = f"http://127.0.0.1:{env['PORT']}"
        unit = Unit("run", env, tmp)
        await asyncio.to_thread(unit.start)
        try:
            await asyncio.to_thread(_wait_for_the_web, unit)
            yield await _sign_in(unit, gateway, tmp)
        finally:
            await asyncio.to_thread(unit.stop)


def schemathesis(signed_in: SignedIn, report: Path, *extra: str) -> tuple[int, str, dict[str, object]]:
    """Run schemathesis with every check against the unit; (exit status, output, JSON report)."""
    config = report.parent / "schemathesis.toml"
    config.write_text(CONFIG)
    command = [str(Path(sys.executable).with_name("schemathesis")), "--config-file", str(config), "run",
               str(signed_in.document),
               "--url", signed_in.unit.url(""), "--checks", "all", *extra,
               "--generation-with-security-parameters", "false",
               "--max-examples", str(MAX_EXAMPLES), "--max-time", str(MAX_TIME), "--workers", "1",
               "--generation-database", "none", "--seed", "1", "--no-color", "--request-timeout", "10",
               "--report", "json", "--report-json-path", str(report)]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": ""}
    done = subprocess.run(command, capture_output=True, text=True, timeout=MAX_TIME + 60, env=env,  # noqa: S603
                          check=False, cwd=report.parent)
    summary = json.loads(report.read_text()) if report.exists() else {}
    return done.returncode, done.stdout[-12000:] + done.stderr[-4000:], summary


@pytest.mark.parametrize("credential", ["session", "bearer"])
async def test_schemathesis_with_every_check_finds_no_failure(credential: str, tmp_path: Path) -> None:
    async with signed_in_unit(tmp_path) as signed_in:
        name, value = (("Cookie", f"tasksvc_session={signed_in.cookie}") if credential == "session"
                       else ("Authorization", f"Bearer {signed_in.token}"))
        # The session run's header declares every body JSON, so it leaves out the one write whose body is a CSV file
        # (importGroupTasks, SPEC 35): the bearer run sends it as the document says.
        extra = (("--header", "Content-Type: application/json", "--exclude-operation-id", "importGroupTasks")
                 if credential == "session" else ("--exclude-operation-id", "deleteToken"))
        extra += ("--exclude-operation-id", "forgetMe")  # erasing Ana ends the credential (tested on its own)
        status, output, _ = await asyncio.to_thread(schemathesis, signed_in, tmp_path / "report.json",
                                                    "--header", f"{name}: {value}", *extra)
        async with aiohttp.ClientSession() as http, http.get(signed_in.unit.url("/api/me/tasks"),
                                                             headers={name: value}) as still:
            assert still.status == 200  # the credential held to the end: the run was not a run of 401s
    assert status == 0, output
    figures = re.search(r"\d+ generated, \d+ passed.*", output)
    assert figures is not None, output
    print(f"\nschemathesis ({credential}): {figures.group(0)}")  # in the log of a run with -s
    assert not UNAUTHENTICATED.search(output), output  # at most the group endpoints, for groups not Ana's
