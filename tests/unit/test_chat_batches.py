"""Several events in one transaction (group commit): each takes effect as if alone, and one that fails leaves
nothing behind while the others still take effect."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from taskcore.chat import ChatResult, Moment
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.ratelimit import Decision, RateLimiter
from taskcore.services.conversation import tasks as chat_tasks
from taskcore.services.conversation.road import chat_key
from taskcore.services.inbox import NewEvent, inbox_stats
from taskcore.settings import load_settings
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.bot.runner import EventRunner
from tasksvc_run.metrics import Metrics
from tests.builders import NOW, wa_text
from tests.chat_support import CODECS, group_status, policy, queued, run_all, store_events, task_rows, texts
from tests.fakes.clock import FrozenClock


def moment() -> Moment:
    return Moment(NOW)


def events(*payloads: dict[str, object]) -> list[Any]:
    return [parse_event(p) for p in payloads]


def fail_on(monkeypatch: pytest.MonkeyPatch, description: str, error: Exception | None = None) -> None:
    """Creating a task with this description breaks (a bug, or ``error``: a full disk, say)."""
    create = chat_tasks.tasks.create_task

    def breaking(db: Any, **kwargs: Any) -> Any:
        if kwargs["description"] == description:
            raise error or RuntimeError("database went away")
        return create(db, **kwargs)

    monkeypatch.setattr(chat_tasks.tasks, "create_task", breaking)


def test_a_batch_of_events_of_different_chats_takes_effect_whole(db: Database) -> None:
    results = run_all(db, [wa_text("/t nueva pan", group="1@g.us"),
                           wa_text("/t nueva sal", group="2@g.us", sender="34600222222"),
                           wa_text("/t nueva té", group=None)])
    assert [r.outcome for r in results if isinstance(r, ChatResult)] == ["nueva done"] * 3
    assert [t.description for t in task_rows(db)] == ["pan", "sal", "té"]
    assert len(texts(db)) == 3


def test_a_failing_event_leaves_nothing_and_the_others_of_its_batch_still_take_effect(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_on(monkeypatch, "boom")
    first, failed, last = run_all(db, [wa_text("/t nueva pan", group="1@g.us", message_id="A"),
                                       wa_text("/t nueva boom", group="2@g.us", message_id="B"),
                                       wa_text("/t nueva sal", group="3@g.us", message_id="C")])
    assert isinstance(failed, RuntimeError)
    assert (getattr(first, "outcome", None), getattr(last, "outcome", None)) == ("nueva done", "nueva done")
    assert [t.description for t in task_rows(db)] == ["pan", "sal"]
    assert len(queued(db)) == 2
    monkeypatch.undo()
    [again] = run_all(db, [wa_text("/t nueva boom", group="2@g.us", message_id="B")])
    assert getattr(again, "outcome", None) == "nueva done"  # the failed event's message id was not kept


def test_events_of_one_chat_in_one_batch_are_handled_in_their_order(db: Database) -> None:
    run_all(db, [wa_text(f"/t nueva tarea {i}") for i in range(5)])
    assert [t.description for t in task_rows(db)] == [f"tarea {i}" for i in range(5)]


def runner(db: Database, **kwargs: Any) -> EventRunner:
    settings = load_settings({"NODE_ENV": "test", "DB_PATH": "unused.db"})
    return EventRunner(db, policy(admins=("34600111111",)), settings=settings, clock=FrozenClock(NOW), codecs=CODECS,
                       metrics=Metrics(), limiter=RateLimiter(60, 60), **kwargs)


def tokens_asked(bot: EventRunner, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The users whose rate-limit token ``bot`` takes from now on, in order."""
    asked: list[str] = []
    take = bot.limiter.check

    def counted(user_id: str, at: float) -> Decision:
        asked.append(user_id)
        return take(user_id, at)

    monkeypatch.setattr(bot.limiter, "check", counted)
    return asked


def stored(db: Database, *payloads: dict[str, Any]) -> list[int]:
    return store_events(db, [NewEvent("k", "messages.upsert", None, json.dumps(p)) for p in payloads], now=NOW)


def test_an_event_handled_again_after_its_batch_failed_takes_one_token_not_two(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_on(monkeypatch, "boom")
    bot = runner(db)
    asked = tokens_asked(bot, monkeypatch)
    stored(db, wa_text("/t nueva pan", group="1@g.us", sender="34600222222"),
           wa_text("/t nueva boom", group="2@g.us", sender="34600333333"))
    results = [h.result for h in bot.run_inbox()]
    assert [type(r).__name__ for r in results] == ["ChatResult", "RuntimeError"]
    assert sorted(asked) == ["34600222222", "34600333333"]


def arrived(*payloads: dict[str, Any]) -> list[tuple[NewEvent, Any]]:
    return [(NewEvent(chat_key(parse_event(p)), "messages.upsert", None, json.dumps(p)), parse_event(p))
            for p in payloads]


def test_events_that_arrive_together_take_effect_in_the_transaction_that_stores_them(db: Database) -> None:
    bot = runner(db)
    outcome = bot.run_arrived(arrived(wa_text("/t nueva pan", group="1@g.us"), wa_text("/t nueva sal", group="2@g.us")),
                              1000)
    assert (len(outcome.ids), outcome.pending) == (2, 0)
    assert [h.row.id for h in outcome.handled] == outcome.ids
    assert [t.description for t in task_rows(db)] == ["pan", "sal"]
    assert units.look(db, inbox_stats) == {"pending": 0, "failed": 0}
    assert bot.run_inbox() == []  # nothing left for the processor


def test_a_message_delivered_twice_in_one_arrived_group_takes_effect_once(db: Database) -> None:
    bot = runner(db)
    twice = wa_text("/t nueva pan", group="1@g.us", message_id="SAME")
    outcome = bot.run_arrived(arrived(twice, wa_text("/t nueva sal", group="2@g.us", message_id="OTHER"), twice), 1000)
    results = [h.result for h in outcome.handled]
    assert [getattr(r, "outcome", None) for r in results] == ["nueva done", "nueva done", "duplicate"]
    assert [t.description for t in task_rows(db)] == ["pan", "sal"]
    assert len(texts(db)) == 2


def test_an_arrived_group_with_a_broken_event_is_stored_pending_and_each_keeps_its_one_token(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_on(monkeypatch, "boom")
    bot = runner(db)
    asked = tokens_asked(bot, monkeypatch)
    outcome = bot.run_arrived(arrived(wa_text("/t nueva pan", group="1@g.us", sender="34600222222"),
                                      wa_text("/t nueva boom", group="2@g.us", sender="34600333333")), 1000)
    assert (outcome.handled, outcome.pending) == ([], 2)
    assert task_rows(db) == []  # the first try left nothing behind
    results = [h.result for h in bot.run_inbox()]
    assert [type(r).__name__ for r in results] == ["ChatResult", "RuntimeError"]
    assert [t.description for t in task_rows(db)] == ["pan"]
    assert sorted(asked) == ["34600222222", "34600333333"]  # handled again later, with the decision taken first


def test_an_arrived_event_whose_chat_has_an_event_pending_is_stored_behind_it(db: Database) -> None:
    bot = runner(db)
    first = wa_text("/t nueva primera", group="1@g.us")
    store_events(db, [NewEvent(chat_key(parse_event(first)), "messages.upsert", None, json.dumps(first))], now=NOW)
    outcome = bot.run_arrived(arrived(wa_text("/t nueva segunda", group="1@g.us"),
                                      wa_text("/t nueva otra", group="2@g.us")), 1000)
    assert outcome.pending == 1
    assert [h.event.text for h in outcome.handled] == ["/t nueva otra"]
    bot.run_inbox()
    assert [t.description for t in task_rows(db)] == ["otra", "primera", "segunda"]


async def test_admin_sync_asked_from_the_worker_thread_runs_on_the_event_loop(db: Database) -> None:
    loop = asyncio.get_running_loop()
    asked_on: list[threading.Thread] = []
    done = asyncio.Event()

    class Sync:
        def request_sync(self) -> None:
            asked_on.append(threading.current_thread())
            done.set()

    bot = runner(db, sync=Sync)
    bot.bind_loop(loop)
    outcome = await asyncio.to_thread(bot.run_arrived, arrived(wa_text("/admin sync", group=None)), 1000)
    await asyncio.wait_for(done.wait(), 5)
    assert [h.result.outcome for h in outcome.handled if isinstance(h.result, ChatResult)] == ["admin sync done"]
    assert asked_on == [threading.main_thread()]


async def test_a_group_allowed_by_an_admin_is_synced_at_once_after_its_unit_commits(db: Database) -> None:
    """Its members and their admin flags come from the gateway's participants: a group admin's commands
    (``/t penalizacion``, ``/t pantalla``) work right after ``/admin permitir``, not at the next member sync."""
    loop = asyncio.get_running_loop()
    seen: list[str | None] = []
    done = asyncio.Event()

    class Sync:
        def request_sync(self) -> None:
            seen.append(group_status(db, "1@g.us"))
            done.set()

    bot = runner(db, sync=Sync)
    bot.bind_loop(loop)
    await asyncio.to_thread(bot.run_arrived, arrived(wa_text("hola", sender="34600999999", group="1@g.us")), 1000)
    assert not done.is_set()  # a message in a group does not sync it
    await asyncio.to_thread(bot.run_arrived, arrived(wa_text("/admin permitir 1@g.us", group=None)), 1000)
    await asyncio.wait_for(done.wait(), 5)
    assert seen == ["allowed"]  # asked after the commit: the sync reads the group allowed
