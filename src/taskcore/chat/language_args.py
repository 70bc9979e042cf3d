"""The arguments of ``/t idioma`` (SPEC sections 24 and 39): nothing (show the language in force), a language (the
sender's), or ``grupo`` and a language (the group's)."""

from __future__ import annotations

from taskcore.chat.commands import SetLanguage
from taskcore.chat.usage import usage_error
from taskcore.i18n import _
from taskcore.languages import InvalidLanguage, parse_language
from taskcore.words import meaning


def parse_language_command(args: str) -> SetLanguage:
    """``/t idioma`` alone (``code`` None: show it), or followed by a code or a language's name; ``grupo`` (``group``)
    first: the group's."""
    words = args.split()
    group = bool(words) and meaning("scope", words[0]) == "group"
    if group:
        words = words[1:]
    if not words:
        return SetLanguage(None, group=group)
    if len(words) > 1:
        raise usage_error("idioma", _("sobran datos"), field="lang")
    try:
        return SetLanguage(parse_language(words[0]), group=group)
    except InvalidLanguage as exc:
        raise usage_error("idioma", str(exc).rstrip("."), field="lang") from exc
