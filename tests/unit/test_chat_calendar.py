"""``/t calendario`` (SPEC section 22): the feed's address by direct message only, like ``/t web``."""

from __future__ import annotations

import pytest

from taskcore.access import GatingMode
from taskcore.chat.commands import CalendarLink, CalendarRevoke
from taskcore.chat.grammar import parse_command
from taskcore.errors import NotFound
from taskcore.services.calendar import calendar_feed_since, issue_calendar_feed, read_calendar_feed
from taskcore.services.conversation.registry import SYNTAX, help_text
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, TODAY, make_group, make_task, wa_text
from tests.chat_support import policy, queued, run, texts

ANA = "34600111111"
LINK_START = ("Tu calendario de tareas: suscríbete a esta dirección desde Google Calendar, Apple Calendar o "
              "Thunderbird (no la compartas):\nhttps://tareas.example/cal/")
LINK_END = ".ics\nSi tenías otra, ya no funciona. Para desactivarlo: /t calendario borrar"


def token_of(text: str) -> str:
    return text.split("/cal/", 1)[1].split(".ics", 1)[0]


@pytest.mark.parametrize("text", ["/t calendario", "/t CALENDARIO", "/t calendar", "/t cal", "/tarea calendario"])
def test_calendario_alone_asks_for_an_address(text: str) -> None:
    assert parse_command(text, SYNTAX, today=TODAY) == CalendarLink()


@pytest.mark.parametrize("word", ["borrar", "Quitar", "desactivar", "revocar", "off", "delete", "revoke"])
def test_calendario_with_a_revoke_word_revokes(word: str) -> None:
    assert parse_command(f"/t calendario {word}", SYNTAX, today=TODAY) == CalendarRevoke()


@pytest.mark.parametrize(("text", "reason"), [
    ("/t calendario ver", "Opción no válida: «ver»"), ("/t calendario borrar ya", "Sobran datos"),
    ("/t calendario " + "z" * 60, "Opción no válida: «" + "z" * 40 + "…»")])
def test_anything_else_is_refused_with_the_accepted_form(db: Database, text: str, reason: str) -> None:
    run(db, wa_text(text, group=None))
    assert texts(db) == [f"{reason}.\nUso: /t calendario [borrar]"]


def test_in_a_direct_message_the_address_is_the_reply_and_opens_the_feed(db: Database) -> None:
    make_task(db, creator=ANA, group_id=None, due="2026-11-30")
    run(db, wa_text("/t calendario", group=None))
    (reply,) = queued(db)
    assert reply.text.startswith(LINK_START)
    assert reply.text.endswith(LINK_END)
    assert reply.label == "login"  # the queue drops the text once sent: the address is a credential
    feed = units.look(db, read_calendar_feed, GatingMode.OFF, token=token_of(reply.text), now=NOW)
    assert (feed.user_id, len(feed.tasks)) == (ANA, 1)


def test_in_a_group_the_address_goes_privately_and_the_group_hears_only_that(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    run(db, wa_text("/t calendario"))
    reply, link = queued(db)
    assert reply.text == f"@{ANA} Te lo envío por privado."
    assert (link.chat_id, link.label) == (f"{ANA}@s.whatsapp.net", "login")
    assert link.text.startswith(LINK_START)
    assert "/cal/" not in reply.text


def test_asking_again_gives_a_new_address_and_the_old_one_stops_working(db: Database) -> None:
    run(db, wa_text("/t calendario", group=None))
    run(db, wa_text("/t calendario", group=None))
    old, new = (token_of(text) for text in texts(db))
    assert old != new
    with pytest.raises(NotFound):
        units.look(db, read_calendar_feed, GatingMode.OFF, token=old, now=NOW)
    assert units.look(db, read_calendar_feed, GatingMode.OFF, token=new, now=NOW).user_id == ANA


def test_borrar_revokes_the_feed(db: Database) -> None:
    token = units.run(db, issue_calendar_feed, user_id=ANA, now=NOW)
    run(db, wa_text("/t calendario borrar", group=None))
    run(db, wa_text("/t calendario borrar", group=None))
    assert texts(db) == ["Calendario desactivado: su dirección ya no funciona.", "No tenías ningún calendario activo."]
    with pytest.raises(NotFound):
        units.look(db, read_calendar_feed, GatingMode.OFF, token=token, now=NOW)


def test_without_web_base_url_the_reply_says_what_is_missing(db: Database) -> None:
    run(db, wa_text("/t calendario", group=None), policy(web=None))
    assert texts(db) == ["El calendario no está disponible: falta configurar WEB_BASE_URL."]
    assert units.look(db, calendar_feed_since, user_id=ANA) is None


def test_the_help_shows_the_calendar_command() -> None:
    assert "• /t calendario [borrar] — ej.: /t calendario" in help_text()
