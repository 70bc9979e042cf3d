"""The shells' own texts (SPEC section 24): the ``tasksvc_run`` catalogs, in the language in force.

Like ``taskcore.i18n._`` (Spanish message ids, named ``{placeholders}`` filled after the lookup, the language set by
``taskcore.i18n.speaking``), but reading ``src/tasksvc_run/locales``: every tasksvc_run module that writes a human
text takes ``_`` from here, never from taskcore (whose catalogs do not hold these messages).
"""

from __future__ import annotations

import gettext as _gettext
from pathlib import Path

from taskcore.i18n import N_, current_language, translations

__all__ = ["DOMAIN", "LOCALES", "N_", "_", "catalog"]

DOMAIN = "tasksvc_run"
LOCALES = Path(__file__).parent / "locales"


def catalog(lang: str | None = None) -> _gettext.NullTranslations:
    """The compiled tasksvc_run catalog of ``lang`` (default: the language in force)."""
    return translations(lang or current_language(), DOMAIN, LOCALES)


def _(message: str, /, **params: object) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled from ``params``."""
    text = catalog().gettext(message)
    return text.format(**params) if params else text
