"""Checklists inside a task, from the conversation (SPEC section 41): made with a colon list, items added and
removed, ticked by ``/t x 12.2`` or a reply ``2 hecho``; the task is done when every item is, or by its own done word
(which ticks the rest); the lists show them; limits and bad input get clear replies."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from taskcore.storage.checklists import task_items
from taskcore.storage.db import Database
from taskcore.storage.task_page import list_stamp
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import run, task_rows, texts

ANA, LUIS = "34600111111", "34600222222"
LATER = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)


@pytest.fixture
def group(db: Database) -> str:
    return make_group(db, GROUP, name="Piso", members=(ANA, LUIS))


def say(db: Database, text: str, **kw: object) -> str:
    run(db, wa_text(text, **kw))  # type: ignore[arg-type]
    return texts(db)[-1]


def items(db: Database, task_id: int) -> list[tuple[int, str, bool]]:
    with db.engine.connect() as conn:
        rows = conn.execute(select(task_items).where(task_items.c.task_id == task_id).order_by(task_items.c.n))
        return [(row.n, row.text, row.done_at is not None) for row in rows]


def done(db: Database, task_id: int) -> bool:
    return next(bool(row.completed) for row in task_rows(db) if row.id == task_id)


def test_a_colon_list_makes_the_task_s_items_and_the_reply_shows_them(db: Database, group: str) -> None:
    reply = say(db, "/t nueva limpiar la cocina: encimera, horno, nevera")
    assert reply == (f"@{ANA} Tarea #1 creada: limpiar la cocina. Sin asignar\n"
                     "☐ 1 encimera\n☐ 2 horno\n☐ 3 nevera")
    assert items(db, 1) == [(1, "encimera", False), (2, "horno", False), (3, "nevera", False)]
    assert task_rows(db)[0].description == "limpiar la cocina"


def test_the_list_may_follow_a_date_and_mentions_and_a_time_is_no_list(db: Database, group: str) -> None:
    reply = say(db, f"/t nueva limpiar la cocina mañana @{ANA}: encimera, horno", mentioned=(f"{ANA}@s.whatsapp.net",))
    assert "(vence 23/11). Para @34600111111\n☐ 1 encimera\n☐ 2 horno\n" in reply
    assert task_rows(db)[0].due_date == "2026-11-23"
    say(db, "/t nueva ver https://example.org/x a las 10:30")
    assert items(db, 2) == []


def test_portuguese_and_english_words_add_and_remove_items(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera")
    assert say(db, "/t adicionar 1 forno, geladeira") == (
        f"@{ANA} Tarea #1: 2 elementos añadidos.\n☐ 1 encimera\n☐ 2 forno\n☐ 3 geladeira")
    assert say(db, "/t add 1 oven") .startswith(f"@{ANA} Tarea #1: 1 elemento añadido.")
    assert say(db, "/t remover 1 2") == (f"@{ANA} Tarea #1: elemento 2 quitado.\n"
                                          "☐ 1 encimera\n☐ 2 geladeira\n☐ 3 oven")
    assert say(db, "/t remove 1 3").endswith("☐ 1 encimera\n☐ 2 geladeira")
    assert say(db, "/t añadir 1 horno").endswith("☐ 3 horno")
    assert say(db, "/t quitar 1 1").endswith("☐ 1 geladeira\n☐ 2 horno")


def test_ticking_items_by_number_and_the_last_completes_the_task(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera, horno, nevera")
    assert say(db, "/t x 1.2") == (f"@{ANA} Tarea #1: 1 de 3 hechos.\n☐ 1 encimera\n☑ 2 horno\n☐ 3 nevera")
    assert say(db, "/t x 1.2, 1.3").startswith(f"@{ANA} Tarea #1: 2 de 3 hechos.\nEl elemento 2 ya estaba marcado.")
    assert not done(db, 1)
    assert say(db, "/t x 1.1").startswith(f"@{ANA} Tarea #1 completada: limpiar la cocina\n")
    assert done(db, 1)


def test_a_reply_with_the_item_s_number_and_a_done_word_ticks_it(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera, horno", message_id="ORIGIN1")
    assert say(db, "2 hecho", sender=LUIS, quoted="ORIGIN1", push_name="Luis").startswith(
        f"@{LUIS} Tarea #1: 1 de 2 hechos.")
    assert say(db, "1 feito", sender=LUIS, quoted="ORIGIN1", push_name="Luis") == (
        f"@{LUIS} Tarea #1 completada: limpiar la cocina")
    assert items(db, 1) == [(1, "encimera", True), (2, "horno", True)]


def test_the_task_s_own_done_word_ticks_the_rest(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera, horno")
    say(db, "/t x 1.1")
    assert say(db, "/t x 1").startswith(f"@{ANA} Tarea #1 completada: limpiar la cocina\n")
    assert items(db, 1) == [(1, "encimera", True), (2, "horno", True)]


def test_the_lists_show_the_items_and_how_many_are_done(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera, horno")
    say(db, "/t x 1.2")
    assert "#1 limpiar la cocina · sin asignar\n   ☐ 1 encimera · ☑ 2 horno (1/2)" in say(db, "/t ver")
    assert say(db, "/t info 1").startswith(f"@{ANA} #1 limpiar la cocina\n☐ 1 encimera\n☑ 2 horno\n")


def test_a_recurring_chore_s_next_occurrence_has_its_items_again_unticked(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina cada lunes: encimera, horno")
    say(db, "/t x 1.1")
    assert "\nPróxima: #2, 30/11" in say(db, "/t x 1.2")
    assert items(db, 2) == [(1, "encimera", False), (2, "horno", False)]


def test_limits_and_bad_input_get_clear_replies(db: Database, group: str) -> None:
    twenty = ", ".join(f"cosa {n}" for n in range(1, 21))
    assert say(db, f"/t nueva mudanza: {twenty}").endswith("☐ 20 cosa 20")
    assert say(db, "/t añadir 1 una más") == (
        f"@{ANA} Una tarea tiene como mucho 20 elementos (esta tendría 21).")
    assert say(db, f"/t nueva mudanza: {twenty}, cosa 21").startswith(
        f"@{ANA} Una tarea tiene como mucho 20 elementos (esta tendría 21).\nUso: /t nueva")
    assert say(db, "/t x 1.25") == f"@{ANA} La tarea #1 no tiene el elemento 25: tiene del 1 al 20."
    assert say(db, "/t quitar 1 21") == f"@{ANA} La tarea #1 no tiene el elemento 21: tiene del 1 al 20."
    assert say(db, "/t nueva limpiar: horno, , nevera").startswith(f"@{ANA} El elemento 2 está vacío.\nUso: /t nueva")
    assert say(db, "/t añadir 1").startswith(f"@{ANA} Falta el elemento.\nUso: /t añadir <id> <elemento>")
    assert say(db, "/t quitar 1 x").startswith(f"@{ANA} Número de elemento no válido: «x».\nUso: /t quitar <id> <n>")
    assert say(db, "/t x 1.2 3").startswith(f"@{ANA} Marca los elementos de una tarea a la vez")
    say(db, "/t nueva sin lista")
    assert say(db, "/t x 2.1") == f"@{ANA} La tarea #2 no tiene lista."


def test_a_completed_task_s_items_are_not_ticked_again(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera, horno")
    say(db, "/t x 1")
    assert say(db, "/t x 1.1") == f"@{ANA} La tarea #1 ya está completada."


def _stamp(db: Database, user_id: str) -> int | None:
    with db.engine.connect() as conn:
        return list_stamp(conn, user_id)


def test_adding_ticking_and_removing_an_item_moves_the_assignee_s_list_stamp(db: Database, group: str) -> None:
    say(db, f"/t nueva limpiar la cocina @{ANA}: encimera, horno", mentioned=(f"{ANA}@s.whatsapp.net",))
    seen = {_stamp(db, ANA)}
    for command in ("/t añadir 1 nevera", "/t x 1.2", "/t quitar 1 3"):
        say(db, command)
        stamp = _stamp(db, ANA)
        assert stamp not in seen, command
        seen.add(stamp)


def test_a_task_that_needs_a_photo_waits_for_it_once_every_item_is_ticked(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar el baño !foto: lavabo")
    assert say(db, "/t x 1.1") == (f"@{ANA} Todos los elementos de la tarea #1 están hechos; falta la foto para "
                                   "completarla.")
    assert items(db, 1) == [(1, "lavabo", True)]
    assert not done(db, 1)


def test_items_of_a_task_in_another_group_are_not_touched_from_here(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera")
    other = make_group(db, "120363300000000099@g.us", name="Otro", members=(ANA,))
    assert say(db, "/t x 1.1", group=other) == f"@{ANA} No encuentro la tarea #1 en este grupo."
    assert say(db, "/t añadir 1 horno", group=other) == f"@{ANA} No encuentro la tarea #1 en este grupo."
    assert items(db, 1) == [(1, "encimera", False)]


def test_several_items_are_ticked_at_once_with_a_comma_list(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar la cocina: encimera, horno, nevera")
    assert say(db, "/t x 1.1,3").startswith(f"@{ANA} Tarea #1: 2 de 3 hechos.\n☑ 1 encimera\n☐ 2 horno\n☑ 3 nevera")
