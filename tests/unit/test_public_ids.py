"""Public ids (SPEC section 32): p_ and 24 characters of a keyed hash, stable, never the digits."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from taskcore.public_ids import PUBLIC_ID_PATTERN, is_public_id, public_id, resolve_public_id
from taskcore.services.people import PublicIds, public_key
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW

KEY = bytes(range(32))
digits = st.text("0123456789", min_size=1, max_size=20)


@given(digits)
def test_a_public_id_has_its_shape_and_names_no_digit_of_the_person(user: str) -> None:
    made = public_id(user, KEY)
    assert re.fullmatch(PUBLIC_ID_PATTERN, made)
    assert len(made) >= 18
    assert made.startswith("p_")
    assert not re.search(r"[0189]", made[2:])


def test_it_is_stable_and_depends_on_the_key() -> None:
    assert public_id("34600000001", KEY) == public_id("34600000001", KEY)
    assert public_id("34600000001", KEY) != public_id("34600000002", KEY)
    assert public_id("34600000001", KEY) != public_id("34600000001", bytes(32))


def test_it_resolves_among_the_candidates_only() -> None:
    made = public_id("34600000002", KEY)
    assert resolve_public_id(made, ["34600000001", "34600000002"], KEY) == "34600000002"
    assert resolve_public_id(made, ["34600000001"], KEY) is None
    assert resolve_public_id("34600000002", ["34600000002"], KEY) is None  # digits are not a public id
    assert not is_public_id("p_short")


def test_the_key_is_made_once_and_kept(db: Database) -> None:
    first = units.run(db, public_key, now=NOW)
    assert len(first) == 32
    assert units.run(db, public_key, now=NOW) == first
    ids = PublicIds(lambda: units.run(db, public_key, now=NOW))
    assert ids.of("34600000001") == public_id("34600000001", first)
    assert ids.maybe(None) is None
    assert ids.resolve(ids.of("7"), ["5", "7"]) == "7"
