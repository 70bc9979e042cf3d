"""/t idioma: show or choose a language: the sender's wherever it is written, the group's with ``/t idioma grupo``
(SPEC sections 24 and 39)."""

from __future__ import annotations

from taskcore.chat import locale_replies
from taskcore.chat.commands import SetLanguage
from taskcore.chat.result import Answer, rejected
from taskcore.i18n import _, speaking
from taskcore.services import languages
from taskcore.services.conversation.turn import Turn


def set_language(turn: Turn, cmd: SetLanguage) -> Answer:
    """/t idioma <language>: the sender's own (in a group too: a member's choice is theirs, not the group's);
    /t idioma grupo <language>: any active member sets the group's. The confirmation is in the language chosen."""
    if cmd.group and turn.group_id is None:
        return rejected(_(locale_replies.GROUP_LANGUAGE_IN_GROUPS))
    if cmd.code is None:
        return _show(turn)
    if cmd.group and turn.group_id is not None:
        languages.choose_group_language(turn.uow, group_id=turn.group_id, lang=cmd.code, now=turn.moment.now)
    else:
        languages.choose_language(turn.uow, user_id=turn.user_id, lang=cmd.code, default=turn.policy.language,
                                  now=turn.moment.now)
    with speaking(cmd.code):
        return Answer(locale_replies.language_set(cmd.code, group=cmd.group))


def _show(turn: Turn) -> Answer:
    own, source = languages.user_language(turn.uow, user_id=turn.user_id, default=turn.policy.language)
    group = None
    if turn.group_id is not None:
        group = languages.group_language(turn.uow, group_id=turn.group_id, default=turn.policy.language)
    return Answer(locale_replies.language_shown(own, source, group))
