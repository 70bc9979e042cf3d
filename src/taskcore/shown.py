"""How a person is shown to others (SPEC section 32): by name, and a member whose name the bot does not know by a
neutral label in the reader's language, never by digits."""

from __future__ import annotations

from taskcore.i18n import N_, _

__all__ = ["UNNAMED", "shown_name"]

UNNAMED = N_("Miembro sin nombre")


def shown_name(name: str | None) -> str:
    """``name``, or the neutral label in the language in force."""
    return name or _(UNNAMED)
