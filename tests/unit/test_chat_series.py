"""Recurring chores and each person's time zone, from the conversation (SPEC sections 20 and 21)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from taskcore.chat import ChatPolicy
from taskcore.settings import load_settings
from taskcore.storage.db import Database
from tests.builders import GROUP, NOW, make_group, wa_text
from tests.chat_support import assignees, queued, run, task_rows, texts

ANA, LUIS, BOT = "34600111111", "34600222222", "15550100000"
NURIA = "573001234567"  # a Colombian number: America/Bogota by default
PEOPLE = (f"{ANA}@s.whatsapp.net", f"{LUIS}@s.whatsapp.net")


@pytest.fixture
def group(db: Database) -> str:
    return make_group(db, GROUP, name="Piso", members=(ANA, LUIS))


def say(db: Database, text: str, *, now: datetime = NOW, **kw: object) -> str:
    run(db, wa_text(text, **kw), now=now)  # type: ignore[arg-type]
    return texts(db)[-1]


def test_a_recurring_chore_is_created_for_its_first_date_and_says_how_it_repeats(db: Database, group: str) -> None:
    reply = say(db, "/t nueva sacar la basura cada lunes y jueves")
    assert reply == f"@{ANA} Tarea #1 creada: sacar la basura (vence 23/11) ↻ cada lunes y jueves. Sin asignar"
    (task,) = task_rows(db)
    assert (task.description, task.due_date, task.recurrence_rule) == (
        "sacar la basura", "2026-11-23", "FREQ=WEEKLY;BYDAY=MO,TH")


def test_with_turns_the_reply_names_everyone_in_order_and_the_first_has_it(db: Database, group: str) -> None:
    reply = say(db, f"/t nueva sacar la basura cada lunes y jueves @{ANA} @{LUIS} !turnos", mentioned=PEOPLE)
    assert reply == (f"@{ANA} Tarea #1 creada: sacar la basura (vence 23/11) ↻ cada lunes y jueves. "
                     f"Por turnos: @{ANA}, @{LUIS}")
    assert assignees(db, 1) == {ANA}


def test_completing_the_chore_creates_the_next_one_and_says_when_and_whose_turn(db: Database, group: str) -> None:
    run(db, wa_text("hola", sender=LUIS, push_name="Luis"))
    say(db, f"/t nueva sacar la basura cada lunes y jueves @{ANA} @{LUIS} !turnos", mentioned=PEOPLE)
    monday = datetime(2026, 11, 23, 19, 0, tzinfo=UTC)
    assert say(db, "/t x 1", now=monday) == (f"@{ANA} Tarea #1 completada: sacar la basura\n"
                                             f"Próxima: #2, 26/11 · le toca a @{LUIS}")
    assert f"{LUIS}@s.whatsapp.net" in queued(db)[-1].payload["mentioned"]  # mentioned, so told (SPEC 39)
    assert assignees(db, 2) == {LUIS}
    thursday = datetime(2026, 11, 26, 19, 0, tzinfo=UTC)
    assert say(db, "/t x 2", sender=LUIS, now=thursday).endswith(f"Próxima: #3, 30/11 · le toca a @{ANA}")
    assert assignees(db, 3) == {ANA}


def test_a_chore_done_weeks_late_skips_the_missed_dates(db: Database, group: str) -> None:
    say(db, "/t nueva regar cada lunes")
    three_weeks_later = datetime(2026, 12, 15, 9, 0, tzinfo=UTC)  # a Tuesday
    assert say(db, "/t x 1", now=three_weeks_later).endswith("Próxima: #2, 21/12")


def test_the_list_marks_recurring_tasks(db: Database, group: str) -> None:
    say(db, "/t nueva regar cada lunes")
    say(db, "/t nueva comprar pan")
    listing = say(db, "/t ver")
    assert "#1 regar · 23/11 (mañana) · ↻ cada lunes · sin asignar" in listing
    assert "#2 comprar pan · sin asignar" in listing


def test_parar_ends_the_series_and_the_occurrence_stays(db: Database, group: str) -> None:
    say(db, "/t nueva regar cada lunes")
    assert say(db, "/t parar 1") == f"@{ANA} La tarea #1 ya no se repite; esta sigue abierta."
    assert say(db, "/t parar 1") == f"@{ANA} La tarea #1 no se repite."
    assert say(db, "/t x 1").startswith(f"@{ANA} Tarea #1 completada: regar\n⭐")  # no next one; her point waits
    assert len(task_rows(db)) == 1


def test_parar_of_a_missing_task_says_so(db: Database, group: str) -> None:
    assert say(db, "/t parar 9") == f"@{ANA} No encuentro la tarea #9."


@pytest.mark.parametrize(("command", "reason"), [
    ("/t nueva regar cada 0 días", "El número de «cada N» va de 1 a 99: «0»."),
    ("/t nueva regar cada 100 días", "El número de «cada N» va de 1 a 99: «100»."),
    ("/t nueva regar cada lunes martes", "Une los días con «y» o con comas (cada lunes y martes): «martes»."),
    ("/t nueva regar !turnos", "!turnos va con una regla «cada»."),
])
def test_a_malformed_rule_rejects_the_command_showing_the_accepted_forms(
    db: Database, group: str, command: str, reason: str
) -> None:
    reply = say(db, command)
    usage = ("/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos|!reparto] [!N] [!insistir] "
             "[: <elemento>, <elemento>...]")
    assert reply.startswith(f"@{ANA} {reason}\nUso: {usage}")
    assert "\nReglas: cada día|semana|mes" in reply
    assert task_rows(db) == []


def test_cada_followed_by_no_rule_word_is_plain_text(db: Database, group: str) -> None:
    reply = say(db, "/t nueva revisar cada habitación")
    assert reply == f"@{ANA} Tarea #1 creada: revisar cada habitación. Sin asignar"


@pytest.mark.parametrize("command", [f"/t nueva basura cada lunes @{LUIS} !turnos",
                                     "/t nueva basura cada lunes !turnos"])
def test_turns_need_two_people(db: Database, group: str, command: str) -> None:
    reply = say(db, command, mentioned=PEOPLE)
    assert reply == f"@{ANA} Los turnos (!turnos) necesitan un grupo y al menos dos personas mencionadas."
    assert task_rows(db) == []


def test_turns_need_a_group(db: Database) -> None:
    reply = say(db, f"/t nueva basura cada lunes @{ANA} @{LUIS} !turnos", group=None, mentioned=PEOPLE)
    assert reply.endswith("Los turnos (!turnos) necesitan un grupo y al menos dos personas mencionadas.")


def test_two_numbers_of_one_person_are_one_person_for_turns(db: Database, group: str) -> None:
    lid = "900111"
    run(db, wa_text("hola", sender=ANA, lid=lid))
    reply = say(db, f"/t nueva basura cada lunes @{ANA} @{lid} !turnos",
                mentioned=(f"{ANA}@s.whatsapp.net", f"{lid}@lid"))
    assert reply.endswith("Los turnos (!turnos) necesitan un grupo y al menos dos personas mencionadas.")
    assert task_rows(db) == []


class TestZones:
    def test_zona_alone_shows_the_default_and_where_it_comes_from(self, db: Database) -> None:
        # A Spanish number's prefix lists Madrid and the Canaries: Spain's main zone (SPEC 30; SPEC 21 gave TZ)
        assert say(db, "/t zona", group=None) == (
            "Tu zona horaria es Europe/Madrid (la del prefijo de tu número); allí son las 11:00.\n"
            "Para cambiarla: /t zona <ciudad>, p. ej. /t zona Bogota")

    def test_a_colombian_number_is_in_bogota_by_default(self, db: Database) -> None:
        assert say(db, "/t zona", sender=NURIA, group=None).startswith(
            "Tu zona horaria es America/Bogota (la del prefijo de tu número); allí son las 05:00.")

    def test_choosing_a_zone_and_going_back_to_the_default(self, db: Database) -> None:
        assert say(db, "/t zona america/bogota", group=None) == (
            "Tu zona horaria es ahora America/Bogota; allí son las 05:00.")
        assert say(db, "/t zona", group=None).startswith(
            "Tu zona horaria es America/Bogota (la elegiste con /t zona)")
        assert say(db, "/t zona sin", group=None) == (
            "Vuelves a la zona por defecto: Europe/Madrid (la del prefijo de tu número).")

    def test_an_unknown_zone_is_rejected_with_the_accepted_form(self, db: Database) -> None:
        assert say(db, "/t zona Marte/Olimpo", group=None) == (
            "Zona horaria desconocida: «Marte/Olimpo»; escribe una ciudad grande de tu zona (Bogota, Madrid) o "
            "una zona como America/Bogota.\n"
            "Uso: /t zona [<ciudad>|sin]")

    def test_manana_means_the_senders_tomorrow(self, db: Database, group: str) -> None:
        # 23:30 on Sunday in Bogotá is already 05:30 on Monday in Madrid
        late = datetime(2026, 11, 23, 4, 30, tzinfo=UTC)
        run(db, wa_text("/t zona America/Bogota", group=None), now=late)
        run(db, wa_text("/t nueva regar mañana"), now=late)
        run(db, wa_text("/t nueva barrer hoy", sender=LUIS), now=late)
        assert [(t.description, t.due_date) for t in task_rows(db)] == [
            ("regar", "2026-11-23"), ("barrer", "2026-11-23")]

    def test_a_rule_starts_from_the_senders_today(self, db: Database, group: str) -> None:
        late = datetime(2026, 11, 23, 4, 30, tzinfo=UTC)  # Sunday in Bogotá, Monday in Madrid
        run(db, wa_text("/t nueva regar cada domingo", sender=NURIA), now=late)
        assert [t.due_date for t in task_rows(db)] == ["2026-11-22"]

    def test_tz_from_the_settings_is_the_default_zone(self, db: Database) -> None:
        settings = load_settings({"NODE_ENV": "test", "DB_PATH": "unused.db", "TZ": "America/Lima"})
        run(db, wa_text("/t zona", group=None, sender="198765432100001"), ChatPolicy.from_settings(settings))
        # a LID (no phone number) gives no country: TZ
        assert texts(db)[-1].startswith("Tu zona horaria es America/Lima (la del servicio); allí son las 05:00.")


def test_help_shows_the_rule_forms_and_the_new_commands(db: Database) -> None:
    help_text = say(db, "/t ayuda", group=None)
    assert "• /t parar <id> — ej.: /t parar 12" in help_text
    assert "• /t zona [<ciudad>|sin] — ej.: /t zona Bogota" in help_text
    assert "Reglas: cada día|semana|mes" in help_text
    assert BOT not in help_text
