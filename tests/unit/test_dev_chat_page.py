"""The chat simulator's page (SPEC section 12) as installed: usable on a phone (the browser test in
tests/system/test_dev_simulator.py drives it at a phone's size)."""

from __future__ import annotations

from importlib.resources import files

PAGE = files("tasksvc_run.devgateway").joinpath("chat.html").read_text(encoding="utf-8")


def test_it_speaks_to_touch_screens_too() -> None:
    assert "ratón" not in PAGE
    assert "Toca un mensaje" in PAGE


def test_the_conversation_has_a_bounded_box_of_its_own_that_shows_the_newest_message() -> None:
    assert "overflow-y: auto" in PAGE
    assert "height: min(60vh, 36rem)" in PAGE
    assert "overflow-wrap: anywhere" in PAGE
    assert "log.scrollTop = log.scrollHeight" in PAGE
