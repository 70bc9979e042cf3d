"""Understood as people write (SPEC section 23), through the road: dates that look wrong, date words the grammar
does not take, names typed instead of mentions, listings that say when, zones by city, replies as sentences."""

from __future__ import annotations

import pytest

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, make_task, wa_text
from tests.chat_support import assignees, queued, run, task_rows, texts

ANA, BEA, LUIS, ANDREA = "34600111111", "34600222222", "34600333333", "34600444444"


ZONE_NOTE = "\n🕒 Fechas y horas en tu zona horaria, Europe/Madrid. Para cambiarla: /t zona <ciudad>"  # once


def say(db: Database, text: str, **kw: object) -> str:
    run(db, wa_text(text, **kw))  # type: ignore[arg-type]
    return texts(db)[-1]


@pytest.fixture
def group(db: Database) -> str:
    make_group(db, GROUP, name="Casa", members=(ANA,))
    for sender, name in ((BEA, "Beatriz Gómez"), (LUIS, "Luis"), (ANDREA, "andrea")):
        run(db, wa_text("hola", sender=sender, push_name=name))
    return GROUP


def test_a_two_digit_year_that_lands_in_the_past_is_stored_with_a_warning_and_the_fix(db: Database) -> None:
    reply = say(db, "/t nueva pagar alquiler 05-03-26", group=None)
    assert reply == ("Tarea #1 creada: pagar alquiler (vence 26/03)\n"
                     "⚠️ La fecha guardada es 2005-03-26, ¿es la que querías? Para cambiarla: /t fecha 1 AAAA-MM-DD"
                     + ZONE_NOTE)
    assert task_rows(db)[0].due_date == "2005-03-26"


@pytest.mark.parametrize(("written", "warned"), [
    ("2020-01-01", True), ("2027-11-23", True), ("2027-11-22", False), ("hoy", False), ("2026-11-21", True),
])
def test_a_date_before_today_or_more_than_a_year_ahead_is_warned_about(db: Database, written: str,
                                                                       warned: bool) -> None:
    reply = say(db, f"/t nueva cena {written}", group=None)
    assert ("\n⚠️ La fecha guardada es" in reply) is warned


def test_re_dating_to_a_past_date_warns_too(db: Database) -> None:
    say(db, "/t nueva cena", group=None)
    assert say(db, "/t fecha 1 2020-01-01", group=None) == (
        "La tarea #1 vence el 01/01.\n"
        "⚠️ La fecha guardada es 2020-01-01, ¿es la que querías? Para cambiarla: /t fecha 1 AAAA-MM-DD" + ZONE_NOTE)


def test_pasado_manana_is_one_token_refused_with_the_date_it_means(db: Database) -> None:
    reply = say(db, "/t nueva ir al médico pasado mañana", group=None)
    assert reply.startswith("«pasado mañana» no es una fecha que acepte.\nUso: /t nueva")
    assert reply.endswith("\n💡 Si querías el 2026-11-24: /t nueva ir al médico 2026-11-24")
    assert task_rows(db) == []


@pytest.mark.parametrize(("token", "meant"), [("31/12", "2026-12-31"), ("5/3", "2027-03-05"), ("22-11", "2026-11-22")])
def test_a_day_and_month_is_refused_naming_the_next_such_date(db: Database, token: str, meant: str) -> None:
    reply = say(db, f"/t nueva pagar {token}", group=None)
    assert reply.startswith(f"Fecha no válida: «{token}».\nUso: /t nueva")
    assert reply.endswith(f"\n💡 Si querías el {meant}: /t nueva pagar {meant}")  # the command written (SPEC 39)
    assert task_rows(db) == []


def test_a_day_and_month_in_fecha_names_the_command_with_the_task_s_id(db: Database) -> None:
    say(db, "/t nueva cena", group=None)
    reply = say(db, "/t fecha 1 31/12", group=None)
    assert reply.startswith("Fecha no válida: «31/12».\nUso: /t fecha")
    assert reply.endswith("\n💡 Si querías el 2026-12-31: /t fecha 1 2026-12-31")


@pytest.mark.parametrize(("text", "meant"), [
    ("pagar alquiler el viernes", "2026-11-27"), ("llamar al banco lunes", "2026-11-23"),
    ("cita próximo domingo", "2026-11-29"), ("pagar alquiler 1 de diciembre", "2026-12-01"),
    ("pay rent on friday", "2026-11-27"), ("pagar aluguel 1 de dezembro", "2026-12-01"),
])
def test_a_weekday_or_a_day_and_month_in_words_gets_a_suggestion(db: Database, text: str, meant: str) -> None:
    reply = say(db, f"/t nueva {text}", group=None)
    assert reply == f"Tarea #1 creada: {text}\n💡 Sin fecha. Si querías el {meant}: /t fecha 1 {meant}"
    assert task_rows(db)[0].due_date is None


def test_a_task_with_a_date_gets_no_suggestion(db: Database) -> None:
    assert "💡" not in say(db, "/t nueva pagar alquiler el viernes mañana", group=None)


def test_a_typed_name_of_one_member_assigns_and_mentions_them_and_reads_as_their_name(db: Database,
                                                                                       group: str) -> None:
    run(db, wa_text("/t nueva comprar pan mañana @Luis"))
    (job,) = [j for j in queued(db) if j.kind == "text" and "creada" in j.text]
    assert job.text == f"@{ANA} Tarea #1 creada: comprar pan (vence 23/11). Para Luis" + ZONE_NOTE
    assert f"{LUIS}@s.whatsapp.net" in job.payload["mentioned"]
    assert task_rows(db)[0].description == "comprar pan"
    assert assignees(db, 1) == {LUIS}


@pytest.mark.parametrize("typed", ["@beatriz", "@BEATRIZ,", "@BeatrizGomez", "@Andrea"])
def test_a_name_matches_ignoring_case_accents_and_as_a_whole_first_name_or_whole_name(db: Database, group: str,
                                                                                      typed: str) -> None:
    run(db, wa_text(f"/t nueva regar {typed}"))
    assert len(task_rows(db)) == 1


def test_a_name_nobody_has_does_nothing_and_says_the_at_list_always_works(db: Database, group: str) -> None:
    reply = say(db, "/t nueva comprar pan @Marta mañana")
    assert reply == (f"@{ANA} No conozco a nadie llamado @Marta en este grupo. Nada hecho; elige a la persona en la "
                     "lista de @ de WhatsApp, así siempre funciona.")
    assert task_rows(db) == []


def test_a_name_several_members_share_lists_them_and_does_nothing(db: Database, group: str) -> None:
    run(db, wa_text("hola", sender="34600555555", push_name="Luis Pérez"))
    reply = say(db, "/t nueva sacar la basura @luis")
    assert reply == (f"@{ANA} No sé a quién te refieres con @luis: puede ser Luis, Luis Pérez. Nada hecho; elige a "
                     "la persona en la lista de @ de WhatsApp, así siempre funciona.")
    assert task_rows(db) == []


def test_a_name_between_quotes_stays_text_and_in_a_direct_message_a_name_is_text(db: Database, group: str) -> None:
    say(db, '/t nueva "escribir a @Luis"')
    say(db, "/t nueva llamar a @Luis", group=None)
    assert [row.description for row in task_rows(db)] == ["escribir a @Luis", "llamar a @Luis"]


def test_listings_say_when_a_task_is_due(db: Database, group: str) -> None:
    for due, text in (("2026-11-20", "luz"), ("2026-11-22", "pan"), ("2026-11-23", "agua"), ("2026-11-27", "gas")):
        make_task(db, creator=ANA, description=text, group_id=GROUP, due=due)
    listing = say(db, "/t ver")
    assert "luz · 20/11 (vencida)" in listing
    assert "pan · 22/11 (hoy)" in listing
    assert "agua · 23/11 (mañana)" in listing
    assert "gas · 27/11 ·" in listing


@pytest.mark.parametrize(("city", "zone"), [("bogota", "America/Bogota"), ("new york", "America/New_York"),
                                            ("São Paulo", "America/Sao_Paulo")])
def test_a_zone_is_chosen_by_its_city(db: Database, city: str, zone: str) -> None:
    assert say(db, f"/t zona {city}", group=None).startswith(f"Tu zona horaria es ahora {zone};")


def test_an_unknown_city_suggests_close_names(db: Database) -> None:
    reply = say(db, "/t zona Bogta", group=None)  # "Bogot" is one of Bogotá's names in GeoNames: taken (SPEC 30)
    assert reply.startswith("Zona horaria desconocida: «Bogta»; nombres parecidos: America/Bogota")


def test_a_reminder_preference_names_the_zone_in_force(db: Database) -> None:
    say(db, "/t zona bogota", group=None)
    assert say(db, "/t recordatorios diario 08:30", group=None) == (
        "Recordatorios cada día a las 08:30 (hora de America/Bogota).")


@pytest.mark.parametrize("command", ["/t tomar", "/t nueva x 31/12", "/t zona Marte", "/t calendario ver",
                                     "/t modo 1 algunos", "/t idioma fr", "/t desconocida"])
def test_every_refusal_is_a_sentence_that_starts_with_a_capital(db: Database, command: str) -> None:
    reply = say(db, command, group=None)
    assert reply[0].isupper() or reply[0] in "«!", reply


FLOWER = "34600555555"


@pytest.fixture
def more_names(db: Database, group: str) -> str:
    run(db, wa_text("hola", sender=FLOWER, push_name="🌸🌸"))
    return group


def test_the_readme_s_turns_take_typed_names(db: Database, group: str) -> None:
    """SPEC section 30: ``!turnos`` takes the typed names of the README's own example."""
    run(db, wa_text("/t nueva sacar la basura cada lunes y jueves @Beatriz @Luis !turnos"))
    [row] = task_rows(db)
    assert row.description == "sacar la basura"
    assert assignees(db, 1) == {BEA}
    assert "Por turnos: Beatriz Gómez, Luis" in texts(db)[-1]


def test_a_name_of_two_words_is_taken_whole(db: Database, group: str) -> None:
    run(db, wa_text("/t nueva llamar al fontanero @Beatriz Gómez mañana"))
    assert task_rows(db)[0].description == "llamar al fontanero"
    assert assignees(db, 1) == {BEA}


def test_a_following_word_that_is_no_surname_stays_in_the_text(db: Database, group: str) -> None:
    run(db, wa_text("/t nueva @Luis comprar pan"))
    assert task_rows(db)[0].description == "comprar pan"
    run(db, wa_text("/t nueva @Beatriz comprar leche"))
    assert task_rows(db)[1].description == "comprar leche"


def test_a_name_of_emoji_matches_exactly_and_an_unknown_one_is_said(db: Database, more_names: str) -> None:
    run(db, wa_text("/t nueva regar las plantas @🌸🌸"))
    assert assignees(db, 1) == {FLOWER}
    assert task_rows(db)[0].description == "regar las plantas"
    reply = say(db, "/t nueva regar @🌻")
    assert "🌻" in reply
    assert len(task_rows(db)) == 1
