"""The gateway's licence (SPEC section 31): every web page's footer names Evolution API and links its licence, in the
reader's language."""

from __future__ import annotations

import pytest

from taskcore.storage.db import Database
from tests.builders import make_group
from tests.integration.web_helpers import GROUP, ME, OTHER, web_env

LICENCE = "https://github.com/EvolutionAPI/evolution-api/blob/main/LICENSE"


@pytest.mark.parametrize(("language", "words"), [
    ("es-ES", "Los mensajes de WhatsApp pasan por Evolution API"),
    ("pt-BR", "As mensagens de WhatsApp passam pela Evolution API"),
    ("en-GB", "WhatsApp messages go through Evolution API"),
])
async def test_the_home_page_names_the_gateway_and_links_its_licence(db: Database, language: str, words: str) -> None:
    async with web_env(db) as web, web.client.get("/", headers={"Accept-Language": language}) as response:
        html = await response.text()
    assert words in html
    assert f'href="{LICENCE}"' in html


async def test_every_signed_in_page_has_the_notice(db: Database) -> None:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as web:
        for path in ("/", "/grupos", f"/grupos/{GROUP}", "/recordatorios", "/calendario", "/tokens"):
            async with web.client.get(path, headers=web.session_for(ME)) as response:
                html = await response.text()
            assert (response.status, f'href="{LICENCE}"' in html) == (200, True), path
            assert "Los mensajes de WhatsApp pasan por Evolution API" in html
