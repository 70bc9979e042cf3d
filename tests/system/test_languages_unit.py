"""Three languages in the real unit, installed from the wheel (SPEC section 24): a Brazilian number is answered in
Portuguese and a British one in English without any setting, each writes their own words, `/t idioma` switches,
and the web page a person opens from their link is in their language."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from tests.fakes.gateway import FakeGateway
from tests.system.chatting import say
from tests.system.unit import Unit, gateway_env, unit_env

BRAZIL, BRITAIN = "5511987654321", "447911123456"
WITHIN = 30.0


async def test_each_person_is_answered_in_their_language_and_their_page_too(tmp_path: Path) -> None:
    async with FakeGateway() as gateway:
        env = unit_env(tmp_path, **gateway_env(gateway.url))
        env["WEB_BASE_URL"] = f"http://127.0.0.1:{env['PORT']}"
        unit = Unit("run", env, tmp_path)
        await asyncio.to_thread(unit.start)
        try:
            async with aiohttp.ClientSession() as http:
                created = await say(http, unit, gateway, "/t nova comprar pão amanhã", "Tarefa #1 criada",
                                    sender=BRAZIL, within=WITHIN)
                assert created.startswith("Tarefa #1 criada: comprar pão (vence ")
                listed = await say(http, unit, gateway, "/t list", "open tasks", sender=BRITAIN, within=WITHIN)
                assert listed == "You have no open tasks."
                switched = await say(http, unit, gateway, "/t idioma es", "A partir de ahora", sender=BRITAIN,
                                     within=WITHIN)
                assert switched == "A partir de ahora te escribo en español."
                link = await say(http, unit, gateway, "/t web", "/login?token=", sender=BRAZIL, within=WITHIN)
                assert link.startswith("Seu link para entrar na web")
                jar, url = aiohttp.CookieJar(unsafe=True), link.rsplit("\n", 1)[1]
                async with aiohttp.ClientSession(cookie_jar=jar) as browser, browser.get(url) as page:
                    assert page.status == 200
                    assert page.headers["Content-Language"] == "pt"
                    html = await page.text()
                assert '<html lang="pt"' in html
                assert "comprar pão" in html
        finally:
            assert unit.stop() == 0
