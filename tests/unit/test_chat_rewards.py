"""Rewards from the conversation (SPEC section 34): a group's admins put rewards on offer, members ask for them with
the points of their completed tasks, an admin approves or refuses; the balance never goes below zero."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from taskcore.storage import schema
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import Queued, queued, run, task_rows, texts

ANA, LUIS, EVA = "34600111111", "34600222222", "34600333333"  # Ana is the group's admin
NAMES = {ANA: "Ana", LUIS: "Luis", EVA: "Eva"}
OTHER = "120363300000000099@g.us"


def make_admin(db: Database, group_id: str, user_id: str) -> None:
    gm = schema.group_members
    with db.write() as conn:
        conn.execute(update(gm).where(gm.c.group_id == group_id, gm.c.user_id == user_id).values(is_admin=True))


@pytest.fixture
def group(db: Database) -> str:
    make_group(db, GROUP, name="Piso", members=(ANA, LUIS, EVA))
    make_admin(db, GROUP, ANA)
    for user in (ANA, LUIS, EVA):
        run(db, wa_text("hola", sender=user, push_name=NAMES[user]))
    return GROUP


def say(db: Database, text: str, user: str = ANA, **kw: object) -> str:
    run(db, wa_text(text, sender=user, push_name=NAMES[user], **kw))  # type: ignore[arg-type]
    return texts(db)[-1]


def sent(db: Database, back: int = 1) -> Queued:
    """The ``back``-th last text queued (1: the last)."""
    return [job for job in queued(db) if job.kind == "text"][-back]


def earn(db: Database, points: int, user: str = LUIS) -> None:
    """``user`` completes a new task worth ``points`` someone else gave them (SPEC section 38)."""
    say(db, f"/t nueva tarea de {points} !{points} @{user}", LUIS if user == ANA else ANA)
    say(db, f"/t x {task_rows(db)[-1].id}", user)


def test_an_admin_puts_a_reward_on_offer_and_anyone_sees_it_with_their_balance(db: Database, group: str) -> None:
    assert say(db, "/t premio nuevo ir al cine 50") == (
        f"@{ANA} 🎁 Premio #1 creado: «ir al cine», por 50 puntos. Para pedirlo: /t canjear 1")
    say(db, "/t premio nuevo helado !10")
    earn(db, 3)
    assert say(db, "/t premios", LUIS) == (f"@{LUIS} 🎁 Premios del grupo:\n• #2 helado · 10 puntos\n"
                                          "• #1 ir al cine · 50 puntos\nTienes 3 puntos.\n"
                                          "Para pedir uno: /t canjear <n>")


def test_only_a_whatsapp_admin_of_the_group_creates_or_deletes_rewards(db: Database, group: str) -> None:
    assert say(db, "/t premio nuevo cine 50", LUIS).endswith("Solo un administrador del grupo (de WhatsApp) puede "
                                                              "crear o quitar premios.")
    say(db, "/t premio nuevo cine 50")
    assert "Solo un administrador" in say(db, "/t premio borrar 1", LUIS)
    assert say(db, "/t premio nuevo cine 50", group=None).endswith("Los premios se crean y se quitan en su grupo.")
    assert say(db, "/t premio borrar 1").startswith(f"@{ANA} Premio #1 («cine») retirado.")
    assert "aún no tiene premios" in say(db, "/t premios")
    assert say(db, "/t premio borrar 1") == f"@{ANA} No encuentro el premio #1. Los premios: /t premios"


def test_a_request_over_the_balance_is_refused_naming_the_balance(db: Database, group: str) -> None:
    say(db, "/t premio nuevo cine 5")
    earn(db, 3)
    assert say(db, "/t canjear 1", LUIS) == f"@{LUIS} No te llega: «cine» cuesta 5 puntos y tienes 3 puntos."


def test_a_request_tells_the_group_the_exact_command_and_an_approval_lowers_the_balance(
    db: Database, group: str,
) -> None:
    say(db, "/t premio nuevo cine 5")
    earn(db, 7)
    assert say(db, "/t canjear 1", LUIS) == (f"@{LUIS} 🎁 Luis quiere canjear «cine» por 5 puntos (canje #1). "
                                            "Un administrador del grupo lo aprueba con: /t aprobar canje 1")
    assert say(db, "/t puntos", LUIS) == (f"@{LUIS} Tienes 7 puntos (5 apartados para canjes pendientes) en este "
                                         "grupo. Cada tarea hecha suma sus puntos; los premios: /t premios")
    reply = say(db, "/t aprobar canje 1")
    assert reply == f"@{ANA} ✅ Canje #1 aprobado: «cine» para @{LUIS}. Le quedan 2 puntos."
    assert sent(db).payload["mentioned"] == [f"{ANA}@s.whatsapp.net", f"{LUIS}@s.whatsapp.net"]
    assert say(db, "/t puntos", LUIS).startswith(f"@{LUIS} Tienes 2 puntos en este grupo.")
    assert say(db, "/t aprobar canje 1") == f"@{ANA} El canje #1 ya estaba aprobado."


def test_pending_requests_reserve_their_points(db: Database, group: str) -> None:
    say(db, "/t premio nuevo cine 5")
    earn(db, 8)
    say(db, "/t canjear 1", LUIS)
    assert say(db, "/t canjear 1", LUIS) == (f"@{LUIS} No te llega: «cine» cuesta 5 puntos y tienes 8 puntos "
                                            "(5 apartados para canjes pendientes).")


def test_an_approval_rechecks_the_balance_and_never_takes_it_below_zero(db: Database, group: str) -> None:
    say(db, "/t premio nuevo cine 5")
    earn(db, 6)
    say(db, "/t canjear 1", LUIS)
    with db.write() as conn:  # points earned went away (a part undone, a task worth less): whatever the cause
        conn.execute(update(schema.tasks).where(schema.tasks.c.id == 1).values(points=2))
    assert say(db, "/t aprobar canje 1") == (f"@{ANA} No se puede aprobar el canje #1: «cine» cuesta 5 puntos y Luis "
                                            "tiene 2 puntos.")
    assert say(db, "/t puntos", LUIS).startswith(f"@{LUIS} Tienes 2 puntos (5 apartados")


def test_only_an_admin_decides_and_the_requester_may_withdraw(db: Database, group: str) -> None:
    say(db, "/t premio nuevo cine 2")
    earn(db, 4)
    say(db, "/t canjear 1", LUIS)
    assert say(db, "/t aprobar canje 1", EVA).endswith("Solo un administrador del grupo (de WhatsApp) puede aprobar "
                                                       "o rechazar canjes.")
    assert say(db, "/t rechazar canje 1", LUIS) == f"@{LUIS} ↩️ @{LUIS} retira el canje #1 («cine»)."
    say(db, "/t canjear 1", LUIS)
    assert say(db, "/t rechazar canje 2 hoy no toca") == (f"@{ANA} ❌ Canje #2 rechazado: «cine» para @{LUIS}. "
                                                          "Motivo: hoy no toca")
    assert say(db, "/t puntos", LUIS).startswith(f"@{LUIS} Tienes 4 puntos en este grupo.")
    assert say(db, "/t aprobar canje 9") == f"@{ANA} No encuentro el canje #9."


def test_in_a_direct_message_the_group_is_told_apart(db: Database, group: str) -> None:
    say(db, "/t premio nuevo cine 2")
    earn(db, 4)
    say(db, "/t canjear 1", LUIS, group=None)
    reply, notice = sent(db, 2), sent(db)
    assert reply.text == "Pedido el canje #1 («cine») en Piso: allí se avisa a los administradores."
    assert (notice.chat_id, notice.payload["mentioned"]) == (GROUP, [f"{LUIS}@s.whatsapp.net"])
    assert notice.text == (f"🎁 @{LUIS} quiere canjear «cine» por 2 puntos (canje #1). Un administrador del grupo lo "
                           "aprueba con: /t aprobar canje 1")
    say(db, "/t aprobar canje 1", group=None)
    assert sent(db, 2).text == "Canje #1 aprobado; se lo he dicho al grupo."
    assert sent(db).text == f"✅ Canje #1 aprobado: «cine» para @{LUIS}. Le quedan 2 puntos."
    assert say(db, "/t puntos", LUIS, group=None) == "Tus puntos por grupo:\n• Piso: 2 puntos"


def test_a_reward_of_another_group_is_not_found(db: Database, group: str) -> None:
    make_group(db, OTHER, name="Trabajo", members=(ANA,))
    make_admin(db, OTHER, ANA)
    say(db, "/t premio nuevo café 1", group=OTHER)
    earn(db, 4)
    assert say(db, "/t canjear 1", LUIS) == f"@{LUIS} No encuentro el premio #1. Los premios: /t premios"
    assert say(db, "/t canjear 1", LUIS, group=None).startswith("No encuentro el premio #1.")


def test_pendientes_lists_what_waits_for_the_admins_approval(db: Database, group: str) -> None:
    say(db, "/t premio nuevo cine 2")
    earn(db, 4)
    assert say(db, "/t pendientes") == f"@{ANA} Nada espera tu aprobación."
    say(db, "/t canjear 1", LUIS)
    assert say(db, "/t pendientes") == (f"@{ANA} 1 cosa espera tu aprobación:\n🎁 Canjes de premios:\n"
                                       "• Canje #1: Luis pide «cine» (2 puntos) → /t aprobar canje 1")
    assert say(db, "/t pendientes", group=None) == ("1 cosa espera tu aprobación:\n🎁 Canjes de premios:\n"
                                                   "• Canje #1: Luis pide «cine» (2 puntos) · Piso → "
                                                   "/t aprobar canje 1")
    assert say(db, "/t pendientes", LUIS) == f"@{LUIS} Nada espera tu aprobación."


@pytest.mark.parametrize(("text", "title", "points"), [
    ("/t premio nuevo 50 Elegir la película", "Elegir la película", 50),  # the price first, as people also write it
    ("/t premio nuevo !10 helado de fresa", "helado de fresa", 10),
    ("/t premio nuevo 30 cine 2", "30 cine", 2),  # the last word, when it is a price, is the price
])
def test_the_price_is_the_last_word_or_else_the_first(db: Database, group: str, text: str, title: str,
                                                      points: int) -> None:
    assert say(db, text) == f"@{ANA} 🎁 Premio #1 creado: «{title}», por {points} puntos. Para pedirlo: /t canjear 1"


@pytest.mark.parametrize(("text", "reason"), [
    ("/t premio nuevo cine", "Faltan datos"),
    ("/t premio nuevo cine 0", "El precio va de 1 a 10000 puntos"),
    ("/t premio nuevo cine mucho", "Precio no válido: «mucho»"),
    ("/t premio nuevo 50", "Faltan datos"),
    ("/t premio cambiar cine 3", "Orden desconocida: «cambiar»"),
    ("/t premio borrar", "Faltan datos"),
    ("/t canjear", "Falta el número del premio"),
    ("/t canjear cine", "Número de premio no válido: «cine»"),
])
def test_malformed_reward_commands_say_what_is_wrong_and_the_usage(db: Database, group: str, text: str,
                                                                   reason: str) -> None:
    reply = say(db, text)
    assert reply.startswith(f"@{ANA} {reason}.\nUso: /t ")


def test_premio_alone_lists_and_the_words_of_every_language_work(db: Database, group: str) -> None:
    say(db, "/t reward add movie night 3")
    say(db, "/t prêmio novo sorvete 2")
    assert "#1 movie night · 3 puntos" in say(db, "/t premio")
    assert "#2 sorvete" in say(db, "/t rewards")
    say(db, "/t reward delete 1")
    assert "movie" not in say(db, "/t prêmios")
    earn(db, 2)
    assert "canje #1" in say(db, "/t redeem 2", LUIS)
    assert "1 cosa" in say(db, "/t pending")
    assert "1 cosa" in say(db, "/t pendentes")


@pytest.mark.parametrize(("person", "words", "expected"), [
    ("5511988887777", ("/t resgatar 1", "/t pontos"),
     ("🎁 Bia quer trocar 2 pontos por «cine» (resgate #1). Um administrador do grupo aprova com: "
      "/t aprovar resgate 1", "Você tem 3 pontos (2 reservados para resgates pendentes) neste grupo.")),
    ("447911123456", ("/t redeem 1", "/t points"),
     ("🎁 Bia wants to redeem 2 points for “cine” (request #1). A group admin approves it with: /t approve request 1",
      "You have 3 points (2 held for pending requests) in this group.")),
])
def test_the_request_names_the_approving_command_in_the_readers_language(
    db: Database, group: str, person: str, words: tuple[str, str], expected: tuple[str, str],
) -> None:
    NAMES[person] = "Bia"
    make_group(db, GROUP, members=(person,))
    say(db, "/t premio nuevo cine 2")
    earn(db, 3, person)
    redeem, balance = words
    assert say(db, redeem, person) == f"@{person} {expected[0]}"
    assert say(db, balance, person).startswith(f"@{person} {expected[1]}")
