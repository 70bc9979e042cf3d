"""Mentions in the form the group uses (SPEC sections 31 and 32)."""

from __future__ import annotations

import pytest

from taskcore.addresses import mention_address

PHONE, LID = "34600000001", "198765432100001"


@pytest.mark.parametrize(("addressing", "lid", "expected"), [
    ("lid", LID, (LID, f"{LID}@lid")),
    (None, LID, (LID, f"{LID}@lid")),  # unknown form: the number stays hidden when a LID is known
    ("pn", LID, (PHONE, f"{PHONE}@s.whatsapp.net")),
    ("lid", None, (PHONE, f"{PHONE}@s.whatsapp.net")),  # no LID known: the only address there is
    (None, None, (PHONE, f"{PHONE}@s.whatsapp.net")),
])
def test_a_person_with_a_number(addressing: str | None, lid: str | None, expected: tuple[str, str]) -> None:
    assert mention_address(PHONE, addressing=addressing, lid=lid) == expected


@pytest.mark.parametrize("addressing", ["lid", "pn", None])
def test_a_person_known_only_by_a_lid_is_mentioned_by_it_everywhere(addressing: str | None) -> None:
    assert mention_address(LID, addressing=addressing, lid=None) == (LID, f"{LID}@lid")
