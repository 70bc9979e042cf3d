"""A task's photo on the web (SPEC section 34): the task item's ``photo_required`` and ``proof`` (``{url, at,
state}``), the signed address that opens the image only for a member of the task's group (session or API token) and
only until it expires, a completion from the web refused while the photo is missing, the photo on the task's page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from taskcore.access import GatingMode
from taskcore.services import photo_intake, proof
from taskcore.services.tokens import create_api_token
from taskcore.storage.db import Database
from taskcore.storage.photo_files import PhotoFiles
from tasksvc_run import units
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

OUTSIDER = "34600000009"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


def photo_waiting(db: Database, data_dir: Path) -> int:
    """A task of GROUP created by OTHER for ME that needs a photo, with ME's photo kept and waiting."""
    task = make_task(db, creator=OTHER, group_id=GROUP, assignees=(ME,), description="Barrer")
    units.run(db, proof.set_photo_rule, GatingMode.ENFORCE, None, user_id=OTHER, task_id=task.id, required=True)
    sent = proof.PhotoMessage(ME, GROUP, GROUP, "PHOTO1", f"{ME}@s.whatsapp.net", None,
                              '{"key": {"id": "PHOTO1"}, "message": {"imageMessage": {}}}')
    units.run(db, proof.submit_photo, GatingMode.ENFORCE, task_id=task.id, photo=sent, now=NOW)
    [job] = units.run(db, photo_intake.claim_fetches, now=NOW)
    assert units.run(db, photo_intake.photo_arrived, PhotoFiles(data_dir), job, PNG,
                     rules=photo_intake.PhotoRules(1024),
                     now=NOW) == "kept"
    return task.id


@pytest.fixture
async def web(db: Database, tmp_path: Path) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, members=(ME, OTHER))
    make_group(db, "120363000000000009@g.us", members=(OUTSIDER,))
    async with web_env(db, DATA_DIR=str(tmp_path)) as env:
        yield env


async def item_of(web: WebEnv, task_id: int, user: str = ME) -> dict[str, object]:
    status, body = await web.call("GET", f"/api/groups/{GROUP}/tasks", user=user)
    assert status == 200
    check_documented(document(), "/api/groups/{id}/tasks", "get", status, body)
    return next(item for item in body["items"] if item["id"] == task_id)


async def fetch(web: WebEnv, url: str, user: str | None = ME,
                headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    sent = {**(web.session_for(user) if user else {}), **(headers or {})}
    async with web.client.get(url, headers=sent) as response:
        return response.status, response.content_type, await response.read()


async def test_the_task_item_carries_the_photo_rule_and_the_photo(web: WebEnv, tmp_path: Path) -> None:
    task_id = photo_waiting(web.db, tmp_path)
    item = await item_of(web, task_id)
    assert item["photo_required"] is True
    kept = item["proof"]
    assert isinstance(kept, dict)
    assert (kept["state"], kept["at"]) == ("waiting", "2026-11-22T10:00:00Z")
    assert str(kept["url"]).startswith(f"/api/tasks/{task_id}/proof?exp=")
    status, mine = await web.call("GET", "/api/me/tasks")  # the list's own fast path says the same
    assert status == 200
    check_documented(document(), "/api/me/tasks", "get", status, mine)
    [listed] = [entry for entry in mine["items"] if entry["id"] == task_id]
    assert (listed["photo_required"], listed["proof"]["state"]) == (True, "waiting")
    plain = make_task(web.db, creator=OTHER, group_id=GROUP)
    assert (await item_of(web, plain.id))["proof"] is None
    assert (await item_of(web, plain.id))["photo_required"] is False


async def test_the_photo_opens_for_a_member_and_for_nobody_else(web: WebEnv, tmp_path: Path) -> None:
    task_id = photo_waiting(web.db, tmp_path)
    url = str((await item_of(web, task_id))["proof"]["url"])  # type: ignore[index]
    assert await fetch(web, url) == (200, "image/png", PNG)
    assert (await fetch(web, url, OTHER))[0] == 200  # any member of the group, not only the assignee
    status, kind, _ = await fetch(web, url, OUTSIDER)
    assert (status, kind) == (404, "application/problem+json")
    assert (await fetch(web, url, None))[0] == 401
    token = units.run(web.db, create_api_token, user_id=ME, name="script", now=NOW).token
    assert (await fetch(web, url, None, {"Authorization": f"Bearer {token}"}))[:2] == (200, "image/png")
    outsider_token = units.run(web.db, create_api_token, user_id=OUTSIDER, name="x", now=NOW).token
    assert (await fetch(web, url, None, {"Authorization": f"Bearer {outsider_token}"}))[0] == 404


async def test_a_tampered_or_expired_address_opens_nothing(web: WebEnv, tmp_path: Path) -> None:
    task_id = photo_waiting(web.db, tmp_path)
    url = str((await item_of(web, task_id))["proof"]["url"])  # type: ignore[index]
    forged = url[:-4] + ("0000" if not url.endswith("0000") else "1111")
    assert (await fetch(web, forged))[:2] == (403, "application/problem+json")
    assert (await fetch(web, url.replace("exp=", "exp=1")))[0] == 403
    assert (await fetch(web, f"/api/tasks/{task_id}/proof"))[0] == 422
    assert (await fetch(web, f"/api/tasks/{task_id + 99}/proof?exp=1&sig={'0' * 64}"))[0] == 404
    web.clock.advance(timedelta(hours=2))
    assert (await fetch(web, url))[0] == 403


async def test_a_rejected_photo_s_address_opens_nothing_and_its_file_is_gone(web: WebEnv, tmp_path: Path) -> None:
    task_id = photo_waiting(web.db, tmp_path)
    url = str((await item_of(web, task_id))["proof"]["url"])  # type: ignore[index]
    units.run(web.db, proof.reject_photo, GatingMode.ENFORCE, PhotoFiles(tmp_path), user_id=OTHER, task_id=task_id)
    assert list((tmp_path / "photos").iterdir()) == []
    assert (await fetch(web, url))[0] == 404
    assert (await item_of(web, task_id))["proof"] is None


async def test_the_web_does_not_complete_a_task_that_waits_for_its_photo(web: WebEnv, tmp_path: Path) -> None:
    task_id = photo_waiting(web.db, tmp_path)
    status, body = await web.call("POST", f"/api/tasks/{task_id}/complete")
    assert (status, body["type"]) == (409, "about:blank#photo-required")
    check_documented(document(), "/api/tasks/{id}/complete", "post", status, body)
    assert "foto" in body["detail"]


async def test_the_group_page_shows_the_photo_to_members(web: WebEnv, tmp_path: Path) -> None:
    task_id = photo_waiting(web.db, tmp_path)
    async with web.client.get(f"/grupos/{GROUP}", headers=web.session_for(ME)) as response:
        page = await response.text()
    assert response.status == 200
    assert f'<img src="/api/tasks/{task_id}/proof?exp=' in page
    assert "Foto esperando aprobación" in page


def test_the_document_describes_the_photo_route_and_the_item_s_proof() -> None:
    operation = document()["paths"]["/api/tasks/{id}/proof"]["get"]
    assert "image/*" in operation["responses"]["200"]["content"]
    assert {param["name"] for param in operation["parameters"]} == {"id", "exp", "sig"}
    item = document()["components"]["schemas"]["TaskItem"]["properties"]
    assert {"photo_required", "proof"} <= set(item)
