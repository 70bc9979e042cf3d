"""``/t plantilla`` (SPEC section 35) carried out: the starter sets listed, one shown, and once confirmed its chores
created as ``/t nueva … cada <regla> !turnos`` creates them (``services.tasks.create_task``).

Choices the SPEC leaves open: the people who take turns are the group's active members the bot knows (never the
bot), in the order of their names, when there are two or more; each chore starts its turns one person further, so
the first occurrences do not all fall to the same person. With fewer, the chores are created unassigned. Creating
a set twice creates its chores twice: the preview says what will be created."""

from __future__ import annotations

from taskcore.chat import starter_replies as texts
from taskcore.chat.result import Answer, rejected
from taskcore.chat.starter_args import Starter
from taskcore.chat.usage import command_word
from taskcore.chores.starter_sets import StarterSet, find_set, starter_sets
from taskcore.i18n import SOURCE, current_language
from taskcore.services import members, tasks
from taskcore.services.conversation.turn import Turn
from taskcore.shown import shown_name
from taskcore.words import TABLES


def _command() -> str:
    return f"/t {command_word('plantilla')}"


def _yes() -> str:
    """The reader's language's yes, as the lexicon writes it first."""
    return TABLES.get(current_language(), TABLES[SOURCE])["confirm.yes"][0]


def starter(turn: Turn, cmd: Starter) -> Answer:
    """/t plantilla: the sets; /t plantilla <nombre>: what it would create; /t plantilla <nombre> sí: create it."""
    if turn.group_id is None:
        return rejected(texts.only_in_groups(_command()))
    sets = starter_sets(current_language())
    if cmd.set_name is None:
        return Answer(texts.listing(sets, _command()))
    found = find_set(cmd.set_name, current_language())
    if found is None:
        return rejected(texts.unknown(cmd.set_name, sets, _command()))
    people = members.member_names(turn.uow, group_id=turn.group_id)
    if not cmd.confirmed:
        shown = [shown_name(name) for _user, name in people] if len(people) >= 2 else []
        return Answer(texts.preview(found, shown, _command(), _yes()))
    return _create(turn, turn.group_id, found, people)


def _create(turn: Turn, group_id: str, found: StarterSet, people: list[tuple[str, str | None]]) -> Answer:
    names = dict(people)
    order = [user for user, _name in people] if len(people) >= 2 else []
    made = []
    for at, chore in enumerate(found.chores):
        rotation = order[at % len(order):] + order[:at % len(order)] if order else []
        task = tasks.create_task(turn.uow, creator=turn.user_id, description=chore.text, group_id=group_id,
                                 assignees=rotation, now=turn.moment.now, recurrence=chore.recurrence,
                                 rotation=rotation, today=turn.today, points=chore.points)
        holder = task.assignee_ids[0] if task.assignee_ids else None
        made.append((task.id, chore, None if holder is None else shown_name(names.get(holder))))
    return Answer(texts.created(found, made))
