"""`tasksvc failed` and `tasksvc retry` (SPEC section 33): a webhook event whose handling broke and a send the
gateway refused for good are listed with when, what and the error, and queued again by id or all at once; the
retried event takes effect; a login link is never sent again; the inbox alert's counter counts each failure once."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.services import queue
from taskcore.services.conversation import road as chat_inbox
from taskcore.services.inbox import inbox_stats
from taskcore.settings import Settings, load_settings
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue
from tasksvc_run import exits, units
from tasksvc_run.bot.app import drain
from tasksvc_run.failures_cli import cmd_failed, cmd_retry
from tests.builders import NOW, wa_text
from tests.chat_support import task_rows
from tests.integration.bot_harness import running_bot

ROOT = Path(__file__).resolve().parents[2]


def settings_of(db: Database) -> Settings:
    return load_settings({"NODE_ENV": "test", "DB_PATH": str(db.engine.url.database)})


def failed(db: Database, limit: int = 50) -> str:
    out = io.StringIO()
    assert cmd_failed(settings_of(db), limit=limit, out=out) == exits.OK
    return out.getvalue()


def retry(db: Database, *ids: str, every: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cmd_retry(settings_of(db), list(ids), every=every, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


async def one_broken_event(db: Database, monkeypatch: pytest.MonkeyPatch) -> str:
    """'/t nueva boom' handled by code that breaks on it; the id `tasksvc failed` shows for it."""
    real = chat_inbox.handle

    def breaks_on_boom(db: Database, policy: Any, event: Any, moment: Any, **kwargs: Any) -> Any:
        if "boom" in json.dumps(getattr(event, "text", "")):
            raise RuntimeError("a bug in the handler")
        return real(db, policy, event, moment, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chat_inbox, "handle", breaks_on_boom)
    async with running_bot(db, {"METRICS_ENABLED": "true"}) as bot:
        assert (await bot.post(wa_text("/t nueva boom", message_id="BOOM")))[0] == 200
        await drain(bot.app, 10.0)
        bot.failures.records.clear()  # the broken event is logged as failed: expected here
        exposition = await (await bot.client.get("/metrics")).text()
    monkeypatch.setattr(chat_inbox, "handle", real)
    assert "webhook_inbox_failures_total 1.0" in exposition
    [line] = [line for line in failed(db).splitlines() if line.startswith("inbox:")]
    return line.split()[0]


async def test_a_broken_event_is_listed_retried_and_takes_effect_and_counted_once(
        sqlite_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    name = await one_broken_event(sqlite_db, monkeypatch)
    listing = failed(sqlite_db)
    [row] = [line for line in listing.splitlines() if line.startswith(name)]
    assert "webhook event message" in row
    assert "a bug in the handler" in row
    assert listing.splitlines()[0].split() == ["ID", "FAILED", "AT", "(UTC)", "WHAT", "CHAT", "ERROR"]
    assert "tasksvc retry --all" in listing
    assert retry(sqlite_db, name) == (exits.OK, f"queued again (1): {name}; the bot handles them within a few "
                                                "seconds\n", "")
    assert units.look(sqlite_db, inbox_stats) == {"pending": 1, "failed": 0}
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "true"}) as bot:
        await bot.settle()
        exposition = await (await bot.client.get("/metrics")).text()
    assert [t.description for t in task_rows(sqlite_db)] == ["boom"]
    assert units.look(sqlite_db, inbox_stats) == {"pending": 0, "failed": 0}
    assert "webhook_inbox_failures_total 1.0" in exposition  # the counter only grows; the alert looks at increases
    assert failed(sqlite_db) == "Nothing failed: no failed webhook event, no failed send.\n"
    code, _, err = retry(sqlite_db, name)
    assert code == exits.FAILED
    assert err == f"tasksvc retry: not failed (handled, already queued again, or deleted after 30 days): {name}\n"


def a_failed_send(db: Database, *, label: str | None = None, chat: str = "120363000000000001@g.us") -> int:
    job_id = units.run(db, queue.enqueue_message, chat_id=chat, kind="text", payload={"text": "hola"}, label=label,
                       max_attempts=2, now=NOW)
    assert job_id is not None
    [job] = units.run(db, queue.claim_jobs, owner="w1", now=NOW, lease=timedelta(minutes=1), limit=1)
    assert units.run(db, queue.mark_failed, job_id=job.id, owner="w1",
                     error="gateway 400: number 34600112233 not on WhatsApp",
                     now=NOW)
    return job_id


def test_a_failed_send_is_listed_without_the_number_and_retried_from_its_first_attempt(sqlite_db: Database) -> None:
    job_id = a_failed_send(sqlite_db, chat="34600112233@s.whatsapp.net")
    [row] = [line for line in failed(sqlite_db).splitlines() if line.startswith(f"send:{job_id} ")]
    assert "2026" in row
    assert "send text, attempts: 1" in row
    assert "34600112233" not in row
    assert "***2233@s.whatsapp.net" in row
    assert "gateway 400: number ***2233 not on WhatsApp" in row
    assert retry(sqlite_db, f"send:{job_id}")[0] == exits.OK
    with sqlite_db.read() as conn:
        status, attempts = conn.execute(select(outbound_queue.c.status, outbound_queue.c.attempts)
                                        .where(outbound_queue.c.id == job_id)).one()
    assert (status, attempts) == ("pending", 0)


def test_all_is_every_failure_but_a_login_link_is_never_sent_again(sqlite_db: Database) -> None:
    plain = a_failed_send(sqlite_db)
    link = a_failed_send(sqlite_db, label="login", chat="34600112299@s.whatsapp.net")
    code, out, _ = retry(sqlite_db, every=True)
    assert code == exits.OK
    assert f"queued again (1): send:{plain};" in out
    assert f"not sent again, login links (send:{link}): the person asks for a new one" in out
    assert f"send:{link}" in failed(sqlite_db)
    assert retry(sqlite_db, every=True)[1] == (f"not sent again, login links (send:{link}): the person asks for a new "
                                               "one\n")


@pytest.mark.parametrize(("ids", "every", "said"), [
    ([], False, "name the failures to queue again"),
    (["send:1"], True, "name the failures to queue again"),
    (["12"], False, "not a failure id: '12' (inbox:<number> or send:<number>, as `tasksvc failed` shows)"),
    (["outbound:3"], False, "not a failure id: 'outbound:3'"),
])
def test_retry_without_a_valid_id_says_what_it_takes(sqlite_db: Database, ids: list[str], every: bool,
                                                     said: str) -> None:
    code, _, err = retry(sqlite_db, *ids, every=every)
    assert code == exits.CONFIG
    assert said in err


def test_the_commands_as_processes_name_a_missing_database_in_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "NODE_ENV": "test", "DB_PATH": str(tmp_path / "none.db")}
    for args in (["failed"], ["retry", "--all"]):
        done = subprocess.run([sys.executable, "-m", "tasksvc_run", *args], env=env, capture_output=True, text=True,  # noqa: S603
                              timeout=60, check=False, cwd=ROOT)
        assert done.returncode == exits.FAILED
        assert done.stderr == (f"tasksvc {args[0]}: no database at {tmp_path}/none.db (DB_PATH, or DATA_DIR/tasks.db "
                               "when DB_PATH is unset); point DB_PATH at the file, e.g. DB_PATH=tmp/tasks.db for the "
                               "one of `tasksvc dev`\n")
    assert not (tmp_path / "none.db").exists()


def test_failed_lists_newest_first_within_the_limit(sqlite_db: Database) -> None:
    ids = [a_failed_send(sqlite_db, chat=f"12036300000000000{n}@g.us") for n in range(3)]
    listing = failed(sqlite_db, limit=2)
    assert [line.split()[0] for line in listing.splitlines() if line.startswith("send:")] == [
        f"send:{ids[2]}", f"send:{ids[1]}"]
    assert "2 failed (the newest 2; --limit to see more)." in listing
