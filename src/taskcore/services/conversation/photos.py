"""Photo proof in the conversation (SPEC section 34): ``/t foto``, ``!foto`` in ``/t nueva``, a completion of a
task that needs a photo, and a photo sent for a task.

A photo acts on a task when it replies to a message linked to the task (the bot's messages about it, the command
that created it) or when its caption is a done word with the task's number (``hecho 12``). The road records it to
fetch (``services.proof.submit_photo``), in the event's unit of work; the bot's fetcher then fetches, checks and
keeps it, and tells the group who approves (``services.photo_intake``). A photo the task cannot take is answered at
once with why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from taskcore.chat import photo_replies as texts
from taskcore.chat.commands import NewTask
from taskcore.chat.decide import Throttled
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.proof_args import PhotoRule, caption_task
from taskcore.chat.render import render, render_throttled
from taskcore.chat.result import Answer, ChatResult, rejected
from taskcore.chat.send_cap import capped
from taskcore.conversation import ConversationAction
from taskcore.gateway.events import InboundPhoto
from taskcore.i18n import speaking
from taskcore.services import members, proof
from taskcore.services.conversation.admission import admit
from taskcore.services.conversation.approvals import approve_task, refusing
from taskcore.services.conversation.store import ConversationUnit
from taskcore.services.conversation.turn import Turn
from taskcore.shown import shown_name

__all__ = ["handle_photo", "set_photo_rule", "with_photo", "without_photo"]


def set_photo_rule(turn: Turn, cmd: PhotoRule) -> Answer:
    """/t foto <id> [no]: the task needs a photo to be done, or no longer (its creator or a group admin)."""
    def act() -> Answer:
        proof.set_photo_rule(turn.uow, turn.policy.mode, proof.photo_files(turn.policy.data_dir), user_id=turn.user_id,
                             task_id=cmd.task_id, required=cmd.required)
        said = texts.rule_set(cmd.task_id) if cmd.required else texts.rule_stopped(cmd.task_id)
        return Answer(said, task_id=cmd.task_id)

    return refusing(turn, cmd.task_id, act)


def with_photo(turn: Turn, cmd: NewTask, create: Callable[[Turn, NewTask], Answer]) -> Answer:
    """``/t nueva ... !foto``: refused before anything is written in a direct message or with ``!todos``; else the
    task just created needs a photo (its creator may set it: they created it)."""
    if turn.group_id is None:
        return rejected(texts.refused("not_group", 0))
    if cmd.each:
        return rejected(texts.refused("each", 0))
    answer = create(turn, cmd)
    if not answer.ok or answer.task_id is None:
        return answer
    proof.set_photo_rule(turn.uow, turn.policy.mode, None, user_id=turn.user_id, task_id=answer.task_id,
                         required=True)
    return replace(answer, text=f"{answer.text}\n{texts.rule_set(answer.task_id)}")


def without_photo(turn: Turn, task_id: int) -> Answer:
    """A done word, ``/t x`` or ✅ on a task that needs a photo: with a photo waiting, an approver's completion
    approves it (✅ on the photo, or on any message of the task); anyone else is told what is missing."""
    found = proof.proof_of(turn.uow, task_id)
    waiting = found is not None and found.state == "waiting"
    if waiting and found is not None and found.sent_by != turn.user_id and \
            turn.user_id in proof.approvers_of(turn.uow, task_id):
        return approve_task(turn, task_id)
    if found is not None and found.state in ("waiting", "fetching"):
        people = proof.approvers_of(turn.uow, task_id, besides=found.sent_by)
        return rejected(texts.awaits_approval(task_id, _names(turn, people)), task_id)
    return rejected(texts.needs_photo(task_id), task_id)


def _names(turn: Turn, people: list[str]) -> list[str]:
    """The people by their names in the group (the neutral label when unknown; never a number)."""
    known = dict(members.member_names(turn.uow, group_id=turn.group_id)) if turn.group_id else {}
    return [shown_name(known.get(person)) for person in people]


def handle_photo(uow: ConversationUnit, policy: ChatPolicy, photo: InboundPhoto, moment: Moment, *,
                 sighted: bool | None = None) -> ChatResult:
    """Everything one photo causes (module docstring): nothing for a photo of no task."""
    msg = photo.message
    named = caption_task(msg.text)
    admitted = admit(uow, policy, msg, moment, family="task" if named is not None else None,
                     reply=None if named is not None else ConversationAction.COMPLETE, sighted=sighted,
                     linked=msg.quoted_id)
    if isinstance(admitted, ChatResult):
        return admitted
    task_id = admitted.quoted_task if admitted.quoted_task is not None else named
    if task_id is None or msg.group_id is None:
        return ChatResult("photo of no task", admitted.found.texts, metrics=admitted.metrics)
    turn = Turn(uow, policy, moment, msg, admitted.user_id, admitted.private_chat, admitted.today,
                language=admitted.language, own_language=admitted.own_language)
    with speaking(admitted.language):
        token = admitted.token
        if token is not None and not token.allowed:
            answered = render_throttled(msg, Throttled(token.retry_after, token.notify))
        else:
            submitted = _submit(turn, task_id, photo)
            answered = render(msg, "foto", submitted)
            sends = moment.sends.take(turn.user_id)
            if (answered.texts or answered.reactions) and not sends.allowed:
                answered = capped(answered, sends, msg, changed=submitted.ok)
    return ChatResult(answered.outcome, answered.texts + admitted.found.texts, answered.reactions,
                      answered.metrics + admitted.metrics)


def _submit(turn: Turn, task_id: int, photo: InboundPhoto) -> Answer:
    """The photo recorded to fetch (no reply yet: the fetcher's comes once it is kept), or why not."""
    if photo.declared_size is not None and photo.declared_size > turn.policy.photo_max_bytes:
        return rejected(texts.refused("too_big", task_id, limit_mb=turn.policy.photo_max_bytes // 2**20), task_id)
    msg = photo.message
    recorded = proof.PhotoMessage(turn.user_id, turn.group_id or "", msg.chat_id, msg.message_id, msg.participant,
                                  msg.text or None, photo.media)

    def act() -> Answer:
        proof.submit_photo(turn.uow, turn.policy.mode, task_id=task_id, photo=recorded, now=turn.moment.now)
        return Answer("", task_id=task_id)

    return refusing(turn, task_id, act)
