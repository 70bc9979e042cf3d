"""The arguments of ``/t calendario`` (SPEC section 22): nothing (a new feed address) or a word that revokes it."""

from __future__ import annotations

from taskcore.chat.commands import CalendarLink, CalendarRevoke
from taskcore.chat.usage import usage_error
from taskcore.i18n import _
from taskcore.words import key, words_of

REVOKE_WORDS = words_of("calendar.revoke")


def parse_calendar(args: str, _ctx: object) -> CalendarLink | CalendarRevoke:
    """``/t calendario`` alone, or followed by one of REVOKE_WORDS (any language, any case)."""
    words = args.split()
    if not words:
        return CalendarLink()
    if len(words) > 1:
        raise usage_error("calendario", _("sobran datos"))
    if key(words[0]) not in REVOKE_WORDS:
        shown = words[0] if len(words[0]) <= 40 else words[0][:40] + "…"
        raise usage_error("calendario", _("opción no válida: «{option}»", option=shown))
    return CalendarRevoke()
