"""The JSON API's reads and preferences over a real database (seed section 4, SPEC section 6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from taskcore.access import GatingMode
from taskcore.services import tasks as svc
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

OTHER_GROUP = "120363000000000002@g.us"
# +34 lists Madrid and the Canaries: Spain's main zone, from the number
MADRID = {"tz": "Europe/Madrid", "tz_source": "phone",  # a +34 number: its prefix says Spain (SPEC 30)
           "lang": "es", "quiet": None, "away_until": None}


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


def descriptions(body: dict[str, Any]) -> list[str]:
    return [item["description"] for item in body["items"]]


class TestMyTasks:
    async def test_open_tasks_come_in_the_list_shape_with_every_item_field(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-11-30")
        status, body = await web.call("GET", "/api/me/tasks")
        assert status == 200
        assert body == {"items": [{
            "id": task.id, "description": "Comprar pan", "due_date": "2026-11-30", "group_id": GROUP,
            "group_name": "Familia", "completion": "any",
            "assignees": [{"id": web.pid(ME), "name": None, "done": False, "done_at": None}],
            "created_by": web.pid(OTHER),
            "created_at": "2026-11-22T10:00:00Z", "completed": False, "completed_at": None, "completed_by": None,
            "recurrence": None, "points": 1, "nag": None, "photo_required": False, "proof": None, "items": [],
        }], "page": 1, "limit": 20, "total": 1, "hasMore": False}

    async def test_mine_means_assigned_to_me_or_personal_and_created_by_me(self, web: WebEnv) -> None:
        make_task(web.db, creator=ME, group_id=GROUP, description="sin asignar")
        make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), description="asignada")
        make_task(web.db, creator=ME, group_id=None, description="personal")
        make_task(web.db, creator=OTHER, group_id=None, description="de otro")
        _, body = await web.call("GET", "/api/me/tasks")
        assert sorted(descriptions(body)) == ["asignada", "personal"]

    async def test_open_tasks_are_ordered_by_due_date_with_undated_last(self, web: WebEnv) -> None:
        for name, due in (("sin fecha", None), ("tarde", "2026-12-20"), ("pronto", "2026-11-23")):
            make_task(web.db, creator=ME, group_id=None, description=name, due=due)
        _, body = await web.call("GET", "/api/me/tasks")
        assert descriptions(body) == ["pronto", "tarde", "sin fecha"]

    async def test_pages_carry_the_total_and_whether_more_follow(self, web: WebEnv) -> None:
        for n in range(3):
            make_task(web.db, creator=ME, group_id=None, description=f"t{n}", due=f"2026-12-0{n + 1}")
        _, body = await web.call("GET", "/api/me/tasks?page=2&limit=1")
        assert (descriptions(body), body["page"], body["limit"], body["total"], body["hasMore"]) == (
            ["t1"], 2, 1, 3, True)
        _, last = await web.call("GET", "/api/me/tasks?page=3&limit=1")
        assert last["hasMore"] is False

    @pytest.mark.parametrize(("query", "limit", "page"), [
        ("limit=1000", 100, 1), ("limit=0", 1, 1), ("limit=-4", 1, 1), ("page=0", 20, 1), ("page=-3", 20, 1)])
    async def test_limit_and_page_are_clamped(self, web: WebEnv, query: str, limit: int, page: int) -> None:
        status, body = await web.call("GET", f"/api/me/tasks?{query}")
        assert (status, body["limit"], body["page"]) == (200, limit, page)

    @pytest.mark.parametrize(("query", "field"), [
        ("page=abc", "page"), ("limit=x", "limit"), ("soonDays=-1", "soonDays"), ("soonDays=pronto", "soonDays"),
        ("dueBefore=22-11-2026", "dueBefore"), ("dueBefore=2026-02-30", "dueBefore"), ("status=done", "status"),
        ("soonDays=99999999", "soonDays")])
    async def test_a_bad_query_value_is_a_422_naming_the_field(self, web: WebEnv, query: str, field: str) -> None:
        status, body = await web.call("GET", f"/api/me/tasks?{query}")
        assert status == 422
        assert [error["field"] for error in body["errors"]] == [field]

    async def test_recent_lists_my_tasks_completed_in_the_last_24_hours_newest_first(self, web: WebEnv) -> None:
        old, newer, newest = (make_task(web.db, creator=ME, group_id=None, description=d) for d in "abc")
        for task, hours in ((old, 30), (newer, 5), (newest, 1)):
            units.run(web.db, svc.complete_task, GatingMode.ENFORCE, user_id=ME, task_id=task.id,
                      now=NOW - timedelta(hours=hours))
        _, body = await web.call("GET", "/api/me/tasks?status=recent")
        assert descriptions(body) == ["c", "b"]
        assert body["items"][0]["completed"] is True
        assert body["items"][0]["completed_at"] == "2026-11-22T09:00:00Z"

    async def test_search_matches_percent_and_underscore_literally_ignoring_case(self, web: WebEnv) -> None:
        for text in ("Descuento 50% YA", "50 euros", "a_b", "axb"):
            make_task(web.db, creator=ME, group_id=None, description=text)
        _, percent = await web.call("GET", "/api/me/tasks", params={"search": "50% ya"})
        _, underscore = await web.call("GET", "/api/me/tasks", params={"search": "a_b"})
        assert (descriptions(percent), descriptions(underscore)) == (["Descuento 50% YA"], ["a_b"])

    async def test_due_before_and_soon_days_keep_dated_tasks_up_to_the_limit(self, web: WebEnv) -> None:
        for name, due in (("vencida", "2026-11-01"), ("en 3 días", "2026-11-25"), ("lejos", "2026-12-30"),
                          ("sin fecha", None)):
            make_task(web.db, creator=ME, group_id=None, description=name, due=due)
        _, soon = await web.call("GET", "/api/me/tasks?soonDays=3")
        _, before = await web.call("GET", "/api/me/tasks?dueBefore=2026-11-24")
        assert (descriptions(soon), descriptions(before)) == (["vencida", "en 3 días"], ["vencida"])

    async def test_tasks_of_a_group_that_is_not_allowed_are_not_listed(self, web: WebEnv) -> None:
        make_group(web.db, OTHER_GROUP, status="pending", members=(ME,))
        make_task(web.db, creator=OTHER, group_id=OTHER_GROUP, assignees=(ME,))
        _, body = await web.call("GET", "/api/me/tasks")
        assert body["total"] == 0


class TestGroups:
    async def test_my_groups_are_the_allowed_ones_where_i_am_active_with_counts(self, web: WebEnv) -> None:
        make_group(web.db, OTHER_GROUP, status="blocked", members=(ME,))
        make_group(web.db, "120363000000000003@g.us", members=(OTHER,), inactive=(ME,))
        make_task(web.db, creator=OTHER, group_id=GROUP)
        make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(OTHER,))
        status, body = await web.call("GET", "/api/me/groups")
        assert status == 200
        assert body == {"items": [{"id": GROUP, "name": "Familia", "active": True,
                                   "counts": {"open": 2, "unassigned": 1}}]}

    async def test_group_tasks_are_open_tasks_by_due_date_unassigned_first_on_request(self, web: WebEnv) -> None:
        make_task(web.db, creator=OTHER, group_id=GROUP, description="asignada", assignees=(OTHER,), due="2026-11-23")
        make_task(web.db, creator=OTHER, group_id=GROUP, description="libre", due="2026-12-01")
        _, by_date = await web.call("GET", f"/api/groups/{GROUP}/tasks")
        _, first = await web.call("GET", f"/api/groups/{GROUP}/tasks?unassignedFirst=true")
        _, only = await web.call("GET", f"/api/groups/{GROUP}/tasks?onlyUnassigned=1")
        assert descriptions(by_date) == ["asignada", "libre"]
        assert descriptions(first) == ["libre", "asignada"]
        assert descriptions(only) == ["libre"]

    async def test_the_group_id_may_be_url_encoded(self, web: WebEnv) -> None:
        make_task(web.db, creator=OTHER, group_id=GROUP)
        status, body = await web.call("GET", f"/api/groups/{GROUP.replace('@', '%40')}/tasks")
        assert (status, body["total"]) == (200, 1)

    async def test_group_tasks_default_to_50_and_clamp_the_limit(self, web: WebEnv) -> None:
        _, default = await web.call("GET", f"/api/groups/{GROUP}/tasks")
        _, clamped = await web.call("GET", f"/api/groups/{GROUP}/tasks?limit=500")
        assert (default["limit"], clamped["limit"]) == (50, 100)

    @pytest.mark.parametrize(("query", "field"), [("unassignedFirst=yes", "unassignedFirst"),
                                                  ("onlyUnassigned=2", "onlyUnassigned"), ("limit=many", "limit")])
    async def test_a_bad_group_query_value_is_a_422_naming_the_field(self, web: WebEnv, query: str,
                                                                      field: str) -> None:
        status, body = await web.call("GET", f"/api/groups/{GROUP}/tasks?{query}")
        assert (status, [e["field"] for e in body["errors"]]) == (422, [field])

    @pytest.mark.parametrize(("status_", "members", "inactive"), [
        ("allowed", (OTHER,), ()), ("allowed", (OTHER,), (ME,)), ("pending", (ME,), ()), ("blocked", (ME,), ()),
        (None, (ME,), ())])
    async def test_group_tasks_are_forbidden_unless_allowed_and_an_active_member(
        self, web: WebEnv, status_: str | None, members: tuple[str, ...], inactive: tuple[str, ...],
    ) -> None:
        make_group(web.db, OTHER_GROUP, status=status_, members=members, inactive=inactive)
        status, body = await web.call("GET", f"/api/groups/{OTHER_GROUP}/tasks")
        assert (status, body["status"]) == (403, 403)

    async def test_a_malformed_group_id_fails_gating_like_an_unknown_group(self, web: WebEnv) -> None:
        status, _ = await web.call("GET", "/api/groups/not-a-group/tasks")
        assert status == 403


class TestPreferences:
    async def test_without_a_saved_preference_reminders_are_off_at_0830(self, web: WebEnv) -> None:
        assert await web.call("GET", "/api/me/preferences") == (200, {"freq": "off", "time": "08:30", **MADRID})

    async def test_saving_normalises_the_time_and_reads_back(self, web: WebEnv) -> None:
        saved = await web.call("POST", "/api/me/preferences", json={"freq": "weekdays", "time": "7:5"})
        assert saved == (200, {"freq": "weekdays", "time": "07:05", **MADRID})
        assert await web.call("GET", "/api/me/preferences") == saved

    @pytest.mark.parametrize("freq", ["off", "daily"])
    async def test_an_absent_time_keeps_the_last_saved_time(self, web: WebEnv, freq: str) -> None:
        await web.call("POST", "/api/me/preferences", json={"freq": "weekly", "time": "21:15"})
        assert await web.call("POST", "/api/me/preferences", json={"freq": freq}) == (
            200, {"freq": freq, "time": "21:15", **MADRID})

    @pytest.mark.parametrize(("written", "read"), [("7 pm", "19:00"), ("às 18h", "18:00"), ("a las 8", "08:00"),
                                                   ("8:00 am", "08:00"), ("20h30", "20:30")])
    async def test_a_time_is_read_as_the_chat_reads_it(self, web: WebEnv, written: str, read: str) -> None:
        """SPEC section 39: the preference form takes the chat's words for a time (one reader: words/read.py)."""
        saved = await web.call("POST", "/api/me/preferences", json={"freq": "daily", "time": written})
        assert saved == (200, {"freq": "daily", "time": read, **MADRID})

    async def test_an_absent_time_with_nothing_saved_is_0830(self, web: WebEnv) -> None:
        assert await web.call("POST", "/api/me/preferences", json={"freq": "daily"}) == (
            200, {"freq": "daily", "time": "08:30", **MADRID})

    @pytest.mark.parametrize(("body", "field"), [
        ({"freq": "diario"}, "freq"), ({"freq": "daily", "time": "24:00"}, "time"),
        ({"freq": "daily", "time": "7.30"}, "time"), ({"time": "08:00"}, "freq"),
        ({"freq": "daily", "extra": 1}, "extra"), ({"freq": "daily", "time": 730}, "time")])
    async def test_an_invalid_preference_is_a_422_naming_the_field(self, web: WebEnv, body: dict[str, Any],
                                                                   field: str) -> None:
        status, problem = await web.call("POST", "/api/me/preferences", json=body)
        assert (status, [e["field"] for e in problem["errors"]]) == (422, [field])


class TestQuietAndAway:
    """SPEC section 25 in the preferences: quiet {from, to} or null, away_until YYYY-MM-DD or null."""

    async def test_quiet_hours_and_away_are_saved_read_back_and_removed(self, web: WebEnv) -> None:
        body = {"freq": "daily", "quiet": {"from": "22:00", "to": "07:30"}, "away_until": "2026-12-05"}
        status, saved = await web.call("POST", "/api/me/preferences", json=body)
        assert (status, saved["quiet"], saved["away_until"]) == (200, {"from": "22:00", "to": "07:30"}, "2026-12-05")
        assert await web.call("GET", "/api/me/preferences") == (200, saved)
        kept = await web.call("POST", "/api/me/preferences", json={"freq": "weekly"})
        assert (kept[1]["quiet"], kept[1]["away_until"]) == (saved["quiet"], saved["away_until"])
        _, cleared = await web.call("POST", "/api/me/preferences", json={"freq": "daily", "quiet": None,
                                                                         "away_until": None})
        assert (cleared["quiet"], cleared["away_until"]) == (None, None)

    async def test_quiet_hours_are_read_as_the_chat_reads_them(self, web: WebEnv) -> None:
        body = {"freq": "daily", "quiet": {"from": "11 pm", "to": "às 7h"}}
        status, saved = await web.call("POST", "/api/me/preferences", json=body)
        assert (status, saved["quiet"]) == (200, {"from": "23:00", "to": "07:00"})

    async def test_away_today_is_accepted(self, web: WebEnv) -> None:
        _, saved = await web.call("POST", "/api/me/preferences", json={"freq": "off", "away_until": "2026-11-22"})
        assert saved["away_until"] == "2026-11-22"

    async def test_an_away_date_already_past_means_not_away(self, web: WebEnv) -> None:
        await web.call("POST", "/api/me/preferences", json={"freq": "off", "away_until": "2026-11-30"})
        status, saved = await web.call("POST", "/api/me/preferences", json={"freq": "off", "away_until": "2026-11-21"})
        assert (status, saved["away_until"]) == (200, None)

    @pytest.mark.parametrize(("extra", "field"), [
        ({"quiet": {"from": "22:00", "to": "22:00"}}, "quiet"), ({"quiet": {"from": "24:00", "to": "07:00"}}, "quiet"),
        ({"quiet": {"from": "22:00"}}, "quiet"), ({"quiet": "22:00-07:00"}, "quiet"),
        ({"away_until": "mañana"}, "away_until")])
    async def test_bad_values_are_a_422_naming_the_field_and_nothing_is_saved(
        self, web: WebEnv, extra: dict[str, Any], field: str,
    ) -> None:
        status, problem = await web.call("POST", "/api/me/preferences", json={"freq": "daily", **extra})
        assert (status, [e["field"].split(".")[0] for e in problem["errors"]]) == (422, [field])
        assert (await web.call("GET", "/api/me/preferences"))[1]["freq"] == "off"
