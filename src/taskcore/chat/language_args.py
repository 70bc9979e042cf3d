"""The arguments of ``/t idioma`` (SPEC section 24): nothing (show the language in force) or a language."""

from __future__ import annotations

from taskcore.chat.commands import SetLanguage
from taskcore.chat.usage import usage_error
from taskcore.i18n import _
from taskcore.languages import InvalidLanguage, parse_language


def parse_language_command(args: str) -> SetLanguage:
    """``/t idioma`` alone (``code`` None: show it), or followed by a code or a language's name."""
    words = args.split()
    if not words:
        return SetLanguage(None)
    if len(words) > 1:
        raise usage_error("idioma", _("sobran datos"), field="lang")
    try:
        return SetLanguage(parse_language(words[0]))
    except InvalidLanguage as exc:
        raise usage_error("idioma", str(exc).rstrip("."), field="lang") from exc
