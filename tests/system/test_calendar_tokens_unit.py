"""Calendars and API tokens in the real unit (SPEC sections 2, 8 and 22): a person asks for the calendar and a web
link in the chat, subscribes, makes a token on the web and scripts with it, all through the proxy; afterwards no
secret of any kind is in the unit's log."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import aiohttp
from icalendar import Calendar

from tests.fakes.gateway import FakeGateway
from tests.system.chatting import say
from tests.system.unit import Unit, gateway_env, unit_env

ANA = "34600000001"
WITHIN = 30.0


async def _say(http: aiohttp.ClientSession, unit: Unit, gateway: FakeGateway, text: str, marker: str) -> str:
    return await say(http, unit, gateway, text, marker, sender=ANA, within=WITHIN)


async def _json(response: aiohttp.ClientResponse) -> Any:
    raw = await response.read()
    return json.loads(raw) if raw else None


async def test_a_person_subscribes_and_scripts_and_no_secret_reaches_the_log(tmp_path: Path) -> None:
    async with FakeGateway() as gateway:
        env = unit_env(tmp_path, **gateway_env(gateway.url))
        env["WEB_BASE_URL"] = f"http://127.0.0.1:{env['PORT']}"
        unit = Unit("run", env, tmp_path)
        await asyncio.to_thread(unit.start)
        secrets: list[str] = []
        try:
            async with aiohttp.ClientSession() as http:
                await _say(http, unit, gateway, "/t nueva Sacar la basura mañana", "Tarea #1 creada")
                link = await _say(http, unit, gateway, "/t calendario", "/cal/")
                feed = re.search(r"http://\S+/cal/(\S+)\.ics", link)
                assert feed is not None
                secrets.append(feed.group(1))
                async with http.get(feed.group(0)) as answer:  # a calendar client: no session, through the proxy
                    assert answer.headers["Content-Type"] == "text/calendar; charset=utf-8"
                    (event,) = Calendar.from_ical(await answer.read()).walk("VEVENT")
                    etag = answer.headers["ETag"]
                assert str(event["summary"]) == "#1 Sacar la basura"
                async with http.get(feed.group(0), headers={"If-None-Match": etag}) as answer:
                    assert answer.status == 304

                login = await _say(http, unit, gateway, "/t web", "/login?token=")
                secrets.append(login.rsplit("token=", 1)[1])
                async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
                    async with browser.get(login.rsplit("\n", 1)[1]) as signed_in:
                        assert signed_in.status == 200
                    secrets += [c.value for c in browser.cookie_jar]
                    async with browser.post(unit.url("/api/me/tokens"), json={"name": "Home Assistant"}) as made:
                        token = (await _json(made))["token"]
                secrets.append(token)

                bearer = {"Authorization": f"Bearer {token}"}
                async with http.get(unit.url("/api/me/tasks"), headers=bearer) as answer:
                    assert [t["description"] for t in (await _json(answer))["items"]] == ["Sacar la basura"]
                async with http.post(unit.url("/api/tasks/1/complete"), headers=bearer) as answer:
                    assert (answer.status, (await _json(answer))["completed"]) == (200, True)
                async with http.get(unit.url("/api/me/tokens"), headers=bearer) as answer:
                    (listed,) = (await _json(answer))["items"]
                async with http.delete(unit.url(f"/api/me/tokens/{listed['id']}"), headers=bearer) as answer:
                    assert answer.status == 204
                async with http.get(unit.url("/api/me/tasks"), headers=bearer) as answer:
                    assert answer.status == 401

                await _say(http, unit, gateway, "/t calendario borrar", "Calendario desactivado")
                async with http.get(feed.group(0)) as answer:
                    assert answer.status == 404
        finally:
            assert unit.stop() == 0
    log = unit.log_path.read_text(errors="replace")
    assert "proc=bot" in log
    assert "child=web" in log
    for secret in secrets:
        assert secret not in log
