"""Missed turns (SPEC sections 20 and 25): who takes the next turn in a rotation, and when an open turn passes on
by itself.

Choices the SPEC leaves open:

- The next person is the first after the current holder in the rotation's order, going round, who is not away.
  When everyone else is away, the turn stays with the current holder (``/t pasar`` then has nobody to hand it to);
  when everyone, the holder included, is away, it goes to the plain next in order, so turns never freeze.
- A holder no longer in the rotation (they left it) is treated as if they stood before its first person.
- A turn still open two days after its due date passes on once, on the second day after it (due Monday: passes
  on Wednesday, in the holder's calendar); the next holder's turn never passes on by itself.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, timedelta

from taskcore.errors import ValidationError

AUTO_PASS_AFTER = timedelta(days=2)


def turn_order_after(order: Sequence[str], current: str | None) -> list[str]:
    """The rotation read from the person after ``current``, going round, ``current`` last (when in it)."""
    if not order:
        raise ValidationError("a rotation has at least one person")
    if current is None or current not in order:
        return list(order)
    at = order.index(current) + 1
    return [*order[at:], *order[:at]]


def next_in_turn(order: Sequence[str], current: str | None, away: Collection[str]) -> str:
    """The person who takes the turn after ``current``, skipping the away (see the module's rules)."""
    ahead = turn_order_after(order, current)
    others = [person for person in ahead if person != current]
    for person in others:
        if person not in away:
            return person
    if current is not None and current in order and current not in away:
        return current
    return ahead[0]


def auto_pass_due(due: date, today: date, passed_already: bool) -> bool:
    """True when an open turn due on ``due`` passes on by itself at ``today``: two days late and not passed yet."""
    return not passed_already and today >= due + AUTO_PASS_AFTER
