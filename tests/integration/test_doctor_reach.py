"""``tasksvc doctor`` on reaching people (SPEC section 31): the reach-out pause and who the bot cannot write to in
private, read from the database; silent about it before the first start (no database file)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from taskcore.gateway.diagnostics import Verdict, exit_status
from taskcore.gateway.events import StatusUpdate
from taskcore.services import delivery
from taskcore.settings import load_settings
from taskcore.storage import migrator
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tasksvc_run.doctor import diagnose, render
from tests.builders import GROUP, make_group
from tests.fakes.gateway import FakeGateway
from tests.integration.test_doctor import env_for

ANA = "34600111111"


async def test_doctor_names_the_pause_and_the_unreachable_and_stays_green(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    db = Database.from_url(f"sqlite:///{path}")
    migrator.migrate(db)
    now = datetime.now(UTC) - timedelta(hours=1)
    make_group(db, GROUP, members=(ANA,), now=now)
    with db.write() as conn:
        ensure_user(conn, ANA, now, name="Ana")
    units.run(db, delivery.record_statuses, [StatusUpdate("3EB0X", f"{ANA}@s.whatsapp.net", "ERROR")], now=now,
              rules=delivery.DeliveryRules())
    db.dispose()
    async with FakeGateway(api_key="k-gateway-key-never-printed") as gateway:
        gateway.store_webhook("http://tasksvc:3000/webhook", events=[], headers={
            "X-Webhook-Secret": "s3cret-webhook-value-never-printed"})
        checks = await diagnose(load_settings(env_for(gateway, DB_PATH=str(path))))
    found = {check.name: check for check in checks}
    assert found["reach-out"].verdict is Verdict.WARN
    assert "error 463" in found["reach-out"].detail
    assert found["unreachable"].verdict is Verdict.WARN
    assert f"Ana ({ANA}) since {now:%Y-%m-%d}" in found["unreachable"].detail
    assert found["send caps"].verdict is Verdict.OK
    assert exit_status(checks) == 0
    assert "how to fix: nothing to do, the pause ends by itself" in render(checks)


async def test_doctor_says_nothing_of_it_without_a_database(tmp_path: Path) -> None:
    async with FakeGateway(api_key="k-gateway-key-never-printed") as gateway:
        checks = await diagnose(load_settings(env_for(gateway, DB_PATH=str(tmp_path / "none.db"))))
    assert not {"reach-out", "unreachable", "send caps"} & {check.name for check in checks}
    assert not (tmp_path / "none.db").exists()
