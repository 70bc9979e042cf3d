"""The chat simulator's page (SPEC section 12) as installed: usable on a phone (the browser test in
tests/system/test_dev_simulator.py drives it at a phone's size)."""

from __future__ import annotations

from importlib.resources import files

from taskcore.storage.db import Database
from tasksvc_run.devgateway.local import database_people
from tests.builders import make_group

PAGE = files("tasksvc_run.devgateway").joinpath("chat.html").read_text(encoding="utf-8")


def test_it_speaks_to_touch_screens_too() -> None:
    assert "ratón" not in PAGE
    assert "Toca un mensaje" in PAGE


def test_the_conversation_has_a_bounded_box_of_its_own_that_shows_the_newest_message() -> None:
    assert "overflow-y: auto" in PAGE
    assert "height: min(60vh, 36rem)" in PAGE
    assert "overflow-wrap: anywhere" in PAGE
    assert "log.scrollTop = log.scrollHeight" in PAGE


def test_anyone_can_be_added_and_a_pending_group_says_why_it_is_silent() -> None:
    assert 'id="person-number"' in PAGE
    assert 'id="person-name"' in PAGE
    assert "/admin permitir aquí" in PAGE
    assert 'statuses[group] !== "pending"' in PAGE


def test_the_simulator_s_groups_carry_their_status(db: Database) -> None:
    make_group(db, "1@g.us", name="Casa", status="pending")
    make_group(db, "2@g.us", name="Trabajo", status="allowed")
    make_group(db, "3@g.us", name="Otro", status=None)
    _users, groups = database_people(db)
    assert {g["name"]: g["status"] for g in groups} == {"Casa": "pending", "Trabajo": "allowed", "Otro": None}
