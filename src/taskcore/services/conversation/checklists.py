"""The checklist commands (SPEC section 41) carried out through the checklist use cases: ``/t añadir``, ``/t quitar``
and ticking items (``/t x 12.2``, a reply ``2 hecho`` to the task's message)."""

from __future__ import annotations

from collections.abc import Callable

from taskcore.chat import checklist_replies, replies, witness_replies
from taskcore.chat.checklist_args import AddItems, RemoveItem, TickItems
from taskcore.chat.result import Answer, rejected
from taskcore.checklists import InvalidItem
from taskcore.reactions import completion_check
from taskcore.services import checklists
from taskcore.services.conversation.on_task import on_task
from taskcore.services.conversation.turn import Turn


def _refused(task_id: int, run: Callable[[], Answer]) -> Callable[[], Answer]:
    """``run``, with an item it refuses (out of range, one too many, empty) answered with why."""
    def guarded() -> Answer:
        try:
            return run()
        except InvalidItem as exc:
            return rejected(f"{str(exc)[:1].upper()}{str(exc)[1:]}.", task_id)

    return guarded


def add_items(turn: Turn, cmd: AddItems) -> Answer:
    """/t añadir."""
    def run() -> Answer:
        task = checklists.add_items(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id,
                                    texts=cmd.texts)
        return Answer(checklist_replies.added(task, len(cmd.texts)), task_id=task.id)

    return on_task(turn, cmd.task_id, _refused(cmd.task_id, run))


def remove_item(turn: Turn, cmd: RemoveItem) -> Answer:
    """/t quitar."""
    def run() -> Answer:
        task = checklists.remove_item(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id,
                                      n=cmd.n)
        return Answer(checklist_replies.removed(task, cmd.n), task_id=task.id)

    return on_task(turn, cmd.task_id, _refused(cmd.task_id, run))


def tick_items(turn: Turn, cmd: TickItems) -> Answer:
    """/t x 12.2 or a reply ``2 hecho``: the items ticked; the last one completes the task, as /t x would."""
    def run() -> Answer:
        done = checklists.tick_items(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id,
                                     numbers=cmd.numbers, now=turn.moment.now, today=turn.today)
        if done.needs_photo:
            return Answer(checklist_replies.waits_for_photo(cmd.task_id), task_id=cmd.task_id)
        if done.completion is None:
            return Answer(checklist_replies.ticked(done.task, cmd.numbers, done.ticked), task_id=cmd.task_id)
        completion = done.completion
        text = replies.completed(completion.task, completion.next_task)
        if completion.points_held:
            text = f"{text}\n{witness_replies.points_wait(cmd.task_id, completion.task.points)}"
        check = completion_check(turn.policy.reactions, completion, turn.moment.now)
        return Answer(text, reactions=() if check is None else (check,), task_id=cmd.task_id)

    return on_task(turn, cmd.task_id, _refused(cmd.task_id, run))
