"""Each person's time zone (SPEC section 21): chosen names, the phone number's country, and TZ."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from taskcore import InvalidTimeZone, default_time_zone
from taskcore.errors import ValidationError
from taskcore.zones import UserZone, ZoneSource, effective_zone, parse_time_zone

MADRID = ZoneInfo("Europe/Madrid")


@pytest.mark.parametrize(("name", "key"), [
    ("America/Bogota", "America/Bogota"), ("america/bogota", "America/Bogota"), ("  UTC ", "UTC"),
    ("EUROPE/MADRID", "Europe/Madrid"), ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
])
def test_an_iana_name_in_any_case_is_accepted_as_its_canonical_zone(name: str, key: str) -> None:
    assert parse_time_zone(name) == ZoneInfo(key)


@pytest.mark.parametrize("name", ["Europe/Atlantis", "", "localtime", "../etc/passwd", "/usr/share/zoneinfo/UTC",
                                  "CET+1", "Madrid", "x" * 5000])
def test_anything_else_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(InvalidTimeZone, match="zona horaria desconocida") as caught:
        parse_time_zone(name)
    assert isinstance(caught.value, ValidationError)
    assert caught.value.field == "tz"


@pytest.mark.parametrize(("phone", "zone"), [
    ("573001234567", "America/Bogota"),  # Colombia: one zone
    ("+57 300 123 4567", "America/Bogota"),
    ("4915112345678", "Europe/Berlin"),
    ("525512345678", "America/Mexico_City"),  # +52 55: the prefix's own zone (SPEC 30; SPEC 21 gave TZ)
    ("5215512345678", "America/Mexico_City"),  # WhatsApp's form of a Mexican mobile
    ("5491123456789", "America/Buenos_Aires"),  # WhatsApp's form of an Argentine mobile
    ("5521987654321", "America/Sao_Paulo"),  # +55 21 Rio
    ("556832123456", "America/Rio_Branco"),  # +55 68 Acre: its own zone, not São Paulo's
    ("13105551234", "America/Los_Angeles"),  # +1 310
    ("34600111111", "Europe/Madrid"),  # the prefix lists Madrid and the Canaries: Spain's main zone
    ("447400123456", "Europe/London"),  # +44 lists London, Guernsey, Jersey, Isle of Man: the number's own
    ("447911123456", "Europe/Guernsey"),  # phonenumbers: a Guernsey mobile (same clock as London)
    ("353851234567", "Europe/Dublin"),  # phonenumbers lists London's names for Ireland: Ireland's own, same clock
    ("4791234567", "Europe/Oslo"),  # Oslo and Longyearbyen
    ("393123456789", "Europe/Rome"),  # Rome and the Vatican
    ("12125551234", "America/New_York"),  # +1 212
    ("18005551234", "America/New_York"),  # toll-free: several zones, the United States' main one
    ("5730012", None),  # too short to be a valid Colombian number
    ("198765432100001", None),  # a WhatsApp LID, no phone number
    ("57300123456789012", None),  # longer than E.164 allows
    ("", None),
])
def test_the_numbers_own_prefix_gives_the_default_else_its_countrys_main_zone(phone: str, zone: str | None) -> None:
    found = default_time_zone(phone)
    assert (found.key if found else None) == zone


def test_the_chosen_zone_wins_then_the_phone_then_tz() -> None:
    assert effective_zone("Asia/Tokyo", "573001234567", MADRID) == UserZone(ZoneInfo("Asia/Tokyo"), ZoneSource.USER)
    assert effective_zone(None, "573001234567", MADRID) == UserZone(ZoneInfo("America/Bogota"), ZoneSource.PHONE)
    assert effective_zone(None, "34600111111", MADRID) == UserZone(MADRID, ZoneSource.PHONE)
    assert effective_zone(None, "198765432100001", MADRID) == UserZone(MADRID, ZoneSource.DEFAULT)  # a LID


def test_a_saved_name_the_zone_database_no_longer_knows_falls_back_to_the_defaults() -> None:
    assert effective_zone("Europe/Atlantis", "573001234567", MADRID).source is ZoneSource.PHONE
