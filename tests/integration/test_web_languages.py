"""The web in three languages (SPEC section 24): pages in the signed-in person's language or the visitor's
Accept-Language, problem details in the request's language, ``lang`` in the preferences, the calendar feed in its
owner's language; Spanish stays as it was."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from typing import Any

import pytest

from taskcore.services.calendar import issue_calendar_feed
from taskcore.services.languages import choose_language
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, WebEnv, web_env

BRAZILIAN = "5511987654321"
ENGLISH = "34600000009"  # a Spanish number that chose English
PREFS = "/api/me/preferences"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Família", members=(ME, BRAZILIAN, ENGLISH))
    units.run(db, choose_language, user_id=ENGLISH, lang="en", default="es", now=NOW)
    async with web_env(db) as env:
        yield env


async def get(web: WebEnv, path: str, user: str | None = None, **headers: str) -> tuple[int, str, Any]:
    sent = {**(web.session_for(user) if user else {}), **headers}
    async with web.client.get(path, headers=sent, allow_redirects=False) as response:
        return response.status, await response.text(), response.headers


async def test_a_signed_in_brazilian_gets_the_pages_in_portuguese(web: WebEnv) -> None:
    make_task(web.db, creator=BRAZILIAN, group_id=GROUP, description="Comprar pão", due="2026-11-20",
              assignees=(BRAZILIAN,))
    status, html, headers = await get(web, "/", BRAZILIAN, **{"Accept-Language": "en"})
    assert (status, headers["Content-Language"]) == (200, "pt")
    assert '<html lang="pt">' in html
    assert "<h1>Minhas tarefas</h1>" in html
    assert "Vence em 20/11" in html
    assert "1 tarefa" in html
    assert ">Lembretes<" in html
    assert "Mis tareas" not in html


async def test_the_preferences_page_offers_the_languages_in_the_persons_language(web: WebEnv) -> None:
    status, html, _ = await get(web, "/recordatorios", BRAZILIAN)
    assert status == 200
    assert "<h1>Lembretes</h1>" in html
    assert "Todo dia" in html
    assert '<select id="lang" name="lang"' in html
    assert '<option value="" selected>Automático' in html
    assert '<option value="en" lang="en">English</option>' in html


@pytest.mark.parametrize("accept", ["en-GB,en;q=0.9,es;q=0.5", "fr, en-GB;q=0.8"])
async def test_a_visitor_gets_the_accept_language(web: WebEnv, accept: str) -> None:
    status, html, headers = await get(web, "/", **{"Accept-Language": accept})
    assert (status, headers["Content-Language"]) == (200, "en")
    assert '<html lang="en">' in html
    assert "Your tasks, on your phone" in html
    status, html, _ = await get(web, "/login?token=nope", **{"Accept-Language": accept})
    assert status == 401
    assert "This link no longer works" in html
    assert "<title>Invalid link" in html


@pytest.mark.parametrize(("accept", "lang"), [("pt-PT", "pt"), ("pt-BR,pt;q=0.9", "pt"), ("fr", "es"), ("", "es"),
                                              ("en;q=0, pt;q=0.5", "pt")])
async def test_a_visitor_without_one_of_our_languages_gets_the_default(web: WebEnv, accept: str, lang: str) -> None:
    _, html, headers = await get(web, "/", **{"Accept-Language": accept})
    assert headers["Content-Language"] == lang
    assert f'<html lang="{lang}">' in html


async def test_spanish_pages_are_as_they_were(web: WebEnv) -> None:
    _, html, headers = await get(web, "/", ME)
    assert headers["Content-Language"] == "es"
    assert '<html lang="es">' in html
    assert "<h1>Mis tareas</h1>" in html


async def test_a_problem_is_in_the_english_users_language(web: WebEnv) -> None:
    status, body = await web.call("POST", PREFS, user=ENGLISH, json={"freq": "often"})
    assert status == 422
    assert (body["title"], body["detail"]) == ("Unprocessable Entity", "Some data is not valid.")
    assert body["errors"][0]["field"] == "freq"
    assert body["errors"][0]["message"].startswith("value not allowed; expected 'off'")


@pytest.mark.parametrize(("path", "body", "field", "spanish", "english"), [
    (PREFS, {"freq": "daily", "quiet": {"from": "22:00", "to": "22:00"}}, "quiet",
     "las horas de silencio no pueden empezar y acabar a la misma hora",
     "quiet hours cannot start and end at the same time"),
    (PREFS, {"freq": "daily", "quiet": {"from": "25:00", "to": "07:00"}}, "quiet.from",
     "debe ser una hora, como 18:30, 18h, 6:30 pm o a las 18",
     "must be a time, such as 6:30 pm, 18:30, 18h or at 6 pm"),
    (PREFS, {"freq": "daily", "tz": "Mars/Olympus"}, "tz",
     "zona horaria desconocida: «Mars/Olympus»; escribe una ciudad grande de tu zona (Bogota, Madrid) o una zona "
     "como America/Bogota",
     "unknown time zone: «Mars/Olympus»; write a big city in your zone (New York, London) or a zone like "
     "America/New_York"),
    ("/api/tasks", {"description": "Comprar pan", "group_id": GROUP, "assignees": ME}, "assignees",
     "debe ser una lista", "must be a list"),
])
async def test_each_field_message_is_in_the_users_language(  # noqa: PLR0917 - one row of the table each
    web: WebEnv, path: str, body: dict[str, Any], field: str, spanish: str, english: str,
) -> None:
    """Not only the title and detail: what each field's message says comes from the catalogs too, whether pydantic
    or taskcore's rules refused it."""
    for user, expected in ((ME, spanish), (ENGLISH, english)):
        status, problem = await web.call("POST", path, user=user, json=body)
        assert (status, problem["errors"]) == (422, [{"field": field, "message": expected}])


async def test_a_problem_for_a_visitor_is_in_the_accept_language(web: WebEnv) -> None:
    status, body = await web.call("GET", "/api/me/tasks", user=None, headers={"Accept-Language": "pt-BR"})
    assert status == 401
    assert body["type"] == "about:blank#unauthorized"
    assert (body["title"], body["detail"]) == ("Não autorizado",
                                              "Você precisa entrar: escreva /t web numa conversa com o bot.")


async def test_a_spanish_problem_is_as_it_was(web: WebEnv) -> None:
    status, body = await web.call("POST", PREFS, json={"freq": "often"})
    assert (status, body["title"], body["detail"]) == (422, "Datos no válidos", "Hay datos no válidos.")


async def test_preferences_answer_and_choose_the_language(web: WebEnv) -> None:
    assert (await web.call("GET", PREFS, user=BRAZILIAN))[1]["lang"] == "pt"
    status, body = await web.call("POST", PREFS, user=BRAZILIAN, json={"freq": "daily", "lang": "en"})
    assert (status, body["lang"], body["freq"]) == (200, "en", "daily")
    assert (await web.call("GET", PREFS, user=BRAZILIAN))[1]["lang"] == "en"
    _, html, _ = await get(web, "/", BRAZILIAN)
    assert "<h1>My tasks</h1>" in html  # the choice is in force at once in this process
    kept = await web.call("POST", PREFS, user=BRAZILIAN, json={"freq": "off"})
    assert kept[1]["lang"] == "en"
    forgotten = await web.call("POST", PREFS, user=BRAZILIAN, json={"freq": "off", "lang": None})
    assert forgotten[1]["lang"] == "pt"  # back to the number's country's


@pytest.mark.parametrize("lang", ["fr", "PT", "", 1])
async def test_another_language_is_a_422_naming_the_field(web: WebEnv, lang: object) -> None:
    status, body = await web.call("POST", PREFS, json={"freq": "daily", "lang": lang})
    assert (status, [error["field"] for error in body["errors"]]) == (422, ["lang"])
    assert (await web.call("GET", PREFS))[1]["lang"] == "es"


async def test_the_calendar_feed_is_in_its_owners_language(web: WebEnv) -> None:
    make_task(web.db, creator=BRAZILIAN, group_id=GROUP, due="2026-11-20", assignees=(BRAZILIAN,))
    token = units.run(web.db, issue_calendar_feed, user_id=BRAZILIAN, now=NOW)
    status, _, headers = await get(web, f"/cal/{token}.ics", **{"Accept-Language": "en"})
    assert (status, headers["Content-Language"]) == (200, "pt")
    assert headers["ETag"].endswith('-pt"')


class _Body(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.texts = json.loads(dict(attrs)["data-texts"] or "{}")


@pytest.mark.parametrize(("user", "saving"), [(BRAZILIAN, "Salvando…"), (ME, "Guardando…"), (ENGLISH, "Saving…")])
async def test_the_page_carries_the_scripts_texts_in_its_language(web: WebEnv, user: str, saving: str) -> None:
    _, html, _ = await get(web, "/", user)
    body = _Body()
    body.feed(html)
    assert body.texts["saving"] == saving
    assert "{date}" in body.texts["due"]
    assert "{name}" in body.texts["tokenConfirm"]
