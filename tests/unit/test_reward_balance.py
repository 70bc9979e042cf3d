"""A balance never goes below zero (SPEC section 34; Donetick #489): approvals re-read it under a lock, so two that
each fit but together do not end with one refused, also when they run at the same moment (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

import pytest
from sqlalchemy import select, update

from taskcore.access import GatingMode
from taskcore.chores.rewards import Balance, RequestState
from taskcore.completion import CompletionMode
from taskcore.errors import Conflict, Forbidden, NotFound
from taskcore.services import reward_requests as requests
from taskcore.services import rewards
from taskcore.services import tasks as task_service
from taskcore.services.own_data import forget_person
from taskcore.storage import reward_tables, schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group

ANA, LUIS, EVA = "34600111111", "34600222222", "34600333333"
OFF = GatingMode.OFF
WITHIN = 30.0
T = TypeVar("T")


@pytest.fixture
def group(db: Database) -> str:
    make_group(db, GROUP, name="Piso", members=(ANA, LUIS, EVA))
    gm = schema.group_members
    with db.write() as conn:
        conn.execute(update(gm).where(gm.c.user_id == ANA).values(is_admin=True))
    return GROUP


def earn(db: Database, points: int, user: str = LUIS) -> int:
    """``user`` completes a task worth ``points`` someone else gave them (SPEC section 38); the task's id."""
    task = units.run(db, task_service.create_task, creator=EVA if user == ANA else ANA, description="tarea",
                     group_id=GROUP, assignees=(user,), now=NOW, points=points)
    units.run(db, task_service.complete_task, OFF, user_id=user, task_id=task.id, now=NOW)
    return task.id


def offer(db: Database, points: int, name: str = "cine") -> int:
    return units.run(db, rewards.create_reward, group_id=GROUP, user_id=ANA, name=name, points=points, now=NOW).id


def ask(db: Database, reward_id: int, user: str = LUIS) -> int:
    return units.run(db, requests.redeem, OFF, user_id=user, reward_id=reward_id, group_id=GROUP, now=NOW).request.id


def worth(db: Database, task_id: int, points: int) -> None:
    """The task's points changed after it was done (points earned went away)."""
    with db.write() as conn:
        conn.execute(update(schema.tasks).where(schema.tasks.c.id == task_id).values(points=points))


def at_once(calls: list[Callable[[], T]]) -> list[T | Exception]:
    """Run the calls in threads that start together; each one's result or the exception it raised."""
    start = threading.Barrier(len(calls), timeout=WITHIN)

    def run(call: Callable[[], T]) -> T | Exception:
        start.wait()
        try:
            return call()
        except Exception as exc:  # the outcome under test
            return exc

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls, timeout=WITHIN))


def test_a_balance_is_completions_less_approved_redemptions(db: Database, group: str) -> None:
    earn(db, 7)
    earn(db, 2)
    assert units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP) == Balance(earned=9)
    reward = offer(db, 4)
    ask(db, reward)
    assert units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP) == Balance(earned=9, reserved=4)
    done = units.run(db, requests.approve, OFF, user_id=ANA, request_id=1, now=NOW)
    assert (done.request.state, done.balance) == (RequestState.APPROVED, Balance(earned=9, spent=4))
    assert units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP).points == 5
    assert units.look(db, rewards.balance, user_id=EVA, group_id=GROUP) == Balance()


def test_each_parts_count_for_each_person(db: Database, group: str) -> None:
    task = units.run(db, task_service.create_task, creator=ANA, description="fregar", group_id=GROUP,
                     assignees=(LUIS, EVA), now=NOW, points=3, completion=CompletionMode.EACH)
    units.run(db, task_service.complete_task, OFF, user_id=LUIS, task_id=task.id, now=NOW)
    assert units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP).points == 3
    assert units.look(db, rewards.balance, user_id=EVA, group_id=GROUP).points == 0


def test_a_request_over_what_is_available_is_refused_with_the_balance(db: Database, group: str) -> None:
    earn(db, 5)
    reward = offer(db, 4)
    ask(db, reward)
    with pytest.raises(requests.ShortBalance) as refused:
        ask(db, reward)
    assert (refused.value.balance, refused.value.price) == (Balance(earned=5, reserved=4), 4)


def test_two_approvals_that_together_do_not_fit_refuse_the_second_naming_the_balance(
    db: Database, group: str,
) -> None:
    task = earn(db, 10)
    reward = offer(db, 6)
    first, second = ask(db, reward), ask(db, offer(db, 4))
    worth(db, task, 8)
    units.run(db, requests.approve, OFF, user_id=ANA, request_id=first, now=NOW)
    with pytest.raises(requests.CannotApprove) as refused:
        units.run(db, requests.approve, OFF, user_id=ANA, request_id=second, now=NOW)
    assert refused.value.balance.points == 2
    assert units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP).points == 2


def test_concurrent_approvals_never_take_the_balance_below_zero(db: Database, group: str) -> None:
    tasks = [earn(db, 8), earn(db, 8)]
    reward = offer(db, 2)
    asked = [ask(db, reward) for _ in range(8)]  # 16 points reserved
    worth(db, tasks[0], 3)
    worth(db, tasks[1], 2)  # 5 points earned: two approvals fit
    outcomes = at_once([partial(units.run, db, requests.approve, OFF, user_id=ANA, request_id=rid, now=NOW)
                        for rid in asked])
    approved = [o for o in outcomes if isinstance(o, requests.Outcome)]
    assert len(approved) == 2, outcomes
    assert all(isinstance(o, requests.CannotApprove) for o in outcomes if o not in approved)
    left = units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP)
    assert (left.earned - left.spent, left.points) == (1, 1)


def test_concurrent_approvals_of_one_request_approve_it_once(db: Database, group: str) -> None:
    earn(db, 9)
    rid = ask(db, offer(db, 3))
    outcomes = at_once([lambda: units.run(db, requests.approve, OFF, user_id=ANA, request_id=rid, now=NOW)] * 4)
    assert sum(isinstance(o, requests.Outcome) for o in outcomes) == 1
    assert all(isinstance(o, requests.Outcome | requests.AlreadyDecided) for o in outcomes), outcomes
    assert units.look(db, rewards.balance, user_id=LUIS, group_id=GROUP) == Balance(earned=9, spent=3)


def test_who_may_decide_and_what_is_not_found(db: Database, group: str) -> None:
    earn(db, 9)
    rid = ask(db, offer(db, 3))
    with pytest.raises(rewards.NotGroupAdmin):
        units.run(db, requests.approve, OFF, user_id=EVA, request_id=rid, now=NOW)
    with pytest.raises(rewards.NotGroupAdmin):
        units.run(db, requests.refuse, OFF, user_id=EVA, request_id=rid, reason=None, now=NOW)
    with pytest.raises(NotFound):
        units.run(db, requests.approve, OFF, user_id=ANA, request_id=99, now=NOW)
    with pytest.raises(NotFound):  # a stranger to the group does not learn the request exists
        units.run(db, requests.approve, OFF, user_id="34699999999", request_id=rid, now=NOW)
    done = units.run(db, requests.refuse, OFF, user_id=ANA, request_id=rid, reason="  hoy\nno  ", now=NOW)
    assert (done.request.state, done.request.reason, done.withdrawn) == (RequestState.REFUSED, "hoy no", False)
    with pytest.raises(Conflict):
        units.run(db, requests.refuse, OFF, user_id=ANA, request_id=rid, reason=None, now=NOW)


def test_creating_rewards_is_for_group_admins_and_checks_name_and_price(db: Database, group: str) -> None:
    with pytest.raises(Forbidden):
        units.run(db, rewards.create_reward, group_id=GROUP, user_id=LUIS, name="cine", points=3, now=NOW)
    with pytest.raises(ValueError, match="precio"):
        units.run(db, rewards.create_reward, group_id=GROUP, user_id=ANA, name="cine", points=0, now=NOW)
    with pytest.raises(ValueError, match="nombre"):
        units.run(db, rewards.create_reward, group_id=GROUP, user_id=ANA, name=" <b> </b> ", points=3, now=NOW)
    with pytest.raises(ValueError, match="nombre"):
        units.run(db, rewards.create_reward, group_id=GROUP, user_id=ANA, name="x" * 81, points=3, now=NOW)
    made = units.run(db, rewards.create_reward, group_id=GROUP, user_id=ANA, name="  <i>cine</i>  ", points=10_000,
                     now=NOW)
    assert (made.name, made.points) == ("cine", 10_000)


def test_a_deleted_rewards_pending_requests_may_still_be_decided(db: Database, group: str) -> None:
    earn(db, 9)
    reward = offer(db, 3)
    rid = ask(db, reward)
    units.run(db, rewards.delete_reward, group_id=GROUP, user_id=ANA, reward_id=reward, now=NOW)
    with pytest.raises(NotFound):
        ask(db, reward)
    assert units.run(db, requests.approve, OFF, user_id=ANA, request_id=rid, now=NOW).request.reward_name == "cine"


def test_waiting_lists_pending_requests_of_the_groups_one_administers(db: Database, group: str) -> None:
    earn(db, 9)
    rid = ask(db, offer(db, 3))
    assert [r.id for r in units.look(db, requests.waiting, OFF, user_id=ANA).requests] == [rid]
    assert units.look(db, requests.waiting, OFF, user_id=ANA, group_id="1@g.us").requests == []
    assert units.look(db, requests.waiting, OFF, user_id=EVA).count == 0
    assert [r.id for r in units.look(db, requests.my_requests, user_id=LUIS)] == [rid]


def test_erasing_a_person_takes_their_requests_and_keeps_the_rewards_and_the_others(db: Database, group: str) -> None:
    earn(db, 9)
    reward = offer(db, 3)
    first = ask(db, reward)
    units.run(db, requests.approve, OFF, user_id=ANA, request_id=first, now=NOW)
    ask(db, reward)
    assert units.run(db, forget_person, user_id=ANA, now=NOW)  # the admin who decided and created
    assert [r.decided_by for r in units.look(db, requests.my_requests, user_id=LUIS)] == [None, None]
    assert units.run(db, forget_person, user_id=LUIS, now=NOW)
    assert units.look(db, requests.my_requests, user_id=LUIS) == []
    with db.read() as conn:
        assert [row.name for row in conn.execute(select(reward_tables.rewards))] == ["cine"]
        assert conn.execute(select(reward_tables.reward_requests)).all() == []
