"""The webhook deliveries this process took in lately, by the key the gateway keeps the same in every retry of one
(``Codec.delivery``: WAHA's event id, else its request id; SPEC section 36): a retried delivery is one event. Only a
delivery that was answered below 500 is kept: one the bot could not store is welcome again."""

from __future__ import annotations

from collections import OrderedDict

KEPT = 10_000  # keys remembered: retries come within minutes (WAHA's exponential policy: 2 s doubled, 10 times)


class RecentDeliveries:
    """The last ``kept`` delivery keys, oldest forgotten first."""

    def __init__(self, kept: int = KEPT) -> None:
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._kept = kept

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def took(self, key: str) -> None:
        """Remember that the delivery ``key`` was taken in."""
        self._keys[key] = None
        self._keys.move_to_end(key)
        while len(self._keys) > self._kept:
            self._keys.popitem(last=False)
