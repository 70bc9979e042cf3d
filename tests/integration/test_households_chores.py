"""SPEC section 41's checklists and seasons, driven through the chat as two households run them, on each gateway
(the fakes of Evolution API and WAHA, through the real bot): a Brazilian family in Portuguese and a British flatshare
in English, each person's language their number's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from taskcore.storage.db import Database
from tasksvc_run.devgateway.acts import Group
from tests.chat_support import task_rows
from tests.integration.household import BOT, GATEWAYS, Household, Person, household

pytestmark = pytest.mark.parametrize("gateway", GATEWAYS)

LUCIA = Person("Lúcia", "5511987650001", "198700000000101")
MARCOS = Person("Marcos", "5511987650002", "198700000000102")
PEDRO = Person("Pedro", "5521987650003", "198700000000103")
SOUZA = Group("120363300000000031@g.us", "Família Souza", tuple(p.member("pn") for p in (BOT, LUCIA, MARCOS, PEDRO)),
              "pn")
TOM = Person("Tom", "447911123456", "198700000000201")
PRIYA = Person("Priya", "447911123457", "198700000000202")
SAM = Person("Sam", "447911123458", "198700000000203")
FLAT = Group("120363300000000032@g.us", "Flat 3B", tuple(p.member("lid") for p in (BOT, TOM, PRIYA, SAM)), "lid")


@pytest.fixture
async def house(sqlite_db: Database, gateway: str, tmp_path: Path) -> AsyncIterator[Household]:
    async with household(sqlite_db, gateway, tmp_path, groups=(SOUZA, FLAT)) as running:
        yield running


async def _says(house: Household, who: Person, text: str, needle: str, group: Group, **kw: object) -> str:
    """What the bot answered ``who`` (the first text after theirs that holds ``needle``)."""
    before = len(house.sent(group.id))
    await house.says(who, text, group=group, **kw)  # type: ignore[arg-type]
    said = await house.bot_says(needle, chat=group.id)
    assert said in house.sent(group.id)[before:]
    return str(said.text)


async def test_a_brazilian_family_keeps_a_checklist_and_a_seasonal_chore_in_portuguese(house: Household) -> None:
    made = await _says(house, LUCIA, "/t nova limpar a cozinha: bancada, fogão, geladeira", "Tarefa #1", SOUZA)
    assert made == (f"@{LUCIA.phone} Tarefa #1 criada: limpar a cozinha. Sem responsável\n"
                    "☐ 1 bancada\n☐ 2 fogão\n☐ 3 geladeira")
    created = await house.bot_says("Tarefa #1 criada", chat=SOUZA.id)
    reply = await _says(house, PEDRO, "2 feito", "1 de 3", SOUZA, replying_to=created)  # a reply to the bot's message
    assert reply == f"@{PEDRO.phone} Tarefa #1: 1 de 3 feitos.\n☐ 1 bancada\n☑ 2 fogão\n☐ 3 geladeira"
    added = await _says(house, MARCOS, "/t adicionar 1 forno", "adicionado", SOUZA)
    assert added == (f"@{MARCOS.phone} Tarefa #1: 1 item adicionado.\n"
                     "☐ 1 bancada\n☑ 2 fogão\n☐ 3 geladeira\n☐ 4 forno")
    removed = await _says(house, MARCOS, "/t remover 1 4", "removido", SOUZA)
    assert removed == f"@{MARCOS.phone} Tarefa #1: item 4 removido.\n☐ 1 bancada\n☑ 2 fogão\n☐ 3 geladeira"
    ticked = await _says(house, PEDRO, "/t x 1.1", "2 de 3", SOUZA)
    assert ticked == f"@{PEDRO.phone} Tarefa #1: 2 de 3 feitos.\n☑ 1 bancada\n☑ 2 fogão\n☐ 3 geladeira"
    done = await _says(house, PEDRO, "/t x 1.3", "concluída", SOUZA)
    assert done == f"@{PEDRO.phone} Tarefa #1 concluída: limpar a cozinha"  # the last item completes the task
    assert task_rows(house.db)[0].completed
    season = await _says(house, LUCIA, "/t nova regar as plantas toda segunda de abril a setembro, a cada 2 semanas o "
                         "resto", "Tarefa #2", SOUZA)
    assert season.startswith(f"@{LUCIA.phone} Tarefa #2 criada: regar as plantas (vence ")
    assert season.endswith(") ↻ a cada segunda-feira de abril a setembro, a cada 2 semanas o resto. Sem responsável")
    assert task_rows(house.db)[1].recurrence_rule == ("FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9\n"
                                                      "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYMONTH=1,2,3,10,11,12")
    refused = await _says(house, MARCOS, "/t remover 2 1", "não tem lista", SOUZA)
    assert refused == f"@{MARCOS.phone} A tarefa #2 não tem lista."


async def test_a_british_flatshare_keeps_a_checklist_and_a_seasonal_chore_in_english(house: Household) -> None:
    made = await _says(house, TOM, "/t new clean the bathroom: sink, shower, floor", "Task #1", FLAT)
    assert made == f"@{TOM.lid} Task #1 created: clean the bathroom. Unassigned\n☐ 1 sink\n☐ 2 shower\n☐ 3 floor"
    created = await house.bot_says("Task #1 created", chat=FLAT.id)
    reply = await _says(house, PRIYA, "1 done", "1 of 3", FLAT, replying_to=created)
    assert reply == f"@{PRIYA.lid} Task #1: 1 of 3 done.\n☑ 1 sink\n☐ 2 shower\n☐ 3 floor"
    added = await _says(house, PRIYA, "/t add 1 mirror", "added", FLAT)
    assert added == f"@{PRIYA.lid} Task #1: 1 item added.\n☑ 1 sink\n☐ 2 shower\n☐ 3 floor\n☐ 4 mirror"
    removed = await _says(house, SAM, "/t remove 1 2", "removed", FLAT)
    assert removed == f"@{SAM.lid} Task #1: item 2 removed.\n☑ 1 sink\n☐ 2 floor\n☐ 3 mirror"
    listed = await _says(house, SAM, "/t list", "Open tasks", FLAT)
    assert listed == (f"@{SAM.lid} Open tasks (1):\n#1 clean the bathroom · unassigned\n"
                      "   ☑ 1 sink · ☐ 2 floor · ☐ 3 mirror (1/3)")
    done = await _says(house, SAM, "/t done 1", "completed", FLAT)  # its own done word ticks the rest
    assert done == f"@{SAM.lid} Task #1 completed: clean the bathroom"
    season = await _says(house, TOM, "/t new mow the lawn every Saturday from April to September, every 2 weeks the "
                         "rest", "Task #2", FLAT)
    assert season.startswith(f"@{TOM.lid} Task #2 created: mow the lawn (due ")
    assert season.endswith(") ↻ every Saturday from April to September, every 2 weeks the rest. Unassigned")
    refused = await _says(house, PRIYA, "/t x 2.5", "has no list", FLAT)
    assert refused == f"@{PRIYA.lid} Task #2 has no list."
    missing = await _says(house, PRIYA, "/t add 1", "missing", FLAT)
    assert missing == f"@{PRIYA.lid} The item is missing.\nUsage: /t add <id> <item>[, <item>...]"
