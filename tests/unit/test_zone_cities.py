"""Time zones by city (SPEC section 23): an IANA name's last part, written as people write it, is its zone; a city
that names no zone or several is refused with up to three close IANA names."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from taskcore import InvalidTimeZone
from taskcore.errors import AmbiguousTimeZone
from taskcore.i18n import speaking
from taskcore.zones import parse_time_zone, zone_by_city


def test_new_york_is_america_new_york() -> None:
    assert zone_by_city("new york") == ZoneInfo("America/New_York")


@pytest.mark.parametrize("city", ["bogota", "Bogota", "BOGOTA", " bogotá ", "Bogota\u0301", "America/Bogota"])
def test_bogota_without_accents(city: str) -> None:
    assert zone_by_city(city) == ZoneInfo("America/Bogota")


@pytest.mark.parametrize(("city", "key"), [
    ("sao paulo", "America/Sao_Paulo"), ("São Paulo", "America/Sao_Paulo"), ("Sao_Paulo", "America/Sao_Paulo"),
    ("new  york", "America/New_York"), ("NEW_YORK", "America/New_York"), ("port au prince", "America/Port-au-Prince"),
    ("madrid", "Europe/Madrid"), ("america/sao paulo", "America/Sao_Paulo"), ("utc", "UTC"),
    ("EUROPE/MADRID", "Europe/Madrid"), ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
])
def test_a_city_as_people_write_it_is_its_zone(city: str, key: str) -> None:
    assert zone_by_city(city).key == key


@pytest.mark.parametrize(("city", "key"), [
    ("buenos aires", "America/Argentina/Buenos_Aires"), ("indianapolis", "America/Indiana/Indianapolis"),
    ("istanbul", "Asia/Istanbul"), ("nicosia", "Asia/Nicosia"), ("louisville", "America/Kentucky/Louisville"),
])
def test_names_of_one_city_with_one_clock_are_one_zone_under_its_continent(city: str, key: str) -> None:
    assert zone_by_city(city).key == key


def test_a_whole_iana_name_wins_over_a_last_part_as_before() -> None:
    assert zone_by_city("singapore").key == "Singapore"


def test_a_city_naming_two_clocks_is_ambiguous_and_lists_them() -> None:
    with pytest.raises(AmbiguousTimeZone, match="puede ser varias zonas horarias") as caught:
        zone_by_city("west")
    assert caught.value.suggestions == ("Australia/West", "Brazil/West")
    assert caught.value.field == "tz"
    assert "Australia/West, Brazil/West" in str(caught.value)


def test_an_unknown_city_suggests_three_close_names() -> None:
    with pytest.raises(AmbiguousTimeZone, match="zona horaria desconocida: «santiag»") as caught:
        zone_by_city("santiag")
    assert len(caught.value.suggestions) == 3
    assert caught.value.suggestions[0] == "America/Santiago"
    assert all(parse_time_zone(name).key == name for name in caught.value.suggestions)


@pytest.mark.parametrize(("city", "first"), [("nueva yrok", "America/New_York"), ("bogote", "America/Bogota"),
                                             ("madird", "Europe/Madrid"), ("londrs", "Europe/London"),
                                             ("guadalajra", "America/Mexico_City")])
def test_a_misspelt_city_suggests_the_one_meant_first(city: str, first: str) -> None:
    with pytest.raises(AmbiguousTimeZone) as caught:
        zone_by_city(city)
    assert caught.value.suggestions[0] == first


@pytest.mark.parametrize("city", ["xx", "", "x" * 5000, "../etc/passwd"])
def test_nothing_close_suggests_nothing_and_names_the_accepted_form(city: str) -> None:
    with pytest.raises(AmbiguousTimeZone, match=r"ciudad grande de tu zona \(Bogota, Madrid\)") as caught:
        zone_by_city(city)
    assert caught.value.suggestions == ()
    assert len(str(caught.value)) < 200


def test_the_new_refusal_is_an_invalid_time_zone() -> None:
    with pytest.raises(InvalidTimeZone):
        zone_by_city("atlantidaxq")


def test_the_refusal_is_composed_in_the_language_in_force() -> None:
    with speaking("en"), pytest.raises(AmbiguousTimeZone) as caught:
        zone_by_city("west")
    assert str(caught.value) == "«west» can be several time zones: Australia/West, Brazil/West; write one of them"


def test_a_plain_iana_name_still_refuses_a_city_as_before() -> None:
    with pytest.raises(InvalidTimeZone, match="desconocida: «bogota»; escribe una zona como America/Bogota"):
        parse_time_zone("bogota")
