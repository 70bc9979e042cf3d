"""/t info <id> (SPEC section 5): one task in full, in the reader's language; only where the sender may see it. The
proof that a command is a row and its room: its words, its command value, its use case, its texts, its row."""

from __future__ import annotations

from typing import Any

import pytest

from taskcore.storage.db import Database
from tests.builders import make_group, wa_text
from tests.chat_support import household, run, texts

ANA, BEA, LUIS = "34600111111", "34600222222", "34600333333"


def say(db: Database, text: str, sender: str = ANA, **kw: Any) -> str:
    run(db, wa_text(text, sender=sender, **kw))
    return texts(db)[-1]


@pytest.fixture
def home(db: Database) -> Database:
    return household(db, ((ANA, "Ana"), (BEA, "Bea"), (LUIS, "Luis")))


def lines(reply: str) -> list[str]:
    return reply.split(" ", 1)[1].splitlines()  # after the mention of the sender


def test_a_plain_task_in_full(home: Database) -> None:
    say(home, "/t nueva regar las plantas 2026-12-09 @Bea")
    assert lines(say(home, "/t info 1")) == [
        "#1 regar las plantas", "En Casa, creada por Ana el 2026-11-22", "Vence: 09/12",
        "Para: Bea", "1 punto"]


def test_a_series_with_turns_points_nags_and_a_photo(home: Database) -> None:
    say(home, "/t nueva sacar la basura cada lunes @Bea @Luis !turnos !3 !insistir !foto")
    assert lines(say(home, "/t info 1")) == [
        "#1 sacar la basura", "En Casa, creada por Ana el 2026-11-22", "Vence: 23/11 (mañana)", "Para: Bea",
        "Se repite cada lunes", "Turnos: Bea → Luis", "3 puntos", "Insiste cada 24 h a quien la tiene, una vez vencida",
        "Se completa con una foto aprobada"]


def test_in_english_and_portuguese_words_and_texts(home: Database) -> None:
    say(home, "/t nueva regar")
    say(home, "/t idioma en")
    assert lines(say(home, "/t details 1"))[1:] == ["In Casa, created by Ana on 2026-11-22", "No due date",
                                                    "Nobody has it yet", "1 point"]
    say(home, "/t idioma pt")
    assert lines(say(home, "/t detalhes 1"))[1:3] == ["Em Casa, criada por Ana em 2026-11-22", "Sem data"]


def test_a_done_task_says_by_whom(home: Database) -> None:
    say(home, "/t nueva regar")
    say(home, "/t x 1", sender=BEA, push_name="Bea")
    assert lines(say(home, "/t info 1"))[-3:] == ["Para: Bea", "1 punto", "Hecha el 2026-11-22 por Bea"]


def test_unknown_missing_and_other_groups_tasks_are_refused(home: Database) -> None:
    assert say(home, "/t info 99").endswith("No encuentro la tarea #99.")
    assert say(home, "/t info").endswith("Uso: /t info <id>")
    make_group(home, "200@g.us", name="Oficina", members=(ANA,))
    say(home, "/t nueva informe", group="200@g.us")
    assert "Oficina" not in say(home, "/t info 1")  # asked in Casa: the task is another group's
    assert lines(say(home, "/t info 1", group="200@g.us"))[:2] == ["#1 informe",
                                                                   "En Oficina, creada por Ana el 2026-11-22"]
