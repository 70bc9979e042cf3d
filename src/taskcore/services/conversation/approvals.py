"""``/t aprobar`` and ``/t rechazar`` (SPEC section 34): a task's photo approved (the task done, through the one
completion use case) or sent back with the reason (its file deleted, the task open for another photo); a reward
request's are the rewards module's (``rewards.approve_request``, ``rewards.reject_request``).

The task's creator or a WhatsApp admin of its group approves, never the photo's sender; anyone else is refused with
a reply. The answer mentions the photo's sender, who is told why when it is sent back.
"""

from __future__ import annotations

from collections.abc import Callable

from taskcore.chat import photo_replies as texts
from taskcore.chat import replies, witness_replies
from taskcore.chat.proof_args import Approve, Reject
from taskcore.chat.result import Answer, Mention, rejected
from taskcore.reactions import completion_check
from taskcore.services import held_points, proof
from taskcore.services.conversation import rewards
from taskcore.services.conversation.on_task import next_turn, on_task
from taskcore.services.conversation.turn import Turn
from taskcore.services.people import group_mentions
from taskcore.shown import shown_name

__all__ = ["approve", "approve_task", "refusing", "reject"]


def refusing(turn: Turn, task_id: int, action: Callable[[], Answer]) -> Answer:
    """``action`` on a task named here (``on_task``); a refusal of photo proof is a short reply."""
    def refused_or_done() -> Answer:
        try:
            return action()
        except proof.ProofRefused as exc:
            return rejected(texts.refused(exc.code, exc.task_id), task_id)

    return on_task(turn, task_id, refused_or_done)


def _mention(turn: Turn, group_id: str | None, user_id: str | None) -> Mention | None:
    """The photo's sender as the group mentions them (SPEC section 31), None when unknown."""
    if user_id is None or group_id is None:
        return None
    conn = turn.uow.conn
    digits, jid = group_mentions(conn, group_id, [user_id])[user_id]
    return Mention(digits, jid)


def approve(turn: Turn, cmd: Approve) -> Answer:
    """/t aprobar <id> (a task's photo) or /t aprobar canje <n> (a reward request)."""
    if cmd.request_id is not None:
        return rewards.approve_request(turn, cmd.request_id)
    if cmd.task_id is None:  # pragma: no cover - the parser sets one of the two
        return rejected(replies.not_found(0))
    return approve_task(turn, cmd.task_id)


def approve_task(turn: Turn, task_id: int) -> Answer:
    """Approve the task's waiting photo: the task is done by its sender; a recurring one's next occurrence is named
    (and needs a photo too). A self-made task's held points are approved the same way (SPEC section 38)."""
    if held_points.is_held(turn.uow, task_id):
        return refusing(turn, task_id, lambda: _approve_points(turn, task_id))

    def act() -> Answer:
        approval = proof.approve_photo(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=task_id,
                                       now=turn.moment.now, today=turn.today)
        done = approval.done
        mention = _mention(turn, done.task.group_id, approval.sent_by)
        text = texts.approved(task_id, done.task.description, mention.tag if mention else shown_name(None))
        turns = next_turn(turn, done.next_task)
        if done.next_task is not None:
            text = f"{text}\n{replies.next_occurrence(done.next_task, [m.tag for m in turns])}"
        check = completion_check(turn.policy.reactions, done, turn.moment.now)
        return Answer(text, mentions=((mention,) if mention else ()) + turns, reactions=(check,) if check else (),
                      task_id=task_id)

    return refusing(turn, task_id, act)


def _approve_points(turn: Turn, task_id: int) -> Answer:
    """The held points of a self-made task count: another member approved them; its doer is mentioned."""
    task = held_points.approve_points(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=task_id)
    mention = _mention(turn, task.group_id, task.completed_by)
    text = witness_replies.points_approved(task_id, task.description, task.points,
                                           mention.tag if mention else shown_name(None))
    return Answer(text, mentions=(mention,) if mention else (), task_id=task_id)


def reject(turn: Turn, cmd: Reject) -> Answer:
    """/t rechazar <id> <motivo> (a task's photo, deleted; the task stays open) or /t rechazar canje <n>."""
    if cmd.request_id is not None:
        return rewards.reject_request(turn, cmd.request_id, cmd.reason)
    task_id = cmd.task_id
    if task_id is None:  # pragma: no cover - the parser sets one of the two
        return rejected(replies.not_found(0))

    def act() -> Answer:
        task, sent_by = proof.reject_photo(turn.uow, turn.policy.mode, proof.photo_files(turn.policy.data_dir),
                                           user_id=turn.user_id, task_id=task_id)
        mention = _mention(turn, task.group_id, sent_by)
        return Answer(texts.rejected_photo(task_id, cmd.reason, mention.tag if mention else None),
                      mentions=(mention,) if mention else (), task_id=task_id)

    return refusing(turn, task_id, act)
