"""The webhook's memory of the deliveries it took in: bounded, the oldest forgotten first."""

from __future__ import annotations

from tasksvc_run.bot.deliveries import RecentDeliveries


def test_the_oldest_delivery_is_forgotten_first_and_a_repeat_is_fresh_again() -> None:
    taken = RecentDeliveries(kept=2)
    taken.took("a")
    taken.took("b")
    taken.took("a")  # seen again: now the freshest
    taken.took("c")
    assert ("a" in taken, "b" in taken, "c" in taken) == (True, False, True)
