"""A person is not a phone number, in the running unit (SPEC section 32, issue 40): with a LID group at the fake
gateway, no API answer, page, calendar feed or message the bot sends contains a member's phone number, nor a LID
but as a mention's tag; a person known only by a LID does everything; `tasksvc forget` leaves no trace of a person in
any table."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import aiohttp

from tests.fakes.gateway import FakeGateway
from tests.system.unit import Unit, gateway_env, unit_env

GROUP = "120363300000000011@g.us"
BOT = ("15550100000", "211000000000001")
ANA = ("15550100001", "198700000000001")
CARL = ("15550100011", "198700000000011")
NAMELESS = ("447700900123", "198700000000123")
LIA = (None, "198700000000777")  # known only by a LID
PHONES = [person[0] for person in (BOT, ANA, CARL, NAMELESS) if person[0]]
LIDS = [person[1] for person in (BOT, ANA, CARL, NAMELESS, LIA)]
WITHIN = 30.0
_ids = itertools.count(1)


def envelope(event: str, data: object) -> dict[str, object]:
    return {"event": event, "instance": "taskbot", "data": data, "sender": f"{BOT[0]}@s.whatsapp.net"}


def group_upsert() -> dict[str, object]:
    people = [{"id": f"{lid}@lid", **({"phoneNumber": f"{phone}@s.whatsapp.net"} if phone else {}), "admin": None}
              for phone, lid in (BOT, ANA, CARL, NAMELESS, LIA)]
    group = {"id": GROUP, "addressingMode": "lid", "subject": "Piso", "participants": people}
    return envelope("groups.upsert", [group])


def message(who: tuple[str | None, str], text: str, *, name: str, group: bool = True,
            mentioned: tuple[str, ...] = ()) -> dict[str, object]:
    phone, lid = who
    key: dict[str, object] = {"id": f"P{next(_ids):06d}", "fromMe": False}
    if group:
        key |= {"remoteJid": GROUP, "participant": f"{lid}@lid", "addressingMode": "lid"}
        if phone:
            key["participantAlt"] = f"{phone}@s.whatsapp.net"
    else:
        key["remoteJid"] = f"{phone}@s.whatsapp.net" if phone else f"{lid}@lid"
        if phone:
            key["remoteJidAlt"] = f"{lid}@lid"
    return envelope("messages.upsert", {
        "key": key, "pushName": name, "message": {"conversation": text}, "messageType": "conversation",
        "contextInfo": {"mentionedJid": list(mentioned)}, "messageTimestamp": 1795341600})


async def post(http: aiohttp.ClientSession, unit: Unit, event: dict[str, object]) -> None:
    async with http.post(unit.url("/webhook"), json=event) as answer:
        assert answer.status == 200, await answer.text()


async def link_for(http: aiohttp.ClientSession, unit: Unit, gateway: FakeGateway, who: tuple[str | None, str],
                   name: str) -> str:
    before = len(gateway.sent_texts())
    await post(http, unit, message(who, "/t web", name=name, group=False))
    await gateway.wait_for(lambda gw: any("token=" in t for t in gw.sent_texts()[before:]), within=WITHIN)
    return next(t for t in gateway.sent_texts()[before:] if "token=" in t).rsplit("\n", 1)[1]


async def signed_in(link: str) -> aiohttp.ClientSession:
    browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with browser.get(link) as answer:
        assert answer.status == 200
    return browser


async def read(browser: aiohttp.ClientSession, url: str, seen: list[tuple[str, str]]) -> str:
    async with browser.get(url) as answer:
        body = await answer.text()
        assert answer.status == 200, (url, body)
        assert "Server" not in answer.headers
    seen.append((url, body))
    return body


def digits_in(text: str) -> list[str]:
    return [d for d in (*PHONES, *LIDS) if d in text]


def rows_with(db: Path, digits: str) -> list[tuple[str, tuple[Any, ...]]]:
    with closing(sqlite3.connect(db)) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [(table, row) for table in tables for row in conn.execute(f'SELECT * FROM "{table}"')  # noqa: S608
                if any(digits in str(value) for value in row)]


async def test_no_member_sees_another_s_digits_and_erasure_leaves_no_trace(tmp_path: Path) -> None:
    async with FakeGateway() as gateway:
        env = unit_env(tmp_path, **gateway_env(gateway.url), REACTIONS_ENABLED="true", RATE_LIMIT_PER_MIN="1000")
        env["WEB_BASE_URL"] = f"http://127.0.0.1:{env['PORT']}"
        unit = Unit("run", env, tmp_path)
        await asyncio.to_thread(unit.start)
        seen: list[tuple[str, str]] = []
        try:
            async with aiohttp.ClientSession() as http:
                await post(http, unit, group_upsert())
                await post(http, unit, message(ANA, f"/t nueva Regar mañana @{CARL[1]}", name="Ana",
                                               mentioned=(f"{CARL[1]}@lid",)))
                await post(http, unit, message(CARL, "/t nueva Tender la ropa", name="Carl"))
                await post(http, unit, message(LIA, "/t nueva Fregar", name="Lía"))
                await post(http, unit, message(LIA, "/t tomar 1", name="Lía"))
                ana = await signed_in(await link_for(http, unit, gateway, ANA, "Ana"))
                lia = await signed_in(await link_for(http, unit, gateway, LIA, "Lía"))
            async with ana, lia:
                members = json.loads(await read(ana, unit.url(f"/api/groups/{GROUP}/members"), seen))["items"]
                assert [person["name"] for person in members] == ["Ana", "Carl", "Lía", None]  # never the bot
                people = {person["name"]: person["id"] for person in members}
                async with ana.post(unit.url("/api/tasks"), json={
                        "description": "Barrer", "group_id": GROUP,
                        "assignees": [people["Carl"], people[None]]}) as made:
                    assert made.status == 201
                    seen.append(("POST /api/tasks", await made.text()))
                async with ana.post(unit.url("/api/tasks"), json={"description": "Yo", "group_id": GROUP,
                                                                  "assignees": [CARL[0]]}) as refused:
                    assert refused.status == 422  # digits are no one's id
                for path in ("/api/me/tasks?status=recent", f"/api/groups/{GROUP}/tasks", "/api/me/groups", "/",
                             "/grupos", f"/grupos/{GROUP}"):
                    await read(ana, unit.url(path), seen)
                me = json.loads(await read(lia, unit.url("/api/me"), []))
                assert (me["phone"], me["name"]) == (None, "Lía")
                async with lia.post(unit.url("/api/me/preferences"),
                                    json={"freq": "daily", "time": "08:00", "tz": "America/Bogota"}) as saved:
                    assert saved.status == 200
                async with lia.post(unit.url("/api/me/calendar"), json=None,
                                    headers={"Content-Type": "application/json"}) as made:
                    feed = (await made.json())["url"]
                assert "Regar" in await read(lia, feed, seen)  # the dated task she took
                for path in (f"/grupos/{GROUP}", "/api/me/tasks", "/recordatorios"):
                    await read(lia, unit.url(path), seen)
                exported = json.loads(await read(lia, unit.url("/api/me/export"), []))
                assert [task["description"] for task in exported["data"]["tasks"]] == ["Regar", "Fregar"]
            await gateway.wait_for(lambda gw: any("Barrer" in t for t in gw.sent_texts()), within=WITHIN)
            for where, body in seen:  # what Ana and Lía read: nobody's digits, not even their own
                assert digits_in(body) == [], (where, digits_in(body))
            for call in gateway.calls_to("sendText"):
                text, number = call.body["text"], call.body["number"]
                assert [phone for phone in PHONES if phone in text] == [], text
                if number == GROUP:  # a LID only as a mention's tag, the person mentioned by their LID
                    for lid in LIDS:
                        if lid in text:
                            assert f"@{lid}" in text
                            assert f"{lid}@lid" in call.body.get("mentioned", [])
            erased = await asyncio.to_thread(
                subprocess.run, [sys.executable, "-m", "tasksvc_run", "forget", f"+{CARL[0]}"], env=env,
                cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
            assert erased.returncode == 0, erased.stderr
            assert rows_with(tmp_path / "tasks.db", CARL[0]) == []
            assert rows_with(tmp_path / "tasks.db", CARL[1]) == []
        finally:
            await asyncio.to_thread(unit.stop)
