"""Inbound de-duplication (SPEC section 5): a message id seen before, per gateway instance, is ignored. The
statements live with the inbox's (``storage.inbox``), in whose transaction the road records them."""

from __future__ import annotations

from taskcore.storage.inbox import first_sighting, first_sightings

__all__ = ["first_sighting", "first_sightings"]
