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
    ("525512345678", None),  # Mexico lists several zones
    ("34600111111", None),  # Spain: Madrid and the Canaries
    ("447911123456", "Europe/London"),  # +44 lists London, Guernsey, Jersey, Isle of Man: one clock
    ("353851234567", "Europe/Dublin"),  # phonenumbers lists London's names for Ireland: Ireland's own, same clock
    ("4791234567", "Europe/Oslo"),  # Oslo and Longyearbyen
    ("393123456789", "Europe/Rome"),  # Rome and the Vatican
    ("12125551234", None),  # +1: dozens
    ("5730012", None),  # too short to be a valid Colombian number
    ("198765432100001", None),  # a WhatsApp LID, no phone number
    ("57300123456789012", None),  # longer than E.164 allows
    ("", None),
])
def test_the_phone_numbers_country_gives_the_default_only_when_it_has_one_zone(phone: str, zone: str | None) -> None:
    found = default_time_zone(phone)
    assert (found.key if found else None) == zone


def test_the_chosen_zone_wins_then_the_phone_then_tz() -> None:
    assert effective_zone("Asia/Tokyo", "573001234567", MADRID) == UserZone(ZoneInfo("Asia/Tokyo"), ZoneSource.USER)
    assert effective_zone(None, "573001234567", MADRID) == UserZone(ZoneInfo("America/Bogota"), ZoneSource.PHONE)
    assert effective_zone(None, "34600111111", MADRID) == UserZone(MADRID, ZoneSource.DEFAULT)
    assert effective_zone(None, "34600111111", MADRID).name == "Europe/Madrid"


def test_a_saved_name_the_zone_database_no_longer_knows_falls_back_to_the_defaults() -> None:
    assert effective_zone("Europe/Atlantis", "573001234567", MADRID).source is ZoneSource.PHONE
