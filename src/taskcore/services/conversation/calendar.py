"""``/t web`` and ``/t calendario``: the private links of the chat (SPEC sections 5 and 22).

The feed's token is stored hashed, so an address cannot be sent twice: each ``/t calendario`` makes a new one (the
previous one stops working) and sends it by direct message only, like ``/t web``; a group hears only that it was
sent. ``/t calendario borrar`` revokes it.

A link is made only when it will be sent (SPEC section 38): while the person's replies are capped, none is made, so
the newest one they received stays valid (a login link until it is used or expires).
"""

from __future__ import annotations

from urllib.parse import quote

from taskcore.calendar_feed import feed_url
from taskcore.chat import replies
from taskcore.chat.commands import CalendarLink, CalendarRevoke, WebLink
from taskcore.chat.result import Answer, direct_message, rejected
from taskcore.i18n import _, speaking
from taskcore.queue_rules import LOGIN_LINK_LABEL
from taskcore.services import calendar, web_auth
from taskcore.services.conversation.turn import Turn


def calendar_link(turn: Turn, cmd: CalendarLink) -> Answer:
    """/t calendario: a new feed address, by direct message only (the queue drops its text once sent, like a login
    link's: the address is a credential)."""
    base = turn.policy.web_base_url
    if not base:
        return rejected(_(replies.CALENDAR_UNAVAILABLE))
    if held(turn):
        return Answer("")
    token = calendar.issue_calendar_feed(turn.uow, user_id=turn.user_id, now=turn.moment.now)
    with speaking(turn.own_language):
        text = replies.calendar_link(feed_url(base, token))
    if turn.group_id is None:
        return Answer(text, label=LOGIN_LINK_LABEL)
    return Answer(in_group_notice(turn), extra=(direct_message(turn.private_chat, text, label=LOGIN_LINK_LABEL),))


def calendar_revoke(turn: Turn, cmd: CalendarRevoke) -> Answer:
    """/t calendario borrar: the feed's address answers 404 from now on."""
    had = calendar.revoke_calendar_feed(turn.uow, user_id=turn.user_id)
    return Answer(_(replies.CALENDAR_REVOKED) if had else _(replies.NO_CALENDAR))


def web_link(turn: Turn, cmd: WebLink) -> Answer:
    """/t web: the login link goes by direct message only; a group hears only that it was sent."""
    base = turn.policy.web_base_url
    if not base:
        return rejected(_(replies.WEB_UNAVAILABLE))
    if held(turn):
        return Answer("")
    token = web_auth.issue_login_token(turn.uow, user_id=turn.user_id, now=turn.moment.now)
    with speaking(turn.own_language):
        link = replies.web_link(f"{base}/login?token={quote(token, safe='')}")
    if turn.group_id is None:
        return Answer(link, label=LOGIN_LINK_LABEL)
    return Answer(in_group_notice(turn), extra=(direct_message(turn.private_chat, link, label=LOGIN_LINK_LABEL),))


def held(turn: Turn) -> bool:
    """Whether the person's replies are capped now (the draw the reply makes: ``Moment.sends`` answers an event the
    same each time): the link would not be sent."""
    return not turn.moment.sends.take(turn.user_id).allowed


def in_group_notice(turn: Turn) -> str:
    """What a group hears of a link sent in private: nothing but the 🤖 mark on the command when reactions are on
    there (SPEC section 32: one member's burst of /t web costs the group no messages), else the short text."""
    if turn.marks and turn.group_id is not None and turn.policy.reactions.in_scope(turn.group_id):
        return ""
    return _(replies.WEB_IN_PRIVATE)
