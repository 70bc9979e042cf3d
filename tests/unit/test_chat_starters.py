"""Starter chores (SPEC section 35) through the road: ``/t plantilla`` lists the sets in the group's language,
``/t plantilla <nombre>`` shows what it would create and creates nothing, and only ``… sí`` creates the recurring
chores, in turns among the group's known members when there are two or more."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from taskcore.chores.starter_sets import find_set, starter_sets
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.words import LANGUAGES
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import assignees, household, run, texts

ANA, BEA, LUIS = "34600111111", "34600222222", "34600333333"


def say(db: Database, text: str, sender: str = ANA, **kw: Any) -> str:
    run(db, wa_text(text, sender=sender, **kw))
    return texts(db)[-1]


def tasks(db: Database) -> list[Any]:
    t = schema.tasks
    with db.read() as conn:
        return list(conn.execute(select(t.c.id, t.c.description, t.c.recurrence_rule, t.c.rotation_people, t.c.points,
                                        t.c.due_date).order_by(t.c.id)))


@pytest.fixture
def home(db: Database) -> Database:
    return household(db, ((ANA, "Ana"), (BEA, "Bea"), (LUIS, "Luis")))


def test_the_sets_are_listed_in_the_group_s_language(home: Database) -> None:
    reply = say(home, "/t plantilla")
    assert reply.splitlines()[1:] == [
        "• Piso compartido: 5 tareas. Ver: /t plantilla piso", "• Familia: 5 tareas. Ver: /t plantilla familia",
        "• Oficina: 4 tareas. Ver: /t plantilla oficina"]
    say(home, "/t idioma pt")
    assert "• República: 5 tarefas. Ver: /t modelo república" in say(home, "/t plantilla")


def test_a_set_is_shown_and_nothing_is_created_until_yes(home: Database) -> None:
    reply = say(home, "/t plantilla Piso")
    assert reply.split(" ", 1)[1].splitlines() == [
        "«Piso compartido» crearía estas tareas:",
        "• Sacar la basura y el reciclaje, cada lunes y jueves (1 punto)",
        "• Limpiar el baño, cada sábado (3 puntos)",
        "• Limpiar la cocina (encimera, fogones, fregadero), cada miércoles (2 puntos)",
        "• Aspirar y fregar el suelo de las zonas comunes, cada domingo (2 puntos)",
        "• Reponer lo común: papel, jabón, bolsas, cada 2 semanas (1 punto)",
        "Por turnos entre Ana, Bea y Luis.",
        "Para crearlas: /t plantilla piso sí"]
    assert tasks(home) == []


def test_yes_creates_the_recurring_chores_in_turns_starting_with_different_people(home: Database) -> None:
    reply = say(home, "/t plantilla piso compartido sí")
    made = tasks(home)
    assert [row.description for row in made] == [chore.text for chore in find_set("piso", "es").chores]
    assert [row.recurrence_rule.split(";")[0] for row in made] == ["FREQ=WEEKLY"] * 5
    assert [row.points for row in made] == [1, 3, 2, 2, 1]
    assert all(row.rotation_people for row in made)
    assert [assignees(home, row.id) for row in made[:3]] == [{ANA}, {BEA}, {LUIS}]
    assert "5 tareas creadas de «Piso compartido»:" in reply
    assert f"• #{made[0].id} Sacar la basura y el reciclaje, cada lunes y jueves: le toca a Ana" in reply
    assert ANA not in reply.split("\n", 1)[1]  # names, never numbers


def test_any_language_s_yes_and_name_work(home: Database) -> None:
    say(home, "/t starter republica yes")
    assert len(tasks(home)) == 5


def test_with_fewer_than_two_known_members_the_chores_are_unassigned(db: Database) -> None:
    make_group(db, GROUP, name="Solo", members=(ANA,))
    assert "Sin asignar" in say(db, "/t plantilla oficina")
    say(db, "/t plantilla oficina sí")
    made = tasks(db)
    assert len(made) == 4
    assert all(not row.rotation_people for row in made)
    assert all(assignees(db, row.id) == set() for row in made)


def test_an_unknown_name_lists_the_sets_and_a_direct_message_is_refused(home: Database) -> None:
    assert "No hay ninguna plantilla «castillo». Elige una de estas: piso, familia, oficina" in say(
        home, "/t plantilla castillo sí")
    assert "en el grupo" in say(home, "/t plantilla piso sí", group=None)
    with home.read() as conn:
        assert conn.execute(select(func.count()).select_from(schema.tasks)).scalar_one() == 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_s_file_has_the_three_sets_and_rules_the_chat_reads(lang: str) -> None:
    sets = starter_sets(lang)
    assert [starter.key for starter in sets] == ["flat", "family", "office"]
    assert all(starter.chores and starter.names for starter in sets)
    assert all(1 <= chore.points <= 10 for starter in sets for chore in starter.chores)
