"""Effort and fairness from the conversation (SPEC section 25): points, /t resumen and !reparto."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import update

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.tasks import load_tasks
from tests.builders import GROUP, NOW, make_group, wa_text
from tests.chat_support import assignees, run, task_rows, texts

ANA, LUIS, EVA = "34600111111", "34600222222", "34600333333"
NAMES = {ANA: "Ana", LUIS: "Luis", EVA: "Eva"}
PEOPLE = (f"{ANA}@s.whatsapp.net", f"{LUIS}@s.whatsapp.net")


@pytest.fixture
def group(db: Database) -> str:
    gid = make_group(db, GROUP, name="Piso", members=(ANA, LUIS))
    run(db, wa_text("hola", sender=LUIS, push_name="Luis"))
    run(db, wa_text("hola", sender=ANA, push_name="Ana"))
    return gid


def say(db: Database, text: str, *, now: datetime = NOW, **kw: object) -> str:
    run(db, wa_text(text, **kw), now=now)  # type: ignore[arg-type]
    return texts(db)[-1]


def luis_says(db: Database, text: str) -> str:
    """Luis makes the task Ana then does: her points count at once (SPEC section 38: not a self-made task)."""
    return say(db, text, sender=LUIS, push_name="Luis")


def test_points_in_nueva_are_stored_and_said(db: Database, group: str) -> None:
    reply = say(db, "/t nueva limpiar el baño !3")
    assert reply.endswith("· 3 puntos")
    assert [row.points for row in task_rows(db)] == [3]
    say(db, "/t nueva comprar pan")
    assert task_rows(db)[1].points == 1


def test_points_out_of_range_are_refused_with_the_usage(db: Database, group: str) -> None:
    reply = say(db, "/t nueva limpiar !11")
    assert "!1 a !10" in reply
    assert "Uso:" in reply
    assert task_rows(db) == []


def test_todos_and_turnos_stay_what_they_are_beside_points(db: Database, group: str) -> None:
    say(db, f"/t nueva regar cada lunes @{ANA} @{LUIS} !turnos !2", mentioned=PEOPLE)
    say(db, f"/t nueva fregar @{ANA} @{LUIS} !todos !4", mentioned=PEOPLE)
    first, second = task_rows(db)
    assert (first.points, first.rotation_people, second.points, second.completion) == (2, f"{ANA} {LUIS}", 4, "each")


@pytest.mark.parametrize("word", ["puntos", "points", "pontos"])
def test_puntos_sets_a_tasks_points_in_any_language(db: Database, group: str, word: str) -> None:
    say(db, "/t nueva limpiar")
    assert say(db, f"/t {word} 1 5") == f"@{ANA} La tarea #1 vale ahora 5 puntos."
    assert task_rows(db)[0].points == 5


def test_puntos_refuses_zero_and_names_missing_tasks(db: Database, group: str) -> None:
    say(db, "/t nueva limpiar")
    assert "de 1 a 10" in say(db, "/t puntos 1 0")
    assert say(db, "/t puntos 9 2") == f"@{ANA} No encuentro la tarea #9."


def _complete_at(db: Database, when: datetime, *ids: int, sender: str = ANA) -> None:
    for task_id in ids:
        run(db, wa_text(f"/t x {task_id}", sender=sender, push_name=NAMES[sender]), now=when)


def test_resumen_in_a_group_names_members_with_done_points_and_overdue(db: Database, group: str) -> None:
    luis_says(db, "/t nueva limpiar !3")
    luis_says(db, "/t nueva pan")
    say(db, f"/t nueva basura 2026-11-20 @{LUIS}", mentioned=(f"{LUIS}@s.whatsapp.net",))
    _complete_at(db, datetime(2026, 11, 22, 11, 0, tzinfo=UTC), 1, 2)
    reply = say(db, "/t resumen", now=datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    assert reply == (f"@{ANA} Resumen de la semana (16/11–22/11):\n"
                     "• Ana: 2 hechas, 4 puntos\n"
                     "• Luis: 0 hechas, 0 puntos · vencidas: #3")


def test_resumen_mes_and_english_words(db: Database, group: str) -> None:
    luis_says(db, "/t nueva limpiar !2")
    _complete_at(db, datetime(2026, 11, 2, 9, 0, tzinfo=UTC), 1)
    assert "Ana: 0 hechas" in say(db, "/t resumen semana")
    assert "Ana: 1 hecha, 2 puntos" in say(db, "/t summary month")
    assert "Ana: 1 hecha, 2 puntos" in say(db, "/t resumo mês")


def test_each_parts_count_for_each_person(db: Database, group: str) -> None:
    say(db, f"/t nueva fregar @{ANA} @{LUIS} !todos !2", mentioned=PEOPLE)
    _complete_at(db, NOW, 1)
    _complete_at(db, NOW, 1, sender=LUIS)
    reply = say(db, "/t resumen")
    assert "• Ana: 1 hecha, 2 puntos" in reply
    assert "• Luis: 1 hecha, 2 puntos" in reply


def test_resumen_in_private_is_the_persons_own_across_groups(db: Database, group: str) -> None:
    luis_says(db, "/t nueva limpiar !3")
    _complete_at(db, NOW, 1)
    reply = say(db, "/t resumen", group=None)
    assert reply == "Resumen de la semana (16/11–22/11):\n• Ana: 1 hecha, 3 puntos"


def test_a_bad_period_is_refused(db: Database, group: str) -> None:
    assert "Periodo no válido" in say(db, "/t resumen año")


def test_reparto_gives_the_next_turn_to_the_one_with_fewest_points(db: Database, group: str) -> None:
    luis_says(db, "/t nueva fregar !5")
    _complete_at(db, NOW, 1)  # Ana: 5 points this month
    say(db, f"/t nueva basura cada lunes @{ANA} @{LUIS} !reparto", mentioned=PEOPLE)
    assert task_rows(db)[1].rotation_people == f"!reparto {ANA} {LUIS}"
    assert assignees(db, 2) == {ANA}
    monday = datetime(2026, 11, 23, 19, 0, tzinfo=UTC)
    _complete_at(db, monday, 2)
    assert assignees(db, 3) == {LUIS}  # plain turns would give it to Luis too
    _complete_at(db, datetime(2026, 11, 30, 19, 0, tzinfo=UTC), 3, sender=LUIS)
    assert assignees(db, 4) == {LUIS}  # Ana 6 points, Luis 1: Luis again


def test_reparto_skips_the_away(db: Database, group: str) -> None:
    say(db, f"/t nueva basura cada lunes @{ANA} @{LUIS} !reparto", mentioned=PEOPLE)
    say(db, "/t nueva fregar !5")
    _complete_at(db, NOW, 2, sender=LUIS)  # Luis has more points, but Ana is away
    with db.write() as conn:
        conn.execute(schema.user_preferences.insert().values(
            user_id=ANA, freq="off", time="09:00", updated_at=NOW, away_until=date(2026, 12, 1).isoformat()))
    _complete_at(db, datetime(2026, 11, 23, 19, 0, tzinfo=UTC), 1)
    assert assignees(db, 3) == {LUIS}
    with db.write() as conn:
        conn.execute(update(schema.user_preferences).values(away_until=None))


def test_reparto_needs_a_rule(db: Database, group: str) -> None:
    assert "!reparto va con una regla" in say(db, f"/t nueva basura @{ANA} @{LUIS} !reparto", mentioned=PEOPLE)


def test_the_api_rotation_hides_the_balanced_mark(db: Database, group: str) -> None:
    say(db, f"/t nueva basura cada lunes @{ANA} @{LUIS} !reparto", mentioned=PEOPLE)
    with db.read() as conn:
        (task,) = load_tasks(conn, [1])
    assert task.recurrence is not None
    assert task.recurrence.rotation == (ANA, LUIS)
    assert task.recurrence.balanced


def test_the_help_names_points_and_summaries_in_each_language(db: Database, group: str) -> None:
    spanish = say(db, "/t ayuda")
    assert "/t puntos [<id> <1-10>]" in spanish  # alone: the balance (SPEC section 34)
    assert "!reparto" in spanish
    say(db, "/t idioma en")
    english = say(db, "/t help")
    assert "/t points [<id> <1-10>]" in english
    assert "/t summary [week|month]" in english


def test_a_summary_in_an_english_group_speaks_english(db: Database, group: str) -> None:
    say(db, "/t idioma en")
    luis_says(db, "/t new clean !2")
    _complete_at(db, NOW, 1)
    assert say(db, "/t summary").endswith("• Ana: 1 done, 2 points\n• Luis: 0 done, 0 points")
    say(db, "/t new sweep")
    assert say(db, "/t points 2 4") == f"@{ANA} Task #2 is now worth 4 points."
