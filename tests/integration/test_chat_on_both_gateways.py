"""The chat flows of SPEC section 36 on each gateway, written once: every test runs against the fake of Evolution API
and the fake of WAHA (``gateway``), through the real bot, its webhook, worker and watchdog. Where a gateway cannot do
something, the test says what that gateway gives instead."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from taskcore.queue_rules import DIGEST_LABEL
from taskcore.services import delivery
from taskcore.services.alerts import PROBE_TEXT
from taskcore.storage.db import Database
from taskcore.watchdog import Act
from tasksvc_run import keys, units
from tasksvc_run.devgateway.acts import Group
from tasksvc_run.devgateway.waha_fake import FakeWaha
from tests.chat_support import assignees, group_status, member, task_rows
from tests.integration.household import (
    ANA,
    BEA,
    BOT,
    CARLA,
    CASA,
    GATEWAYS,
    PISO,
    TIMEOUT_MS,
    WITHIN,
    Household,
    household,
)

pytestmark = pytest.mark.parametrize("gateway", GATEWAYS)
ECHO_LATE = timedelta(seconds=121)  # past WATCHDOG_ECHO_SECONDS


@pytest.fixture
async def house(sqlite_db: Database, gateway: str, tmp_path: Path) -> AsyncIterator[Household]:
    async with household(sqlite_db, gateway, tmp_path) as running:
        yield running


async def test_a_task_is_created_listed_claimed_and_completed_by_command(house: Household) -> None:
    asked = await house.says(ANA, "/t nueva pan")
    created = await house.bot_says("Tarea #1 creada: pan", chat=CASA.id)
    assert created.text == f"@{ANA.phone} Tarea #1 creada: pan. Sin asignar"
    assert created.mentions == (ANA.jid("pn"),)
    assert created.quoted == asked.id
    await house.says(BEA, "/t lista")
    listed = await house.bot_says("Tareas abiertas (1):", chat=CASA.id)
    assert listed.text == f"@{BEA.phone} Tareas abiertas (1):\n#1 pan · sin asignar"
    await house.says(BEA, "/t tomar 1")
    await house.bot_says(f"@{BEA.phone} Te quedas la tarea #1: pan", chat=CASA.id)
    await house.says(BEA, "/t x 1")
    await house.bot_says(f"@{BEA.phone} Tarea #1 completada: pan", chat=CASA.id)
    assert assignees(house.db, 1) == {BEA.phone}
    assert task_rows(house.db)[0].completed


async def test_a_reply_to_the_bots_message_acts_on_its_task(house: Household) -> None:
    await house.says(ANA, "/t nueva regar")
    created = await house.bot_says("Tarea #1 creada", chat=CASA.id)
    reply = await house.says(BEA, "yo", replying_to=created)
    claimed = await house.bot_says("Te quedas la tarea #1: regar", chat=CASA.id)
    assert claimed.quoted == reply.id
    assert assignees(house.db, 1) == {BEA.phone}
    await house.bot_reacts("🤖", on=reply.id)  # the reply was a command, and is marked as one


async def test_a_check_reaction_on_the_bots_message_completes_its_task(house: Household) -> None:
    await house.says(ANA, "/t nueva barrer")
    created = await house.bot_says("Tarea #1 creada", chat=CASA.id)
    await house.reacts(BEA, "✅", created)
    await house.bot_says(f"@{BEA.phone} Tarea #1 completada: barrer", chat=CASA.id)
    assert (task_rows(house.db)[0].completed, task_rows(house.db)[0].completed_by) == (True, BEA.phone)


async def test_mentions_are_read_and_written_in_each_group_s_form(house: Household) -> None:
    await house.says(ANA, f"/t nueva pan @{BEA.phone}", mentioning=(BEA,))
    by_phone = await house.bot_says("Tarea #1 creada", chat=CASA.id)
    await house.says(ANA, f"/t nueva fregar @{CARLA.lid}", group=PISO, mentioning=(CARLA,))
    by_lid = await house.bot_says("Tarea #2 creada", chat=PISO.id)
    assert (assignees(house.db, 1), assignees(house.db, 2)) == ({BEA.phone}, {CARLA.lid})
    assert by_phone.mentions == (ANA.jid("pn"), BEA.jid("pn"))
    assert by_lid.mentions == (ANA.jid("lid"), CARLA.jid("lid"))
    assert (by_lid.text or "").startswith(f"@{ANA.lid} ")
    assert f"@{CARLA.lid}" in (by_lid.text or "")


async def test_a_lid_only_person_is_served_in_the_group_and_in_private_by_their_lid(house: Household) -> None:
    await house.says(CARLA, "/t nueva regar", group=PISO)
    created = await house.bot_says("Tarea #1 creada: regar", chat=PISO.id)
    assert created.mentions == (CARLA.jid("lid"),)
    assert task_rows(house.db)[0].created_by == CARLA.lid
    await house.says(CARLA, "/t mias", group=None)
    mine = await house.bot_says("", chat=CARLA.jid())
    assert mine.chat == f"{CARLA.lid}@lid"


async def test_a_photo_proves_a_task_and_is_fetched_from_the_gateway_at_once(house: Household, tmp_path: Path) -> None:
    photo = b"\xff\xd8\xff\xe0" + b"a kitchen, swept" * 64
    await house.says(ANA, "/t nueva barrer !foto")
    created = await house.bot_says("#1 necesita una foto", chat=CASA.id)
    await house.says(BEA, "hecho", replying_to=created, photo=photo)
    await house.bot_says("Foto de #1 «barrer» recibida", chat=CASA.id)
    fetched = {"evolution": "getBase64FromMediaMessage", "waha": "files"}[house.gateway]
    assert len(house.fake.calls_to(fetched)) == 1
    [kept] = list((tmp_path / "photos").iterdir())
    assert kept.read_bytes() == photo
    await house.says(ANA, "/t aprobar 1")
    await house.bot_says("Foto aprobada: #1", chat=CASA.id)
    assert task_rows(house.db)[0].completed_by == BEA.phone


async def test_a_person_unreachable_in_private_is_marked_and_told_in_a_group(house: Household) -> None:
    """Evolution API accepts the direct message (201) and reports ERROR after; WAHA refuses the send at once (HTTP
    500 naming error 463). Either way the person is unreachable, told so once in a group they share with the bot."""
    house.fake.effects.refuse_cold = True
    job = house.queue(BEA.jid(), "Tus tareas de hoy: comprar pan", label=DIGEST_LABEL)
    told = await house.bot_says(f"@{BEA.phone}, no puedo escribirte por privado.", chat=CASA.id)
    assert told.mentions == (BEA.jid("pn"),)
    await house.until(lambda: [p.user_id for p in units.look(house.db, delivery.unreachable_people)] == [BEA.phone])
    if house.gateway == "waha":
        assert ("sendText", 500) in house.fake.failed
        assert house.sent(BEA.jid()) == []
        assert house.job_status(job) == "failed"
    else:
        assert [s.text for s in house.sent(BEA.jid())] == ["Tus tareas de hoy: comprar pan"]
        await house.until(lambda: "ERROR" in house.deliveries().values())
    assert house.metric("unreachable_people") == 1


async def test_a_send_whose_answer_never_came_is_looked_up_before_it_is_sent_again(house: Household) -> None:
    """WAHA takes the id the worker chose before the send, so the retry finds the message in WAHA's store and does
    not send it again. Evolution API chooses its ids itself: a send accepted after the client gave up is sent again
    (that is what an id chosen before the send buys)."""
    house.fake.answer_late(seconds=TIMEOUT_MS / 1000 + 1, route="sendText")
    await house.says(ANA, "/t nueva pan")
    if house.gateway == "waha":
        await house.until(lambda: house.metric("outbound_in_doubt_settled_total", how="gateway") == 1)
        assert len(house.fake.calls_to("chat/message")) == 1
        expected = 1
    else:
        await house.bot_says("Tarea #1 creada")
        await house.fake.wait_for(lambda fake: len(fake.sent_texts()) == 2, WITHIN)
        expected = 2
    await house.until(lambda: house.metric("outbound_sent_total", kind="text") == 1)
    assert [s.text for s in house.sent(CASA.id)] == [f"@{ANA.phone} Tarea #1 creada: pan. Sin asignar"] * expected


async def test_the_watchdog_hears_each_send_s_echo_and_probes_when_none_comes(house: Household) -> None:
    """Evolution API echoes a send as ``send.message``; WAHA as ``message.any`` with ``source: "api"``."""
    watchdog = house.app[keys.WATCHDOG]
    house.queue(CASA.id, "Recordatorio: sacar la basura")
    await house.until(lambda: house.metric("webhook_echoes_total") == 1)
    house.clock.advance(ECHO_LATE)
    assert await watchdog.tick() is Act.NOTHING
    house.fake.deliveries.delivering = False  # the webhook goes quiet: sends are accepted, their echoes lost
    silent = house.queue(CASA.id, "Recordatorio: regar")
    await house.until(lambda: house.job_status(silent) == "sent")
    house.clock.advance(ECHO_LATE)
    await watchdog.tick()
    probe = await house.bot_says(PROBE_TEXT)
    assert probe.chat == BOT.jid("pn")  # probed on the bot's own number
    assert house.metric("webhook_echoes_total") == 1


CLOSED = {"evolution": ("close",), "waha": ("STOPPED", "FAILED")}  # connection.update / session.status
REOPENED = {"evolution": "open", "waha": "WORKING"}


async def test_nothing_is_sent_while_the_connection_is_down_and_everything_after_it_reopens(house: Household) -> None:
    watchdog = house.app[keys.WATCHDOG]
    for number, state in enumerate(CLOSED[house.gateway], 1):
        house.fake.set_connection(state)
        await house.until(lambda: not watchdog.link.connected)
        await house.says(ANA, f"/t nueva tarea {number}")
        await asyncio.sleep(0.3)  # long enough for the worker to have sent it, were it not paused
        assert [s for s in house.sent(CASA.id) if f"Tarea #{number} creada" in (s.text or "")] == []
        assert [route for route, _ in house.fake.failed if route == "sendText"] == []  # not even tried
        house.fake.set_connection(REOPENED[house.gateway])
        await house.bot_says(f"Tarea #{number} creada: tarea {number}", chat=CASA.id)


async def test_a_group_message_is_known_delivered_and_read_only_where_the_gateway_gives_members_receipts(
        house: Household) -> None:
    """WAHA posts each member's receipt as ``message.ack.group``; Evolution API posts none for a group message (its
    status stops at the server's acknowledgement, SERVER_ACK)."""
    if isinstance(house.fake, FakeWaha):
        house.fake.effects.ack_levels = (2, 3)  # each member's phone got it, then read it
    job = house.queue(CASA.id, "Recordatorio: la compra")
    await house.until(lambda: house.job_status(job) == "sent")
    sent = await house.bot_says("Recordatorio: la compra", chat=CASA.id)
    expected = {"waha": "READ", "evolution": "SERVER_ACK"}[house.gateway]
    await house.until(lambda: house.deliveries().get(str(sent.message_id)) == expected)
    await asyncio.sleep(0.2)  # nothing later changes it
    assert house.deliveries()[str(sent.message_id)] == expected


OBRA = Group("120363300000000030@g.us", "Obra", tuple(p.member("pn") for p in (BOT, BEA)), "pn")


async def test_a_group_the_bot_is_added_to_is_discovered_and_served_once_allowed(
        sqlite_db: Database, gateway: str, tmp_path: Path) -> None:
    """Evolution API says so with ``groups.upsert``, WAHA with ``group.v2.join``."""
    env = {"GROUP_GATING_MODE": "discover", "ALLOWED_GROUPS": f"{CASA.id},{PISO.id}"}
    async with household(sqlite_db, gateway, tmp_path, **env) as house:
        await house.joins(OBRA)
        notice = await house.bot_says(f"/admin permitir {OBRA.id}", chat=ANA.jid())
        assert "Obra" in (notice.text or "")
        assert group_status(house.db, OBRA.id) == "pending"
        await house.says(BEA, "/t nueva pan", group=OBRA)
        await house.says(ANA, f"/admin permitir {OBRA.id}", group=None)
        await house.says(BEA, "/t nueva pan", group=OBRA)
        await house.bot_says("Tarea #1 creada: pan", chat=OBRA.id)
        assert group_status(house.db, OBRA.id) == "allowed"
        assert member(house.db, OBRA.id, BEA.user_id).active
