"""`tasksvc dev --gateway waha` (SPEC section 36): the whole unit over a local fake that speaks WAHA's wire. The bot
sets its webhook in the local WAHA's session at its start (signed with WEBHOOK_SECRET), and the chat simulator's
messages reach the bot as WAHA posts them; GATEWAY_KIND in the environment does the same as the option."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.system.unit import Unit, unit_env

WITHIN = 30.0  # seconds: a loaded machine starts the unit and answers slowly


def call(unit: Unit, path: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST ``body`` to) one route of the unit; its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(  # noqa: S310 - loopback test URL
        unit.url(path), data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - loopback test URL
        return json.loads(answer.read())


def bot_wrote(unit: Unit, needle: str) -> dict[str, Any]:
    """The first message of the bot's in the simulator's transcript holding ``needle``, polled (bounded)."""
    deadline = time.monotonic() + WITHIN
    while time.monotonic() < deadline:
        for message in call(unit, "/dev/chat/api/state")["messages"]:
            if message["direction"] == "out" and needle in message.get("text", ""):
                return dict(message)
        time.sleep(0.2)
    raise AssertionError(f"{needle!r} never showed in the transcript:\n{unit.log()}")


@pytest.fixture(params=["option", "environment"])
def waha_unit(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Unit]:
    """`tasksvc dev --gateway waha`, or `tasksvc dev` with GATEWAY_KIND=waha, with a webhook secret."""
    by_option = request.param == "option"
    env = unit_env(tmp_path, WEBHOOK_SECRET="dev-webhook-secret", **({} if by_option else {"GATEWAY_KIND": "waha"}))
    del env["NODE_ENV"], env["DB_PATH"]  # dev mode chooses them
    unit = Unit("dev", env, tmp_path, args=("--gateway", "waha") if by_option else ()).start(
        wait_for="/dev/chat", within=WITHIN)
    yield unit
    assert unit.stop() == 0, unit.log()


def test_the_simulator_talks_to_the_bot_through_a_local_waha(waha_unit: Unit) -> None:
    assert "(a local WAHA)" in waha_unit.log()
    deadline = time.monotonic() + WITHIN
    state = call(waha_unit, "/dev/chat/api/state")
    while not any(g["name"] == "Familia" for g in state["groups"]) and time.monotonic() < deadline:
        time.sleep(0.2)  # the seed lands after the unit answers
        state = call(waha_unit, "/dev/chat/api/state")
    family = next(g["id"] for g in state["groups"] if g["name"] == "Familia")
    user = state["users"][0]["id"]
    sent = call(waha_unit, "/dev/chat/api/send", {"user": user, "chat": family, "text": "/t nueva regar"})
    assert sent == {"webhook_status": 200}  # signed as WAHA signs, with the secret the bot set in the session
    created = bot_wrote(waha_unit, "regar")
    assert created["chat"] == family
    assert "Tarea #" in created["text"]
