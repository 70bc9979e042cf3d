"""/t idioma: show or choose the language, the sender's in a direct message and the group's in a group (SPEC
section 24)."""

from __future__ import annotations

from taskcore.chat import locale_replies
from taskcore.chat.commands import SetLanguage
from taskcore.chat.result import Answer
from taskcore.i18n import speaking
from taskcore.services import languages
from taskcore.services.conversation.turn import Turn


def set_language(turn: Turn, cmd: SetLanguage) -> Answer:
    """/t idioma <language>: any active member may set a group's; the confirmation is in the language chosen."""
    if cmd.code is None:
        return _show(turn)
    if turn.group_id is None:
        languages.choose_language(turn.uow, user_id=turn.user_id, lang=cmd.code, default=turn.policy.language,
                                  now=turn.moment.now)
    else:
        languages.choose_group_language(turn.uow, group_id=turn.group_id, lang=cmd.code, now=turn.moment.now)
    with speaking(cmd.code):
        return Answer(locale_replies.language_set(cmd.code, group=turn.group_id is not None))


def _show(turn: Turn) -> Answer:
    own, source = languages.user_language(turn.uow, user_id=turn.user_id, default=turn.policy.language)
    group = None
    if turn.group_id is not None:
        group = languages.group_language(turn.uow, group_id=turn.group_id, default=turn.policy.language)
    return Answer(locale_replies.language_shown(own, source, group))
