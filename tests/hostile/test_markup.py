"""Markup in data on every page: group names (from the gateway's groups.upsert), people's names (pushName), task
descriptions (as chat keeps them, and raw markup written straight into the database, as an older release or another
client could have), the search box and the URL. Every page shows them escaped and carries the strict CSP.
The browser side (no script runs, the text shows as typed) is tests/hostile/test_markup_browser.py.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.hostile.conftest import Running
from tests.hostile.markup import GROUP_NAME, HOSTILE_GROUP, PERSON_NAME, RAW_PIECES, SEARCH

PAGES = {
    "Mis tareas": "/",
    "Mis tareas, completed": "/?status=recent",
    "Mis tareas, a hostile search": f"/?search={quote(SEARCH)}",
    "Grupos": "/grupos",
    "one group": f"/grupos/{quote(HOSTILE_GROUP)}",
    "Recordatorios": "/recordatorios",
}


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_every_page_shows_data_escaped_and_carries_the_strict_csp(running: Running, marked: str, path: str) -> None:
    answer = running.request("GET", path, headers={"Cookie": marked})
    page = answer.body.decode()
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    for piece in RAW_PIECES:
        assert piece not in page, (path, piece)


def test_the_task_list_shows_each_hostile_value_as_text(running: Running, marked: str) -> None:
    page = running.request("GET", "/?limit=100", headers={"Cookie": marked}).body.decode()
    assert "a &lt; b &gt; c &amp; &#39;e&#39; marcador-chat" in page
    assert ("&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;b onmouseover=&#34;window.pwned=1&#34;&gt;marcador-db"
            in page)
    assert "&lt;img src=x onerror=&#34;window.pwned=1&#34;&gt;Obra &amp; &#34;Co&#34;" in page
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;Ana" in page


def test_the_search_box_gives_back_what_was_searched_as_text(running: Running, marked: str) -> None:
    page = running.request("GET", PAGES["Mis tareas, a hostile search"], headers={"Cookie": marked}).body.decode()
    assert 'value="&#34;&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;"' in page


def test_the_groups_pages_show_the_group_name_as_text(running: Running, marked: str) -> None:
    for path in (PAGES["Grupos"], PAGES["one group"]):
        page = running.request("GET", path, headers={"Cookie": marked}).body.decode()
        assert "&lt;img src=x onerror=&#34;window.pwned=1&#34;&gt;Obra &amp; &#34;Co&#34;" in page, path


@pytest.mark.parametrize("path", [f"/grupos/{quote(SEARCH)}", f"/{quote(SEARCH)}", f"/login?token={quote(SEARCH)}",
                                  f"/static/{quote(SEARCH)}"])
def test_error_pages_never_echo_markup_from_the_url(running: Running, marked: str, path: str) -> None:
    answer = running.request("GET", path, headers={"Cookie": marked})
    assert 400 <= answer.status < 500
    for piece in RAW_PIECES:
        assert piece.encode() not in answer.body


def test_the_api_returns_the_values_as_json_data_never_as_html(running: Running, marked: str) -> None:
    answer = running.request("GET", "/api/me/tasks?limit=100", headers={"Cookie": marked})
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["x-content-type-options"] == "nosniff"
    items = answer.json()["items"]
    assert GROUP_NAME in {item["group_name"] for item in items}
    assert PERSON_NAME in {person["name"] for item in items for person in item["assignees"]}
