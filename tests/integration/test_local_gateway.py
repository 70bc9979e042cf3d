"""The development mode's local gateway lists the database's groups as a real gateway would: the bot is in each."""

from __future__ import annotations

from datetime import UTC, date, datetime

from taskcore.services.devseed import seed_dev_data
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.devgateway.local import BOT_JID, database_groups, database_people
from tests.builders import make_group


def test_each_group_lists_its_active_members_and_the_bot_itself(db: Database) -> None:
    units.run(db, seed_dev_data, default_user="34600000100", now=datetime(2026, 3, 2, 9, tzinfo=UTC),
              today=date(2026, 3, 2))
    groups = database_groups(db)
    assert groups
    for group in groups:
        ids = [p["id"] for p in group["participants"]]
        assert ids.count(BOT_JID) == 1, group["id"]
        assert group["size"] == len(ids)
    assert any("34600000100@s.whatsapp.net" in [p["id"] for p in g["participants"]] for g in groups)


def test_the_bot_recorded_as_a_member_by_the_sync_is_listed_once_and_not_offered_as_a_user(db: Database) -> None:
    bot = BOT_JID.partition("@")[0]
    make_group(db, "500@g.us", name="Obras", members=(bot, "34600000101"))
    [group] = database_groups(db)
    assert [p["id"] for p in group["participants"]] == [BOT_JID, "34600000101@s.whatsapp.net"]
    users, _ = database_people(db)
    assert [user["id"] for user in users] == ["34600000101"]
