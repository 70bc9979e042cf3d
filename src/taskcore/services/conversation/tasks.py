"""The ``/t`` commands carried out through the task, preference and web-auth use cases (SPEC section 5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from taskcore.chat import checklist_replies, replies, witness_replies
from taskcore.chat.commands import (
    Claim,
    Complete,
    Edit,
    NewTask,
    SetDue,
    SetMode,
    SetReminders,
    StopSeries,
    Unassign,
)
from taskcore.chat.result import Answer, Mention, rejected
from taskcore.completion import CompletionMode
from taskcore.date_hints import hint_lines
from taskcore.errors import InvalidRecurrence, PhotoRequired, ValidationError
from taskcore.i18n import _
from taskcore.model import Completion, Origin, Task
from taskcore.names import match_named, surname_words
from taskcore.reactions import ReactionRequest, completion_check
from taskcore.services import identities, members, preferences, tasks, zones
from taskcore.services.conversation import photos
from taskcore.services.conversation.chores import with_nag
from taskcore.services.conversation.on_task import next_turn, on_task
from taskcore.services.conversation.turn import Turn
from taskcore.services.people import bot_ids, group_mentions
from taskcore.shown import shown_name


def new_task(turn: Turn, cmd: NewTask) -> Answer:
    """A group task for the mentioned people (none: unassigned), or a personal task in a direct message.

    The grammar has sanitised the description, so the use case's check of it cannot fail after the mentions were
    read: the command needs no savepoint (``checked_first``), except with turns, whose people are counted once the
    mentions are resolved (two numbers of one person are one); ``!todos`` in private, a name that is nobody's and a
    mention of anyone who is not a member are refused before any write."""
    if cmd.each and turn.group_id is None:
        return rejected(_(replies.EACH_ONLY_IN_GROUPS))
    found = _people(turn, turn.group_id, cmd) if turn.group_id else ([], cmd)
    if isinstance(found, Answer):
        return found
    people, cmd = found
    if cmd.rotation and (turn.group_id is None or len(people) < 2):  # typed names count as mentions (SPEC 30)
        return rejected(_(replies.ROTATION_NEEDS_GROUP))
    if cmd.rotation:
        try:
            with turn.uow.savepoint():
                return _create(turn, cmd, people)
        except InvalidRecurrence:
            return rejected(_(replies.ROTATION_NEEDS_GROUP))
    return _create(turn, cmd, people)


def _people(turn: Turn, group_id: str, cmd: NewTask) -> tuple[list[tuple[str, Mention]], NewTask] | Answer:
    """The group's members the command names, by mention (or typed number) first, then by typed name; the command
    with the surnames of typed names taken out of its text (``_named``). Why not, when one names nobody."""
    named: list[tuple[str, Mention]] = []
    if cmd.names:
        found = _named(turn, group_id, cmd)
        if isinstance(found, Answer):
            return found
        named, cmd = found
    mentioned = _assignees(turn, group_id, cmd.mentions)
    if isinstance(mentioned, Answer):
        return mentioned
    return mentioned + [(user, mention) for user, mention in named if user not in {u for u, _m in mentioned}], cmd


def _named(turn: Turn, group_id: str, cmd: NewTask) -> tuple[list[tuple[str, Mention]], NewTask] | Answer:
    """The members the typed ``@Name`` words stand for (SPEC sections 23 and 30), each shown by their name, and the
    command with the surnames of names of several words (``@Luis Martínez``) taken out of its text; a name that is
    nobody's or several people's refuses the command before anything is written."""
    known = members.member_names(turn.uow, group_id=group_id)
    shown = dict(known)
    people: list[tuple[str, str]] = []
    words = cmd.description.split(" ")
    taken: list[tuple[int, int]] = []
    for name, at in zip(cmd.names, cmd.name_at or (len(words),) * len(cmd.names), strict=True):
        found = match_named(name, known, words[at:])
        if len(found) != 1:
            return rejected(replies.name_unknown(name, [shown[user] or shown_name(None) for user in found]))
        user = found[0]
        taken.append((at, surname_words(name, shown[user] or "", words[at:])))
        people.append((user, shown[user] or name))
    forms = _forms(turn, group_id, [user for user, _name in people])
    for at, count in sorted(taken, reverse=True):
        del words[at:at + count]
    text = " ".join(words)
    named = [(user, Mention(*forms[user], name)) for user, name in people]
    return named, (replace(cmd, description=text) if text != cmd.description and text else cmd)


def _forms(turn: Turn, group_id: str, users: list[str]) -> dict[str, tuple[str, str]]:
    """Each person as the group mentions them (SPEC sections 31 and 38: their LID in a LID group)."""
    conn = turn.uow.conn
    return group_mentions(conn, group_id, users)


def _create(turn: Turn, cmd: NewTask, people: list[tuple[str, Mention]]) -> Answer:
    msg, now = turn.msg, turn.moment.now
    origin = Origin(msg.chat_id, msg.message_id, msg.participant, msg.sent_at or now)
    completion = CompletionMode.EACH if cmd.each else CompletionMode.ANY
    users = [user for user, _ in people]
    task = tasks.create_task(turn.uow, creator=turn.user_id, description=cmd.description, group_id=turn.group_id,
                             due=cmd.due, assignees=users, origin=origin, completion=completion, now=now,
                             recurrence=cmd.recurrence, rotation=users if cmd.rotation else (),
                             today=turn.today, points=cmd.points, balanced=cmd.balanced, items=cmd.items)
    mentions = tuple(mention for _, mention in people)
    text = replies.created(task.id, task.description, task.due_date, [m.shown for m in mentions],
                           in_group=turn.group_id is not None, each=cmd.each, series=task.recurrence,
                           points=cmd.points, today=turn.today)
    if task.items:  # its checklist (SPEC section 41)
        text += checklist_replies.new_items(task.items)
    return Answer(text, mentions=mentions, task_id=task.id)


def _assignees(turn: Turn, group_id: str, digits: tuple[str, ...]) -> list[tuple[str, Mention]] | Answer:
    """The members the mentions (or typed numbers) name, in order, each as the group mentions them; the bot's own
    ids are left out. A mention of anyone who is not an active member of the group refuses the command before
    anything is written, without saying whom it names (SPEC section 38: no oracle; a mention makes no member)."""
    if not digits:
        return []
    bot = {turn.msg.bot_id, *bot_ids(turn.uow)}
    wanted = [found for found in digits if found not in bot]
    if not wanted:
        return []
    found = identities.members_named(turn.uow, group_id=group_id, digits=wanted)
    if len(found) < len(wanted):
        return rejected(_(replies.PERSON_UNKNOWN))
    users = list(dict.fromkeys(found[digits] for digits in wanted))
    forms = _forms(turn, group_id, users)
    return [(user, Mention(*forms[user])) for user in users]


def complete(turn: Turn, cmd: Complete) -> Answer:
    """/t x: each task completed (or why not), one line each; the check mark on each origin message."""
    answers = [on_task(turn, task_id, partial(_complete_one, turn, task_id)) for task_id in cmd.task_ids]
    reactions = tuple(r for a in answers for r in a.reactions)
    about = answers[0].task_id if len(answers) == 1 else None
    mentions = tuple(m for a in answers for m in a.mentions)
    return Answer("\n".join(a.text for a in answers), ok=all(a.ok for a in answers), reactions=reactions,
                  task_id=about, mentions=mentions)


def _complete_one(turn: Turn, task_id: int) -> Answer:
    now = turn.moment.now
    try:
        done = tasks.complete_task(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=task_id, now=now,
                                   today=turn.today)
    except PhotoRequired:  # SPEC section 34: a photo, then an approval
        return photos.without_photo(turn, task_id)
    task = done.task
    if task.each and not done.newly_completed:
        done_parts, total = task.progress
        if done.part_done:
            return Answer(replies.part_done(_name(task, turn.user_id), task_id, done_parts, total), task_id=task_id)
        if not task.completed:
            return rejected(replies.part_already_done(task_id, done_parts, total), task_id)
    if not done.newly_completed:
        return rejected(replies.already_completed(task_id), task_id)
    text = replies.last_part_done(_name(task, turn.user_id), task) if task.each else replies.completed(task)
    if done.points_held:
        text = f"{text}\n{witness_replies.points_wait(task_id, task.points)}"
    mentions = next_turn(turn, done.next_task)
    if done.next_task is not None:
        text = f"{text}\n{replies.next_occurrence(done.next_task, [m.tag for m in mentions])}"
    return Answer(text, reactions=_check(turn, done), task_id=task_id, mentions=mentions)


def _name(task: Task, user_id: str) -> str | None:
    part = task.part_of(user_id)
    return part.name if part else None


def _check(turn: Turn, done: Completion) -> tuple[ReactionRequest, ...]:
    """The check mark on the origin message of a task this command completed, when the policy allows it."""
    check = completion_check(turn.policy.reactions, done, turn.moment.now)
    return () if check is None else (check,)


def change_task(turn: Turn, task_id: int, change: Callable[[], Task], render: Callable[[Task], str]) -> Answer:
    """Run ``change`` on one task named in this chat and answer with ``render`` of it, or why not."""
    return on_task(turn, task_id, lambda: Answer(render(change()), task_id=task_id))


def claim(turn: Turn, cmd: Claim) -> Answer:
    """/t tomar."""
    return change_task(turn, cmd.task_id, lambda: tasks.claim_task(
        turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id, now=turn.moment.now), replies.claimed)


def unassign(turn: Turn, cmd: Unassign) -> Answer:
    """/t soltar; in a shared task whose remaining parts are all done, that completes it."""
    return on_task(turn, cmd.task_id, partial(_unassign, turn, cmd.task_id))


def _unassign(turn: Turn, task_id: int) -> Answer:
    task = tasks.unassign_task(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=task_id,
                               now=turn.moment.now)
    if not task.completed:
        return Answer(replies.unassigned(task), task_id=task_id)
    text = f"{replies.unassigned(task)}\n{replies.completed_by_the_rest(task)}"
    return Answer(text, reactions=_check(turn, Completion(task, newly_completed=True)), task_id=task_id)


def set_mode(turn: Turn, cmd: SetMode) -> Answer:
    """/t modo: one completion for all (uno), or each assignee their part (todos)."""
    try:
        return change_task(turn, cmd.task_id, lambda: tasks.edit_task(
            turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id, completion=cmd.completion),
                           replies.mode_set)
    except ValidationError as exc:
        said = f"{str(exc).capitalize()}." if exc.field == "photo" else _(replies.MODE_ONLY_IN_GROUPS)
        return rejected(said, cmd.task_id)


def set_due(turn: Turn, cmd: SetDue) -> Answer:
    """/t fecha."""
    def said(task: Task) -> str:
        return replies.due_set(task) + (hint_lines(task.id, task.due_date, "", turn.today)
                                        if task.due_date else "")

    return change_task(turn, cmd.task_id, lambda: tasks.edit_task(
        turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id, due=cmd.due, zone=turn.policy.zone),
                       said)


def edit(turn: Turn, cmd: Edit) -> Answer:
    """/t editar."""
    return change_task(turn, cmd.task_id, lambda: tasks.edit_task(
        turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id, description=cmd.description),
                       replies.edited)


def stop_series(turn: Turn, cmd: StopSeries) -> Answer:
    """/t parar: the task stops repeating; it stays open."""
    def stop() -> Answer:
        task = tasks.get_task(turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id)
        if task.recurrence is None:
            return rejected(replies.not_recurring(cmd.task_id), cmd.task_id)
        return Answer(replies.series_stopped(tasks.edit_task(
            turn.uow, turn.policy.mode, user_id=turn.user_id, task_id=cmd.task_id, recurrence=None)),
                      task_id=cmd.task_id)

    return on_task(turn, cmd.task_id, stop)


def set_reminders(turn: Turn, cmd: SetReminders) -> Answer:
    """/t recordatorios."""
    saved = preferences.set_preference(turn.uow, user_id=turn.user_id, freq=cmd.freq, time=cmd.time,
                                       now=turn.moment.now)
    zone = zones.user_zone(turn.uow, user_id=turn.user_id, fallback=turn.policy.zone)
    return Answer(replies.reminders_set(saved.freq, saved.time, zone.name))


_nagged = with_nag(new_task)


def new_task_nagged(turn: Turn, cmd: NewTask) -> Answer:
    """/t nueva: with ``!insistir``, through the nagging's use case (SPEC section 25); with ``!foto``, through photo
    proof's (SPEC section 34)."""
    if cmd.photo:
        return photos.with_photo(turn, cmd, _nagged if cmd.nag else new_task)
    return _nagged(turn, cmd) if cmd.nag else new_task(turn, cmd)
