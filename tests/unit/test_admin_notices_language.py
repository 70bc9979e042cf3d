"""Direct messages to the admins outside the chat (the watchdog's notices, a discovered group's) in each admin's
language (SPEC sections 24 and 26): Spanish, Portuguese for a Brazilian number, English for a British one."""

from __future__ import annotations

import json
from datetime import timedelta
from functools import partial

from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.gateway.port import GatewayGroup
from taskcore.services import alerts
from taskcore.services.languages import choose_language
from taskcore.services.sync import apply_fetched_groups
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue
from tasksvc_run import units
from tests.builders import NOW

SPANISH, BRAZILIAN, BRITISH = "34600000001", "5511987654321", "447911123456"
ADMINS = (SPANISH, BRAZILIAN, BRITISH)


def sent(db: Database) -> dict[str, str]:
    with db.read() as conn:
        rows = conn.execute(select(outbound_queue)).all()
    return {row.chat_id.split("@")[0]: json.loads(row.payload)["text"] for row in rows}


def test_an_outage_notice_reaches_each_admin_in_their_language(db: Database) -> None:
    assert units.run(db, alerts.notify_admins, ADMINS, alerts.delivery_down, key="down:1", max_attempts=3, now=NOW) == 3
    texts = sent(db)
    assert texts[SPANISH].startswith("⚠️ El bot no recibe los mensajes del grupo")
    assert texts[BRAZILIAN].startswith("⚠️ O bot não está recebendo as mensagens do grupo")
    assert texts[BRITISH].startswith("⚠️ The bot is not receiving the group's messages")


def test_a_recovery_notice_keeps_its_numbers_in_every_language(db: Database) -> None:
    text = partial(alerts.connection_back, timedelta(hours=3, minutes=5), 4)
    units.run(db, alerts.notify_admins, ADMINS, text, key="back:1", max_attempts=3, now=NOW)
    texts = sent(db)
    assert texts[SPANISH] == ("✅ WhatsApp vuelve a estar conectado tras 3 h 5 min sin conexión. "
                              "Mensajes que salen ahora con retraso: 4.")
    assert texts[BRITISH] == "✅ WhatsApp is connected again after 3 h 5 min offline. Messages now going out late: 4."
    assert "3 h 5 min sem conexão" in texts[BRAZILIAN]


def test_an_admins_chosen_language_and_the_default_decide_before_and_after_the_number(db: Database) -> None:
    units.run(db, choose_language, user_id=BRAZILIAN, lang="en", default="es", now=NOW)
    units.run(db, alerts.notify_admins, (BRAZILIAN, "99912345"), partial(alerts.delivery_back, timedelta(minutes=12)),
              key="back:2", max_attempts=3, now=NOW, default_language="pt")
    texts = sent(db)
    assert texts[BRAZILIAN] == "✅ The bot is receiving messages again (none arrived for 12 min)."
    assert texts["99912345"] == "✅ O bot voltou a receber mensagens (ficou 12 min sem receber)."


def test_a_discovered_group_is_announced_to_each_admin_in_their_language(db: Database) -> None:
    group = GatewayGroup(id="120363000000000009@g.us", subject="Casa", linked_parent=None, is_community=False,
                         is_community_announce=False)
    outcome = units.run(db, apply_fetched_groups, GatingMode.DISCOVER, [group], community_id=None, admins=ADMINS,
                        notify_admins=True, max_attempts=3, now=NOW)
    assert outcome.notices == 3
    texts = sent(db)
    assert texts[SPANISH].startswith("Nuevo grupo detectado: «Casa» (120363000000000009@g.us). Queda pendiente")
    assert texts[BRAZILIAN].startswith("Novo grupo detectado: «Casa» (120363000000000009@g.us). Fica pendente")
    assert texts[BRITISH].endswith("To block it: /admin bloquear 120363000000000009@g.us")
