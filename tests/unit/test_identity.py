"""WhatsApp identities and ADMIN_USERS (seed A4)."""

import pytest

from taskcore import normalize_group_id, normalize_user_id, parse_id_list
from taskcore.identity import is_group_jid, is_lid, is_phone_jid, mask_phone_numbers, parse_group_list, user_jid


def test_a4_phone_numbers_lose_plus_and_spaces() -> None:
    assert normalize_user_id("+34 600 11 22 33") == "34600112233"


def test_a_phone_jid_becomes_its_user_part() -> None:
    assert normalize_user_id("34600112233@s.whatsapp.net") == "34600112233"


def test_a_lid_becomes_its_digits() -> None:
    assert normalize_user_id("198765432100001@lid") == "198765432100001"


def test_a_device_suffix_is_dropped() -> None:
    assert normalize_user_id("34600112233:12@s.whatsapp.net") == "34600112233"


def test_a_lid_with_a_device_suffix_is_dropped_too() -> None:
    assert normalize_user_id("198765432100001:3@lid") == "198765432100001"


@pytest.mark.parametrize("value", ["", "   ", "+", "abc@lid", ":12@s.whatsapp.net"])
def test_a_value_without_digits_is_rejected(value: str) -> None:
    with pytest.raises(ValueError, match="no digits"):
        normalize_user_id(value)


def test_a4_admin_users_list_is_normalised_item_by_item() -> None:
    assert parse_id_list(" +34 600 11 22 33 , 15550100001@s.whatsapp.net,,198765432100001@lid ") == frozenset(
        {"34600112233", "15550100001", "198765432100001"}
    )


@pytest.mark.parametrize("value", [None, "", " , ,"])
def test_a4_an_empty_admin_users_list_is_an_empty_set(value: str | None) -> None:
    assert parse_id_list(value) == frozenset()


@pytest.mark.parametrize("value", ["120363300000000010@g.us", "15550100007-1600000000@g.us", " 1@g.us "])
def test_group_ids_in_both_forms_are_accepted(value: str) -> None:
    assert normalize_group_id(value) == value.strip()


@pytest.mark.parametrize(
    "value", ["120363@s.whatsapp.net", "abc@g.us", "1-2-3@g.us", "-1@g.us", "1@g.us.evil", "@g.us", "1 2@g.us"]
)
def test_malformed_group_ids_are_rejected(value: str) -> None:
    with pytest.raises(ValueError, match="not a group id"):
        normalize_group_id(value)


def test_allowed_groups_list_is_parsed_and_a_bad_entry_rejected() -> None:
    assert parse_group_list("1@g.us, 2-3@g.us,") == frozenset({"1@g.us", "2-3@g.us"})
    with pytest.raises(ValueError, match="not a group id"):
        parse_group_list("1@g.us,oops")


def test_jid_kinds_are_told_apart() -> None:
    assert is_group_jid("1@g.us")
    assert is_lid("1@lid")
    assert is_phone_jid(user_jid("34600112233"))
    assert not is_group_jid("34600112233")


@pytest.mark.parametrize(("text", "shown"), [
    ("34600112233", "***2233"),
    ("+34 600112233 y 34600112234", "***2233 y ***2234"),
    ("+34 600 44 55 66, (555) 010-0123", "***5566, ***0123"),
    ("+34-600-445-566 o 600.44.55.66", "***5566 o ***5566"),
    ("at=2026-12-06 10:00:00+00:00 ip=192.168.100.200", "at=2026-12-06 10:00:00+00:00 ip=192.168.100.200"),
    ("ts=2026-12-06T06:56:12.342058+00:00 took=1234.5678", "ts=2026-12-06T06:56:12.342058+00:00 took=1234.5678"),
    ("34600112233:12@s.whatsapp.net", "***2233:12@s.whatsapp.net"),
    ("123456789012345@lid", "***2345@lid"),
    ("120363012345678901@g.us", "120363012345678901@g.us"),
    ("34600112233-1580000000@g.us", "***2233-1580000000@g.us"),
    ("pid 4194304, 1234567 tareas", "pid 4194304, 1234567 tareas"),
    ("", ""),
])
def test_phone_numbers_are_masked_to_their_last_four_digits(text: str, shown: str) -> None:
    assert mask_phone_numbers(text) == shown
