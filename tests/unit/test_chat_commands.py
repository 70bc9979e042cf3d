"""The /t commands as chat use cases: effect in the database and the reply queued (SPEC section 5)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from taskcore.services.preferences import get_preference
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group, make_task, wa_text
from tests.chat_support import assignees, member, policy, queued, run, task_rows, texts

ANA, BEA, LID_BEA = "34600111111", "34600222222", "900222"


@pytest.fixture
def group(db: Database) -> str:
    return make_group(db, GROUP, name="Casa", members=(ANA,))


# The first dated reply names the zone (SPEC section 30).
ZONE_NOTE = "\n🕒 Fechas y horas en tu zona horaria, Europe/Madrid. Para cambiarla: /t zona <ciudad>"


def say(db: Database, text: str, **kw: object) -> str:
    run(db, wa_text(text, **kw))  # type: ignore[arg-type]
    return texts(db)[-1]


def test_nueva_in_a_group_creates_an_unassigned_group_task_and_says_so(db: Database, group: str) -> None:
    assert say(db, "/t nueva comprar pan mañana") == (f"@{ANA} Tarea #1 creada: comprar pan (vence 23/11). Sin asignar"
                                                      + ZONE_NOTE)
    (task,) = task_rows(db)
    assert (task.group_id, task.description, task.due_date) == (GROUP, "comprar pan", "2026-11-23")
    assert task.created_by == ANA
    assert assignees(db, 1) == set()


def test_nueva_records_the_command_message_as_the_tasks_origin(db: Database, group: str) -> None:
    run(db, wa_text("/t nueva regar", message_id="ORIGIN1"))
    (task,) = task_rows(db)
    assert (task.origin_chat_id, task.origin_message_id, task.origin_participant) == (
        GROUP, "ORIGIN1", f"{ANA}@s.whatsapp.net")
    assert task.origin_message_at == NOW


def test_nueva_assigns_the_mentioned_people_and_mentions_them_in_the_reply(db: Database, group: str) -> None:
    make_group(db, GROUP, members=(BEA, LID_BEA))
    run(db, wa_text(f"/t nueva limpiar @{BEA} @{LID_BEA}", mentioned=(f"{BEA}@s.whatsapp.net", f"{LID_BEA}@lid")))
    (job,) = [j for j in queued(db) if j.kind == "text"]
    assert job.text == f"@{ANA} Tarea #1 creada: limpiar. Para @{BEA}, @{LID_BEA}"
    assert job.payload["mentioned"] == [f"{ANA}@s.whatsapp.net", f"{BEA}@s.whatsapp.net", f"{LID_BEA}@lid"]
    assert assignees(db, 1) == {BEA, LID_BEA}


def test_a_mention_of_someone_who_is_not_a_member_is_unknown_and_makes_no_member(db: Database, group: str) -> None:
    reply = say(db, f"/t nueva limpiar @{BEA}", mentioned=(f"{BEA}@s.whatsapp.net",))
    assert reply == f"@{ANA} No encuentro a esa persona en el grupo. Nada hecho; elige a la persona en la lista de @ " \
                    "de WhatsApp."
    assert (task_rows(db), member(db, GROUP, BEA)) == ([], None)


def test_a_mentioned_lid_resolves_through_its_alias(db: Database, group: str) -> None:
    run(db, wa_text("hola", sender=BEA, lid=LID_BEA))
    run(db, wa_text(f"/t nueva limpiar @{LID_BEA}", mentioned=(f"{LID_BEA}@lid",)))
    assert assignees(db, 1) == {BEA}


def test_mentioning_the_bot_does_not_assign_it(db: Database, group: str) -> None:
    run(db, wa_text("/t nueva limpiar @15550100000", mentioned=("15550100000@s.whatsapp.net",)))
    assert assignees(db, 1) == set()


def test_nueva_in_private_creates_a_personal_task_for_the_sender(db: Database) -> None:
    assert say(db, "/t nueva llamar al banco 2026-12-01", group=None) == (
        "Tarea #1 creada: llamar al banco (vence 01/12)" + ZONE_NOTE)
    (task,) = task_rows(db)
    assert (task.group_id, assignees(db, 1)) == (None, {ANA})


def test_a_bad_date_rejects_nueva_with_the_accepted_forms_and_creates_nothing(db: Database, group: str) -> None:
    reply = say(db, "/t nueva pagar 25-12")
    assert "Fecha no válida: «25-12»" in reply
    assert "AAAA-MM-DD" in reply
    assert task_rows(db) == []


def test_ver_in_a_group_lists_unassigned_first_then_by_due_date(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP, description="b", due="2026-11-30", assignees=(ANA,))
    make_task(db, creator=ANA, group_id=GROUP, description="a", due="2026-12-30")
    make_task(db, creator=ANA, group_id=GROUP, description="c", due="2026-11-25", assignees=(ANA,))
    assert say(db, "/t ver") == (f"@{ANA} Tareas abiertas (3):\n#2 a · 30/12 · sin asignar\n"
                                 "#3 c · 25/11 · Ana\n#1 b · 30/11 · Ana")


def test_ver_says_so_when_a_group_has_no_open_tasks(db: Database, group: str) -> None:
    assert say(db, "/t ver") == f"@{ANA} No hay tareas abiertas en este grupo."


def test_ver_shows_twenty_lines_then_how_many_more_with_the_web_pointer(db: Database, group: str) -> None:
    for i in range(23):
        make_task(db, creator=ANA, group_id=GROUP, description=f"t{i}")
    lines = say(db, "/t ver").split("\n")
    assert len(lines) == 22
    assert lines[-1] == "y 3 más: /t web para verlas todas"


def test_ver_in_private_lists_the_senders_tasks_by_group(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP, description="grupo", assignees=(ANA,))
    make_task(db, creator=ANA, group_id=None, description="mía", due="2026-11-24")
    assert say(db, "/t ver", group=None) == "Tus tareas abiertas (2):\n*Personales*\n#2 mía · 24/11\n*Casa*\n#1 grupo"


def test_ver_in_private_without_tasks(db: Database) -> None:
    assert say(db, "/t ver", group=None) == "No tienes tareas abiertas."


def test_x_completes_assigns_the_completer_and_answers_each_task(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP, description="pan")
    assert say(db, "/t x 1 7") == (f"@{ANA} Tarea #1 completada: pan\n"  # her own task: its point waits (SPEC 38)
                                   "⭐ Su 1 punto cuenta cuando otra persona del grupo lo apruebe: /t aprobar 1\n"
                                   "No encuentro la tarea #7.")
    (task,) = task_rows(db)
    assert (task.completed, task.completed_by, assignees(db, 1)) == (True, ANA, {ANA})


def test_x_on_a_completed_task_says_it_already_is(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP)
    run(db, wa_text("/t x 1"))
    assert say(db, "/t x 1") == f"@{ANA} La tarea #1 ya está completada."


def test_a_personal_task_is_not_found_from_a_group_so_nothing_private_shows(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=None, description="secreto")
    assert say(db, "/t x 1") == f"@{ANA} No encuentro la tarea #1 en este grupo."
    assert task_rows(db)[0].completed is False


def test_only_an_assignee_may_complete_a_personal_task(db: Database) -> None:
    make_task(db, creator=ANA, group_id=None)
    run(db, wa_text("/t soltar 1", group=None))
    assert say(db, "/t x 1", group=None) == "Solo quien tiene asignada la tarea #1 puede completarla."


def test_tomar_and_soltar_change_the_senders_assignment(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP, description="pan")
    assert say(db, "/t tomar 1") == f"@{ANA} Te quedas la tarea #1: pan"
    assert assignees(db, 1) == {ANA}
    assert say(db, "/t soltar #1") == f"@{ANA} Sueltas la tarea #1: pan"
    assert assignees(db, 1) == set()


def test_changing_a_completed_task_is_refused(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP)
    run(db, wa_text("/t x 1"))
    assert say(db, "/t tomar 1") == f"@{ANA} La tarea #1 ya está completada."


def test_fecha_sets_and_clears_the_due_date(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP)
    assert say(db, "/t fecha 1 hoy") == f"@{ANA} La tarea #1 vence el 22/11." + ZONE_NOTE  # said once
    assert task_rows(db)[0].due_date == "2026-11-22"
    assert say(db, "/t fecha 1 sin") == f"@{ANA} La tarea #1 ya no tiene fecha."
    assert task_rows(db)[0].due_date is None


def test_editar_replaces_the_description(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP)
    assert say(db, "/t editar 1 comprar   pan <b>integral</b>") == f"@{ANA} Tarea #1 cambiada: comprar pan integral"


def test_a_task_of_another_group_is_not_found_here(db: Database, group: str) -> None:
    make_group(db, "200@g.us", members=(ANA,))
    make_task(db, creator=ANA, group_id="200@g.us")
    assert say(db, "/t editar 1 otra cosa") == f"@{ANA} No encuentro la tarea #1 en este grupo."


def test_a_group_task_can_be_changed_from_a_private_chat(db: Database, group: str) -> None:
    make_task(db, creator=ANA, group_id=GROUP, description="pan")
    assert say(db, "/t tomar 1", group=None) == "Te quedas la tarea #1: pan"


@pytest.mark.parametrize(("command", "reply", "saved"), [
    ("/t recordatorios diario 7:5", "Recordatorios cada día a las 07:05 (hora de Europe/Madrid).",
     ("daily", "07:05")),
    ("/t recordatorios laborables", "Recordatorios de lunes a viernes a las 08:30 (hora de Europe/Madrid).",
     ("weekdays", "08:30")),
    ("/t recordatorios weekly 18:00", "Recordatorios los lunes a las 18:00 (hora de Europe/Madrid).",
     ("weekly", "18:00")),
    ("/t recordatorios off", "Recordatorios desactivados.", ("off", "08:30")),
])
def test_recordatorios_saves_the_preference(db: Database, command: str, reply: str, saved: tuple[str, str]) -> None:
    assert say(db, command, group=None) == reply
    pref = units.look(db, get_preference, user_id=ANA)
    assert (pref.freq, pref.time) == saved


def test_web_in_private_sends_the_login_link(db: Database) -> None:
    reply = say(db, "/t web", group=None)
    assert reply.startswith("Tu enlace para entrar en la web (vale 15 minutos, un solo uso):\n"
                            "https://tareas.example/login?token=")


def test_web_in_a_group_answers_only_that_the_link_goes_privately(db: Database, group: str) -> None:
    run(db, wa_text("/t web"))
    reply, link = queued(db)[0], queued(db)[1]
    assert reply.text == f"@{ANA} Te lo envío por privado."
    assert (link.chat_id, link.label, link.payload["chat"]) == (
        f"{ANA}@s.whatsapp.net", "login", f"{ANA}@s.whatsapp.net")
    assert "token=" in link.text
    assert "token=" not in reply.text


def test_web_without_web_base_url_is_a_clear_error(db: Database) -> None:
    run(db, wa_text("/t web", group=None), policy(web=None))
    assert texts(db) == ["El acceso web no está disponible: falta configurar WEB_BASE_URL."]


def test_help_lists_every_command(db: Database) -> None:
    reply = say(db, "/t", group=None)
    for name in ("nueva", "ver", "x", "tomar", "soltar", "fecha", "editar", "recordatorios", "web"):
        assert f"/t {name}" in reply


def test_an_unknown_subcommand_is_answered_with_the_command_list(db: Database) -> None:
    assert say(db, "/t borrar 1", group=None).startswith("Orden desconocida: «borrar».\nUso: /t ayuda|nueva")


def test_ordinary_chat_gets_no_reply(db: Database, group: str) -> None:
    run(db, wa_text("hola a todos"))
    assert queued(db) == []


def test_reply_quotes_the_command_with_its_sender_as_participant(db: Database, group: str) -> None:
    run(db, wa_text("/t ver", message_id="Q1"))
    assert queued(db)[0].payload["quote"] == {
        "id": "Q1", "chat": GROUP, "from_me": False, "participant": f"{ANA}@s.whatsapp.net", "text": "/t ver"}


def test_dates_in_replies_use_today_in_the_configured_zone(db: Database, group: str) -> None:
    late = NOW.replace(hour=23, minute=30) + timedelta(hours=1)  # 00:30 UTC on the 23rd
    run(db, wa_text("/t nueva pan hoy"), now=late)
    assert task_rows(db)[0].due_date == date(2026, 11, 23).isoformat()
