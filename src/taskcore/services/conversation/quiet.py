"""/t silencio, /t ausente, /t vuelvo: the sender's quiet hours and away (SPEC section 25)."""

from __future__ import annotations

from taskcore.chat import quiet_replies as replies
from taskcore.chat.chore_commands import Back, SetAway, SetQuiet
from taskcore.chat.result import Answer, rejected
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.services import quiet, zones
from taskcore.services.conversation.turn import Turn


def set_quiet(turn: Turn, cmd: SetQuiet) -> Answer:
    """/t silencio HH:MM-HH:MM|no."""
    quiet.set_quiet(turn.uow, user_id=turn.user_id, window=cmd.window, now=turn.moment.now)
    if cmd.window is None:
        return Answer(_(replies.QUIET_OFF))
    zone = zones.user_zone(turn.uow, user_id=turn.user_id, fallback=turn.policy.zone)
    return Answer(replies.quiet_set(cmd.window, zone.name))


def set_away(turn: Turn, cmd: SetAway) -> Answer:
    """/t ausente <fecha>: through that date, today or later in the sender's calendar."""
    try:
        quiet.set_away(turn.uow, user_id=turn.user_id, until=cmd.until, today=turn.today, now=turn.moment.now)
    except InvalidChoreSetting:
        return rejected(replies.away_past(cmd.until))
    return Answer(replies.away_set(cmd.until))


def back(turn: Turn, cmd: Back) -> Answer:
    """/t vuelvo."""
    quiet.set_away(turn.uow, user_id=turn.user_id, until=None, today=turn.today, now=turn.moment.now)
    return Answer(_(replies.BACK))


