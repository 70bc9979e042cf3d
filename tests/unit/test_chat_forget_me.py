"""``/t borrarme`` (SPEC sections 29 and 32), a command added through the registry: in a direct message, asked for
first and done once confirmed in any language; refused in a group."""

from __future__ import annotations

from sqlalchemy import select

from taskcore.storage import schema
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import policy, run, texts

ANA, LUIS = "34600111111", "34600333333"


def known(db: Database, user: str) -> bool:
    with db.read() as conn:
        return conn.execute(select(schema.users.c.id).where(schema.users.c.id == user)).first() is not None


def test_asked_first_then_erased_once_confirmed(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, LUIS))
    run(db, wa_text("/t nueva regar las plantas", sender=ANA, group=GROUP), policy())
    run(db, wa_text("/t borrarme", sender=ANA, group=None), policy())
    assert texts(db)[-1].endswith("No se puede deshacer. Para confirmar: /t borrarme sí")
    assert known(db, ANA)
    run(db, wa_text("/t borrarme sí", sender=ANA, group=None), policy())
    assert texts(db)[-1] == "Hecho: he borrado tus datos. Si vuelves a escribirme, empezarás de cero."
    assert not known(db, ANA)
    assert known(db, LUIS)
    with db.read() as conn:  # the task she created stays in its group
        assert conn.execute(select(schema.tasks.c.description)).scalars().all() == ["regar las plantas"]


def test_in_english_and_portuguese_words(db: Database) -> None:
    run(db, wa_text("/t forget-me yes", sender=ANA, group=None), policy())
    run(db, wa_text("/t apagar-me sim", sender=LUIS, group=None), policy())
    assert not known(db, ANA)
    assert not known(db, LUIS)


def test_refused_in_a_group_and_with_another_word(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    run(db, wa_text("/t borrarme sí", sender=ANA, group=GROUP), policy())
    assert texts(db)[-1].endswith("Esto va por privado: escríbeme /t borrarme en un mensaje directo.")
    run(db, wa_text("/t borrarme quizás", sender=ANA, group=None), policy())
    assert texts(db)[-1].startswith("Para confirmar, escribe sí: «quizás».\nUso: /t borrarme [sí]")
    assert known(db, ANA)
