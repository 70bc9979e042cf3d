"""Personal API token use cases (SPEC section 22): create (shown once), list, revoke, authenticate."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from taskcore.errors import LimitReached, NotFound, Unauthorized, ValidationError
from taskcore.services.identities import resolve_user
from taskcore.services.tokens import (
    LAST_USE_EVERY,
    MAX_TOKEN_NAME,
    MAX_TOKENS,
    authenticate_api_token,
    create_api_token,
    list_api_tokens,
    record_token_use,
    revoke_api_token,
    token_name,
)
from taskcore.services.web_auth import hash_secret
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW

ME, OTHER = "34600000001", "34600000002"


def test_a_token_is_shown_once_with_its_prefix_and_stored_only_as_a_hash(db: Database) -> None:
    made = units.run(db, create_api_token, user_id=ME, name="Home Assistant", now=NOW)
    assert made.token.startswith("tsk_")
    assert len(made.token) == 47
    assert made.token not in repr(made)
    with db.read() as conn:
        row = conn.execute(select(schema.api_tokens)).one()
    assert (row.id, row.user_id, row.name, row.token_hash, row.last_used_at) == (
        made.id, ME, "Home Assistant", hash_secret(made.token), None)
    assert made.token not in repr(row)


def test_tokens_are_listed_oldest_first_without_the_secret(db: Database) -> None:
    first = units.run(db, create_api_token, user_id=ME, name="uno", now=NOW)
    second = units.run(db, create_api_token, user_id=ME, name="dos", now=NOW + timedelta(minutes=1))
    units.run(db, create_api_token, user_id=OTHER, name="ajeno", now=NOW)
    listed = units.look(db, list_api_tokens, user_id=ME)
    assert [(t.id, t.name, t.created_at, t.last_used_at) for t in listed] == [
        (first.id, "uno", NOW, None), (second.id, "dos", NOW + timedelta(minutes=1), None)]


@pytest.mark.parametrize(("given", "kept"), [
    ("  Atajo   del\tmóvil ", "Atajo del móvil"), ("<b>HA</b>", "HA"), ("x" * MAX_TOKEN_NAME, "x" * MAX_TOKEN_NAME)])
def test_a_name_is_kept_as_plain_text(given: str, kept: str) -> None:
    assert token_name(given) == kept


@pytest.mark.parametrize(("given", "message"), [
    ("", "el nombre está vacío"), ("   \u200b ", "el nombre está vacío"),
    ("x" * (MAX_TOKEN_NAME + 1), "el nombre pasa de 60 caracteres (61)")])
def test_an_empty_or_long_name_is_refused_naming_the_field(db: Database, given: str, message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)) as raised:
        units.run(db, create_api_token, user_id=ME, name=given, now=NOW)
    assert raised.value.field == "name"
    assert units.look(db, list_api_tokens, user_id=ME) == []


def test_a_token_authenticates_as_its_owner(db: Database) -> None:
    made = units.run(db, create_api_token, user_id=ME, name="script", now=NOW)
    use = units.look(db, authenticate_api_token, token=made.token, now=NOW)
    assert (use.user_id, use.token_id, use.touch_due) == (ME, made.id, True)


@pytest.mark.parametrize("presented", ["", "tsk_", "tsk_" + "a" * 42, "x" * 47, "tsk_" + "a" * 43 + " ",
                                       "tsk_" + "ñ" * 43])
def test_a_malformed_token_is_refused_without_reading(presented: str) -> None:
    class NoDatabase:
        def read(self) -> None:
            raise AssertionError("a malformed token must not cost a read")

    with pytest.raises(Unauthorized, match="invalid or revoked"):
        authenticate_api_token(NoDatabase(), token=presented, now=NOW)  # type: ignore[arg-type]


def test_an_unknown_and_a_revoked_token_are_refused_alike(db: Database) -> None:
    made = units.run(db, create_api_token, user_id=ME, name="script", now=NOW)
    units.run(db, revoke_api_token, user_id=ME, token_id=made.id)
    for presented in (made.token, "tsk_" + "A" * 43):
        with pytest.raises(Unauthorized, match="invalid or revoked") as raised:
            units.look(db, authenticate_api_token, token=presented, now=NOW)
        assert presented not in str(raised.value)
    assert units.look(db, list_api_tokens, user_id=ME) == []


def test_another_users_token_cannot_be_revoked_and_looks_like_none(db: Database) -> None:
    theirs = units.run(db, create_api_token, user_id=OTHER, name="suyo", now=NOW)
    for token_id in (theirs.id, 999_999, 0):
        with pytest.raises(NotFound):
            units.run(db, revoke_api_token, user_id=ME, token_id=token_id)
    assert units.look(db, authenticate_api_token, token=theirs.token, now=NOW).user_id == OTHER


def test_the_last_use_is_recorded_at_most_once_a_minute(db: Database) -> None:
    made = units.run(db, create_api_token, user_id=ME, name="script", now=NOW)
    units.run(db, record_token_use, token_id=made.id, now=NOW)
    soon = NOW + LAST_USE_EVERY - timedelta(seconds=1)
    assert units.look(db, authenticate_api_token, token=made.token, now=soon).touch_due is False
    units.run(db, record_token_use, token_id=made.id, now=soon)  # a concurrent request that thought it was due
    assert units.look(db, list_api_tokens, user_id=ME)[0].last_used_at == NOW
    later = NOW + LAST_USE_EVERY
    assert units.look(db, authenticate_api_token, token=made.token, now=later).touch_due is True
    units.run(db, record_token_use, token_id=made.id, now=later)
    assert units.look(db, list_api_tokens, user_id=ME)[0].last_used_at == later


def test_a_lid_users_tokens_follow_them_to_their_phone_number(db: Database) -> None:
    lid, phone = "900111", "34600000009"
    units.run(db, resolve_user, phone=None, lid=lid, name="Ana", now=NOW)
    made = units.run(db, create_api_token, user_id=lid, name="script", now=NOW)
    units.run(db, resolve_user, phone=phone, lid=lid, name="Ana", now=NOW)
    assert units.look(db, authenticate_api_token, token=made.token, now=NOW).user_id == phone
    assert [t.name for t in units.look(db, list_api_tokens, user_id=phone)] == ["script"]


def test_a_person_holds_at_most_twenty_tokens_and_a_revoked_one_frees_a_place(db: Database) -> None:
    made = [units.run(db, create_api_token, user_id=ME, name=f"t{n}", now=NOW) for n in range(MAX_TOKENS)]
    with pytest.raises(LimitReached, match="20"):
        units.run(db, create_api_token, user_id=ME, name="one more", now=NOW)
    assert len(units.look(db, list_api_tokens, user_id=ME)) == MAX_TOKENS == 20
    units.run(db, create_api_token, user_id=OTHER, name="another person's", now=NOW)  # the limit is per person
    units.run(db, revoke_api_token, user_id=ME, token_id=made[0].id)
    assert units.run(db, create_api_token, user_id=ME, name="in its place", now=NOW).name == "in its place"
