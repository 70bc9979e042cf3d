"""Every +55/+52/+1 number the phone library knows gets a zone of its own country (SPEC section 30)."""

from __future__ import annotations

import phonenumbers
import pytest
from babel.core import get_global

from taskcore.languages import phone_language
from taskcore.phones import phone_region
from taskcore.zones import default_time_zone

TYPES = (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
         phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE, phonenumbers.PhoneNumberType.TOLL_FREE,
         phonenumbers.PhoneNumberType.VOIP, phonenumbers.PhoneNumberType.PERSONAL_NUMBER)
# Each example with the country phonenumbers reads it as (a toll-free example of the Virgin Islands is the NANP's, US).
EXAMPLES = sorted({f"{number.country_code}{number.national_number}": phonenumbers.region_code_for_number(number)
                   for code in (55, 52, 1) for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code]
                   for kind in TYPES
                   if (number := phonenumbers.example_number_for_type(region, kind)) is not None}.items())


def _country(zone: str) -> str | None:
    territories = get_global("zone_territories")
    return territories.get(zone) or territories.get(get_global("zone_aliases").get(zone, ""))


def test_the_examples_cover_the_three_calling_codes() -> None:
    assert {digits[:2] for digits, _region in EXAMPLES} >= {"55", "52"}
    assert len({region for _digits, region in EXAMPLES}) > 20  # the NANP regions besides BR and MX


@pytest.mark.parametrize(("digits", "region"), EXAMPLES)
def test_every_example_number_gets_a_zone_of_its_own_country(digits: str, region: str) -> None:
    zone = default_time_zone(digits)
    assert zone is not None
    assert _country(zone.key) == region


@pytest.mark.parametrize(("digits", "region"), [(d, r) for d, r in EXAMPLES if r == "MX" and d.startswith("52")])
def test_whatsapps_form_of_a_mexican_number_is_the_same_country_zone_and_language(digits: str, region: str) -> None:
    whatsapp = "521" + digits[2:]
    assert phone_region(whatsapp) == region
    assert default_time_zone(whatsapp) == default_time_zone(digits)
    assert phone_language(whatsapp) == "es"


def test_whatsapps_form_of_an_argentine_mobile_is_argentine() -> None:
    assert phone_region("5491123456789") == "AR"
    assert phone_language("5491123456789") == "es"
    assert default_time_zone("5491123456789") is not None
