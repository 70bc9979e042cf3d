"""``/t pantalla`` (SPEC section 41): a group admin gets the kitchen display's secret address by direct message only
(as the calendar's), a new one revokes the old, ``/t pantalla borrar`` revokes it; anyone else is refused."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.chat.grammar import parse_command
from taskcore.chat.penalty_args import DisplayLink, DisplayRevoke
from taskcore.errors import NotFound
from taskcore.services.conversation.registry import SYNTAX
from taskcore.services.display import read_display
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, TODAY, make_group, wa_text
from tests.chat_support import policy, queued, run, texts

ANA, BEA = "34600111111", "34600222222"  # Ana is the group's admin
MADRID = ZoneInfo("Europe/Madrid")
LINK_START = ("Pantalla de «Casa» para la cocina: ábrela en una tablet o un móvil (no hace falta iniciar sesión):\n"
              "https://tareas.example/pantalla/")


def token_of(text: str) -> str:
    return text.split("/pantalla/", 1)[1].split("\n", 1)[0]


def read(db: Database, token: str) -> object:
    return units.look(db, read_display, GatingMode.OFF, token=token, now=NOW, zone=MADRID, default_language="es")


@pytest.fixture
def house(db: Database) -> str:
    make_group(db, GROUP, name="Casa", members=(ANA, BEA))
    with db.write() as conn:
        gm = schema.group_members
        conn.execute(update(gm).where(gm.c.group_id == GROUP, gm.c.user_id == ANA).values(is_admin=True))
    return GROUP


@pytest.mark.parametrize(("text", "command"), [
    ("/t pantalla", DisplayLink()), ("/t tela", DisplayLink()), ("/t display", DisplayLink()),
    ("/t pantalla borrar", DisplayRevoke()), ("/t tela apagar", DisplayRevoke()),
    ("/t display delete", DisplayRevoke())])
def test_the_words_of_the_three_languages(text: str, command: object) -> None:
    assert parse_command(text, SYNTAX, today=TODAY) == command


def test_the_admin_gets_the_address_privately_and_the_group_hears_only_that(db: Database, house: str) -> None:
    run(db, wa_text("/t pantalla", sender=ANA))
    reply, link = queued(db)
    assert reply.text == f"@{ANA} Te lo envío por privado."
    assert (link.chat_id, link.label) == (f"{ANA}@s.whatsapp.net", "login")  # dropped from the queue once sent
    assert link.text.startswith(LINK_START)
    assert link.text.endswith("Para desactivarla: /t pantalla borrar")
    assert "/pantalla/" not in reply.text
    assert read(db, token_of(link.text)).group_name == "Casa"  # type: ignore[attr-defined]


def test_a_new_address_revokes_the_old_and_borrar_revokes_it(db: Database, house: str) -> None:
    run(db, wa_text("/t pantalla", sender=ANA))
    run(db, wa_text("/t pantalla", sender=ANA))
    old, new = (token_of(text) for text in texts(db) if "/pantalla/" in text)
    with pytest.raises(NotFound):
        read(db, old)
    read(db, new)
    run(db, wa_text("/t pantalla borrar", sender=ANA))
    run(db, wa_text("/t pantalla borrar", sender=ANA))
    assert texts(db)[-2:] == [f"@{ANA} Pantalla desactivada: su enlace ya no funciona.",
                              f"@{ANA} Este grupo no tenía ninguna pantalla activa."]
    with pytest.raises(NotFound):
        read(db, new)


def test_anyone_but_an_admin_and_a_direct_message_are_refused(db: Database, house: str) -> None:
    run(db, wa_text("/t pantalla", sender=BEA))
    run(db, wa_text("/t pantalla borrar", sender=BEA))
    run(db, wa_text("/t pantalla", sender=ANA, group=None))
    assert texts(db) == [
        f"@{BEA} Solo un administrador del grupo (de WhatsApp) puede crear o borrar la pantalla.",
        f"@{BEA} Solo un administrador del grupo (de WhatsApp) puede crear o borrar la pantalla.",
        "La pantalla se pide en el grupo que va a mostrar."]


def test_without_web_base_url_the_reply_says_what_is_missing(db: Database, house: str) -> None:
    run(db, wa_text("/t pantalla", sender=ANA), policy(web=None))
    assert texts(db) == [f"@{ANA} La pantalla no está disponible: falta configurar WEB_BASE_URL."]


def test_in_english_and_portuguese(db: Database, house: str) -> None:
    run(db, wa_text("/t language en", sender=ANA, group=None))
    run(db, wa_text("/t display", sender=ANA))
    assert queued(db)[-1].text.startswith("Kitchen display for «Casa»: open it on a tablet or a phone")
    run(db, wa_text("/t idioma pt", sender=BEA, group=None))
    run(db, wa_text("/t tela", sender=BEA))
    assert texts(db)[-1] == f"@{BEA} Só um administrador do grupo (do WhatsApp) pode criar ou apagar a tela."
