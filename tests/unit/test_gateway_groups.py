"""Parsing the gateway's group answers from the samples in fixtures/gateway (CONTRACT.md section 4)."""

from __future__ import annotations

import pytest

from taskcore.gateway.errors import UnreadableAnswer
from taskcore.gateway.evolution.answers import (
    connection_state,
    parse_groups_answer,
    parse_participant,
    parse_participants_answer,
)
from taskcore.gateway.port import GatewayParticipant
from taskcore.services.sync import synced_groups
from tests.fakes.gateway import sample

COMMUNITY = "120363300000000001@g.us"
ANNOUNCE = "120363300000000002@g.us"
OPS = "120363300000000010@g.us"
OLD = "15550100007-1600000000@g.us"


def sample_groups() -> list[object]:
    return sample("outbound_fetchAllGroups_getParticipants_true_response_200")  # type: ignore[no-any-return]


def test_every_sample_group_is_read_with_its_community_flags() -> None:
    groups = {g.id: g for g in parse_groups_answer(sample_groups())}
    assert set(groups) == {COMMUNITY, ANNOUNCE, OPS, OLD}
    assert groups[COMMUNITY].is_community
    assert not groups[COMMUNITY].is_community_announce
    assert groups[ANNOUNCE].is_community_announce
    assert groups[ANNOUNCE].linked_parent == COMMUNITY
    assert groups[OPS].subject == "Ops tasks"
    assert groups[OPS].linked_parent == COMMUNITY
    assert groups[OLD].linked_parent is None


def test_a_lid_participant_gives_its_phone_from_phone_number() -> None:
    groups = {g.id: g for g in parse_groups_answer(sample_groups())}
    assert groups[OPS].participants[0] == GatewayParticipant("15550100001", "198765432100001", admin=True, form="lid")


def test_a_phone_participant_gives_its_lid_from_the_lid_field() -> None:
    groups = {g.id: g for g in parse_groups_answer(sample_groups())}
    assert groups[OLD].participants[0] == GatewayParticipant("15550100007", "198765432100007", admin=True, form="pn")


def test_a_listed_group_s_addressing_is_its_own_field_else_how_its_participants_are_named() -> None:
    listed = sample_groups()
    listed[2]["addressingMode"] = "pn"  # a record that says it, over participants named by LID
    groups = {g.id: g for g in parse_groups_answer(listed)}
    assert (groups[OPS].addressing, groups[OLD].addressing) == ("pn", "pn")
    assert {g.id: g.addressing for g in parse_groups_answer(sample_groups())}[OPS] == "lid"
    bare = [{key: value for key, value in group.items() if key != "participants"} for group in sample_groups()]
    assert {g.addressing for g in parse_groups_answer(bare)} == {None}


def test_the_participants_answer_is_read_with_names_and_admins() -> None:
    people = parse_participants_answer(sample("outbound_group_participants_response_200"))
    assert [(p.user_id, p.lid, p.admin, p.name) for p in people] == [
        ("15550100001", "198765432100001", True, "Alice"),
        ("15550100000", "211000000000001", False, None),
        ("15550100003", "198765432100003", False, "Carol"),
    ]


def test_a_broken_phone_number_is_ignored_and_the_lid_kept() -> None:
    person = parse_participant({"id": "198765432100009@lid", "phoneNumber": "[object Object]", "admin": None})
    assert person == GatewayParticipant(None, "198765432100009", admin=False, form="lid")
    assert person.user_id == "198765432100009"


def test_a_bare_jid_string_is_a_participant_of_an_older_gateway() -> None:
    assert parse_participant("15550100004@s.whatsapp.net") == GatewayParticipant("15550100004", None, admin=False,
                                                                                 form="pn")


def test_a_participant_without_any_readable_identity_is_skipped() -> None:
    assert parse_participant({"id": "status@broadcast"}) is None


@pytest.mark.parametrize("body", [{"participants": "x"}, [], None])
def test_a_participants_answer_of_the_wrong_shape_is_refused(body: object) -> None:
    with pytest.raises(UnreadableAnswer, match="participants"):
        parse_participants_answer(body)


def test_without_a_community_the_parent_and_announcement_groups_are_left_out() -> None:
    kept = synced_groups(parse_groups_answer(sample_groups()), None)
    assert [g.id for g in kept] == [OPS, OLD]


def test_with_a_community_only_its_chat_sub_groups_are_kept() -> None:
    kept = synced_groups(parse_groups_answer(sample_groups()), COMMUNITY)
    assert [g.id for g in kept] == [OPS]


def test_the_connection_state_is_read_from_the_instance_object() -> None:
    assert connection_state({"instance": {"instanceName": "taskbot", "state": "open"}}) == "open"
    assert connection_state({"nothing": 1}) is None
