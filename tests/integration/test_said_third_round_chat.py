"""SPEC section 39 through the real bot on each gateway (Evolution API's fake and WAHA's): the households' trial of
2026-12-06 repeated, each measured defect with what the bot answers now. A Brazilian house, an English-speaking one
(British and American numbers) and a Mexican one, each its own group."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

from taskcore.access import GatingMode
from taskcore.services import task_import, web_tasks
from taskcore.storage.db import Database
from taskcore.storage.reward_tables import rewards
from taskcore.storage.schema import group_members, user_preferences
from tasksvc_run import keys, units
from tasksvc_run.devgateway.acts import Group
from tests.chat_support import assignees, task_rows
from tests.integration.household import BOT, GATEWAYS, TIMEOUT_MS, Household, Person, household

pytestmark = pytest.mark.parametrize("gateway", GATEWAYS)

LEO = Person("Leo", "5521987650001", "198700000000101")
RITA = Person("Rita", "5521987650002", "198700000000102")
JOHN = Person("John", "447400123456", "198700000000103")
KATE = Person("Kate", "13105550002", "198700000000104")
AMY = Person("Amy", "13105550003", "198700000000105")
LUIS_M = Person("Luis Martínez", "5215512340001", "198700000000106")
LUIS_P = Person("Luis Pérez", "5215512340002", "198700000000107")
SOFIA = Person("Sofía", "5215512340003", "198700000000108")
CASA = Group("120363300000000031@g.us", "Casa", tuple(p.member("pn") for p in (BOT, LEO, RITA)), "pn")
HOME = Group("120363300000000032@g.us", "Home", tuple(p.member("pn") for p in (BOT, JOHN, KATE, AMY)), "pn")
HOGAR = Group("120363300000000033@g.us", "Hogar", tuple(p.member("pn") for p in (BOT, LUIS_M, LUIS_P, SOFIA)),
              "pn")


@pytest.fixture
async def house(sqlite_db: Database, gateway: str, tmp_path: Path) -> AsyncIterator[Household]:
    async with household(sqlite_db, gateway, tmp_path, groups=(CASA, HOME, HOGAR), GROUP_GATING_MODE="off") as running:
        for person, group in ((LEO, CASA), (RITA, CASA), (JOHN, HOME), (KATE, HOME), (AMY, HOME), (LUIS_M, HOGAR),
                              (LUIS_P, HOGAR), (SOFIA, HOGAR)):
            await running.says(person, "hola", group=group)
        yield running


async def said(house: Household, who: Person, text: str, group: Group, **kw: object) -> str:
    """What the bot answers ``who`` writing ``text`` in ``group``: its next text there."""
    before = len(house.sent(group.id))
    await house.says(who, text, group=group, **kw)  # type: ignore[arg-type]
    await house.fake.wait_for(lambda _fake: len(house.sent(group.id)) > before, 10.0)
    return house.sent(group.id)[before].text or ""


# The group speaks its people's language.

async def test_what_the_bot_starts_in_a_portuguese_group_is_in_portuguese(house: Household) -> None:
    """Measured: the photo received and a task created on the web came out in Spanish in a Brazilian group."""
    created = await said(house, LEO, "/t nova varrer !foto", CASA)
    assert "📷 #1 precisa de uma foto." in created
    replied = next(s for s in house.sent(CASA.id) if s.text == created)
    await house.says(RITA, "feito", group=CASA, replying_to=replied, photo=b"\xff\xd8\xff\xe0" + b"swept" * 64)
    received = await house.bot_says("📷 Foto de #1", chat=CASA.id)
    assert "recebida" in (received.text or "")
    units.run(house.db, web_tasks.create_from_web, GatingMode.OFF, user_id=LEO.user_id,
              new=web_tasks.NewTask("comprar pão", group_id=CASA.id), now=house.clock.now(),
              announcing=web_tasks.Announcing(3, "es"))
    house.app[keys.OUTBOUND].notify()
    announced = await house.bot_says("#2", chat=CASA.id)
    assert "comprar pão" in (announced.text or "")
    assert "criou a tarefa" in (announced.text or "")


async def test_a_member_s_language_is_theirs_and_the_group_s_is_set_with_idioma_grupo(house: Household) -> None:
    """Measured: a member's ``/t language en`` switched the whole group."""
    assert await said(house, LEO, "/t language en", CASA) == f"@{LEO.phone} From now on I'll write to you in English."
    assert await said(house, RITA, "/t lista", CASA) == f"@{RITA.phone} Não há tarefas abertas neste grupo."
    assert await said(house, RITA, "/t idioma grupo en", CASA) == f"@{RITA.phone} In this group I now write in English."
    assert await said(house, RITA, "/t lista", CASA) == f"@{RITA.phone} No open tasks in this group."


async def test_a_file_imported_is_announced_in_an_english_speaking_group_s_language(house: Household) -> None:
    """Measured: a task imported came out in Spanish in an English-speaking group (British and American numbers)."""
    units.run(house.db, task_import.import_tasks, GatingMode.OFF, user_id=JOHN.user_id, group_id=HOME.id,
              raw=b"description\nsweep\nbins\n", now=house.clock.now(), today=house.clock.now().date(),
              announcing=web_tasks.Announcing(3, "es"))
    house.app[keys.OUTBOUND].notify()
    announced = await house.bot_says("#1", chat=HOME.id)
    assert announced.text == "John imported 2 tasks from a file (#1, #2). See them with /t list."


# More ways to say done.

@pytest.mark.parametrize(("who", "group", "reply"), [
    (SOFIA, HOGAR, "ya quedó"), (SOFIA, HOGAR, "terminé"), (RITA, CASA, "tá feito"), (JOHN, HOME, "Done, cheers!"),
    (KATE, HOME, "listo gracias"),
])
async def test_a_done_phrase_replied_to_the_task_s_message_completes_it(house: Household, who: Person,
                                                                       group: Group, reply: str) -> None:
    await house.says(who, "/t new sweep", group=group)
    created = await house.bot_says("#1", chat=group.id)
    answer = await said(house, who, reply, group, replying_to=created)
    assert "#1" in answer
    assert task_rows(house.db)[0].completed


# One reader of times, everywhere.

@pytest.mark.parametrize(("who", "group", "text", "heard"), [
    (LEO, CASA, "/t lembretes diário às 18h", ("Lembretes todo dia às 18:00", "18:00")),
    (KATE, HOME, "/t reminders daily 7 pm", ("Reminders every day at 7:00 PM", "19:00")),  # en-US: 12-hour clock
    (SOFIA, HOGAR, "/t recordatorios diario a las 8", ("Recordatorios cada día a las 08:00", "08:00")),
])
async def test_reminder_times_as_people_write_them(house: Household, who: Person, group: Group, text: str,
                                                   heard: tuple[str, str]) -> None:
    """Measured: ``às 18h``, ``7 pm``, ``a las 8`` refused. ``heard``: the answer, and the time stored."""
    answer, at = heard
    assert answer in await said(house, who, text, group)
    p = user_preferences
    with house.db.read() as conn:
        assert conn.execute(select(p.c.time).where(p.c.user_id == who.user_id)).scalar_one() == at


# Every date command suggests.

@pytest.mark.parametrize(("who", "group", "text", "hint"), [
    (JOHN, HOME, "/t due 1 Dec 14", "💡 If you meant 2026-12-14: /t due 1 2026-12-14"),
    (LEO, CASA, "/t fora sexta", "💡 Se você quis dizer {friday}: /t fora {friday}"),
    (LEO, CASA, "/t nova dentista 30/11/2026", "💡 Se você quis dizer 2026-11-30: /t nova dentista 2026-11-30"),
])
async def test_a_date_command_suggests_the_written_command(house: Household, who: Person, group: Group, text: str,
                                                           hint: str) -> None:
    """Measured: ``/t due 52 Dec 14`` and ``/t fora sexta`` got no suggestion, ``/t nova``'s held ``<texto>``."""
    await said(house, who, "/t new bins", group)
    today = house.clock.now().astimezone(ZoneInfo("America/Sao_Paulo")).date()
    friday = today + timedelta(days=(4 - today.weekday() - 1) % 7 + 1)  # the next Friday after today
    assert (await said(house, who, text, group)).endswith("\n" + hint.format(friday=friday.isoformat()))


# Wording.

async def test_the_portuguese_wording(house: Household) -> None:
    """Measured: ``toda domingo``, ``0 ponto``, ``!divisão`` answered "Por turnos" and named the next person."""
    assert "todo domingo às 18:00" in await said(house, LEO, "/t resumo semanal domingo às 18h", CASA)
    assert (await said(house, LEO, "/t pontos", CASA)).startswith(f"@{LEO.phone} Você tem 0 pontos neste grupo.")
    share = await said(house, LEO, f"/t nova lixo toda segunda @{LEO.phone} @{RITA.phone} !divisão", CASA,
                       mentioning=(LEO, RITA))
    assert f"Divisão justa: @{LEO.phone}, @{RITA.phone}" in share
    await said(house, LEO, f"/t nova regar toda terça @{LEO.phone} @{RITA.phone} !turnos", CASA,
               mentioning=(LEO, RITA))
    done = await said(house, LEO, "/t feito 2", CASA)
    assert done.endswith(f"vez de @{RITA.phone}")
    said_done = next(s for s in house.sent(CASA.id) if s.text == done)
    assert RITA.jid("pn") in said_done.mentions  # mentioned: she is notified


async def test_a_reward_s_name_loses_the_price_words(house: Household) -> None:
    """Measured: ``20 pontos: escolher o filme`` became the reward's name."""
    with house.db.write() as conn:
        conn.execute(update(group_members).where(group_members.c.user_id == LEO.user_id).values(is_admin=True))
    await said(house, LEO, "/t prêmio novo 20 pontos: escolher o filme", CASA)
    await said(house, LEO, "/t prêmio novo pizza por 15 pontos", CASA)
    with house.db.read() as conn:
        assert conn.execute(select(rewards.c.name, rewards.c.points).order_by(rewards.c.id)).all() == [
            ("escolher o filme", 20), ("pizza", 15)]


# Left from round two.

async def test_a_two_word_name_is_taken_whole_beside_a_namesake(house: Household) -> None:
    answer = await said(house, SOFIA, "/t nueva llamar al fontanero @Luis Martínez", HOGAR)
    assert "Para Luis Martínez" in answer
    assert assignees(house.db, 1) == {LUIS_M.phone}
    assert task_rows(house.db)[0].description == "llamar al fontanero"


async def test_a_check_on_a_message_whose_send_answer_is_late_completes_its_task(house: Household) -> None:
    """Measured: a ✅ on a just-sent message was ignored. The gateway answers the send late (within the client's
    patience): the reaction waits for the record, then completes the task."""
    house.fake.answer_late(seconds=TIMEOUT_MS / 1000 / 2, route="sendText")
    await house.says(JOHN, "/t new sweep", group=HOME)
    created = await house.bot_says("Task #1 created", chat=HOME.id)
    await house.reacts(KATE, "✅", created, group=HOME)
    await house.bot_says("Task #1 completed", chat=HOME.id)
    assert task_rows(house.db)[0].completed
