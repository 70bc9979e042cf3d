"""Missed chores, reviewed (SPEC section 41), through the chat on both gateways: a Brazilian family and a British
flatshare set a penalty, a recurring chore is left undone past its day, the chores tick finds it once, and a group
admin applies it (the points go) or excuses it (with a reason); the person is told which, mentioned, in their
language; a non-admin is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from taskcore.services.penalties import MissedTick
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.devgateway.acts import Group
from tests.integration.household import BOT, GATEWAYS, Household, Person, household

pytestmark = pytest.mark.parametrize("gateway", GATEWAYS)

MAE = Person("Márcia", "5511987650001", None)  # São Paulo: the bot speaks Portuguese to them
PEDRO = Person("Pedro", "5511987650002", None)
TOM = Person("Tom", "447400123456", None)  # London: English
PRIYA = Person("Priya", "447400123457", None)
FAMILIA = Group("120363300000000030@g.us", "Família Souza",
                (BOT.member("pn"), MAE.member("pn", admin=True), PEDRO.member("pn")), "pn")
FLAT = Group("120363300000000040@g.us", "Flat 3B", (BOT.member("pn"), TOM.member("pn", admin=True),
                                                     PRIYA.member("pn")), "pn")


@pytest.fixture
async def house(sqlite_db: Database, gateway: str, tmp_path: Path) -> AsyncIterator[Household]:
    async with household(sqlite_db, gateway, tmp_path, groups=(FAMILIA, FLAT)) as running:
        yield running


async def asks(house: Household, who: Person, text: str, group: Group, *, mentioning: tuple[Person, ...] = (),
               needle: str = "") -> str:
    """``who`` writes ``text`` in ``group``; the bot's answer there that quotes it."""
    written = await house.says(who, text, group=group, mentioning=mentioning)
    answer = await house._first(lambda s: s.quoted == written.id and s.text is not None and needle in s.text)
    return answer.text or ""


def tick(house: Household, days: int, zone: str) -> int:
    """The chores tick's look for missed occurrences, ``days`` after now."""
    return units.run_batched(house.db, MissedTick(now=house.clock.now() + timedelta(days=days), zone=ZoneInfo(zone)))


async def test_a_brazilian_family_applies_a_missed_chore(house: Household) -> None:
    refused = await asks(house, PEDRO, "/t penalidade 2", FAMILIA)
    assert refused == (f"@{PEDRO.phone} Só um administrador do grupo (do WhatsApp) pode definir a penalidade.")
    assert await asks(house, MAE, "/t penalidade 2", FAMILIA) == (
        f"@{MAE.phone} Penalidade: 2 pontos por tarefa recorrente não feita a tempo. Não é descontada sozinha: fica "
        "em /t pendentes até um administrador aplicar ou desculpar.")
    await asks(house, MAE, f"/t nova varrer a sala !5 @{PEDRO.phone}", FAMILIA, mentioning=(PEDRO,))
    await asks(house, PEDRO, "/t feito 1", FAMILIA)
    await asks(house, MAE, f"/t nova lavar a louça cada dia @{PEDRO.phone}", FAMILIA, mentioning=(PEDRO,))
    assert tick(house, 0, "America/Sao_Paulo") == 0
    assert tick(house, 2, "America/Sao_Paulo") == 1
    assert tick(house, 2, "America/Sao_Paulo") == 0  # once
    pending = await asks(house, MAE, "/t pendentes", FAMILIA)
    assert pending.startswith(f"@{MAE.phone} 1 item aguardando a sua aprovação:")
    assert "⏰ Tarefas não feitas (aplicar a penalidade ou desculpar):\n• Falta 1: Pedro não fez #2 «lavar a louça» (" \
        in pending
    assert pending.endswith(", −2 pontos) → /t aplicar 1 · /t desculpar 1")
    assert (await asks(house, PEDRO, "/t aplicar 1", FAMILIA)).endswith(
        "Só um administrador do grupo (do WhatsApp) pode aplicar ou desculpar uma tarefa não feita.")
    written = await house.says(MAE, "/t aplicar 1", group=FAMILIA)
    told = await house._first(lambda s: s.quoted == written.id and s.text is not None)
    assert (told.text or "").startswith(f"@{MAE.phone} @{PEDRO.phone}, foi aplicada a penalidade por não fazer #2 "
                                        "«lavar a louça» (")
    assert (told.text or "").endswith("): −2 pontos.")
    assert PEDRO.jid("pn") in told.mentions
    assert (await asks(house, PEDRO, "/t pontos", FAMILIA)).startswith(f"@{PEDRO.phone} Você tem 3 pontos")


async def test_a_british_flatshare_excuses_a_missed_chore_with_a_reason(house: Household) -> None:
    assert await asks(house, PRIYA, "/t penalty", FLAT) == (
        f"@{PRIYA.phone} This group has no penalty for chores left undone. An admin sets one with /t penalty 2.")
    assert await asks(house, TOM, "/t penalty 1", FLAT) == (
        f"@{TOM.phone} Penalty: 1 point for each recurring chore not done on time. It isn't taken automatically: it "
        "waits in /t pending for an admin to apply or excuse it.")
    await asks(house, TOM, f"/t new take out the bins every day @{PRIYA.phone}", FLAT, mentioning=(PRIYA,))
    assert tick(house, 2, "Europe/London") == 1
    pending = await asks(house, TOM, "/t pending", FLAT)
    assert "• Missed 1: Priya didn't do #1 «take out the bins» (" in pending
    assert pending.endswith(", −1 point) → /t apply 1 · /t excuse 1")
    assert (await asks(house, PRIYA, "/t excuse 1", FLAT)).endswith(
        "Only a (WhatsApp) admin of the group can apply or excuse a missed chore.")
    excused = await asks(house, TOM, "/t excuse 1 she was away at her mum's", FLAT)
    assert excused.startswith(f"@{TOM.phone} @{PRIYA.phone}, you're excused for not doing #1 «take out the bins» (")
    assert excused.endswith("): no points are taken. Reason: she was away at her mum's")
    assert await asks(house, TOM, "/t apply 1", FLAT) == f"@{TOM.phone} Missed chore 1 was already excused."
    assert await asks(house, TOM, "/t pending", FLAT) == f"@{TOM.phone} Nothing is waiting for your approval."
