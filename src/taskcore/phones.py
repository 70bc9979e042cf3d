"""What a phone number's digits say about its owner's country (phonenumbers' data): its calling code, whether it is a
valid number there, and its region. A WhatsApp LID (a long digit string that is no phone number) is none."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from phonenumbers import PhoneNumber


def digits_of(phone: str) -> str:
    """The digits of ``phone`` (``"+57 300 123 4567"``: ``"573001234567"``), in the country's own numbering:
    WhatsApp still writes a Mexican mobile with the ``1`` Mexico dropped in 2019 (``521`` + ten digits is ``52`` + the
    ten). An Argentine mobile's ``549…`` is already a valid Argentine number (the ``9`` of mobiles)."""
    digits = "".join(c for c in phone if "0" <= c <= "9")
    if len(digits) == _MX_WHATSAPP_LENGTH and digits.startswith("521"):
        return "52" + digits[3:]
    return digits


_MX_WHATSAPP_LENGTH = 13  # 52 1 + a ten-digit Mexican number


def calling_code(digits: str) -> int | None:
    """The country calling code the digits start with, or None."""
    from phonenumbers import COUNTRY_CODE_TO_REGION_CODE  # noqa: PLC0415 - its data loads only when needed

    for size in (1, 2, 3):
        if len(digits) > size and int(digits[:size]) in COUNTRY_CODE_TO_REGION_CODE:
            return int(digits[:size])
    return None


@lru_cache(maxsize=4_096)  # a reminder tick asks twice of a user (zone, then language): both in one read chunk
def valid_number(code: int, national: str) -> bool:
    """Whether ``national`` is a valid number of calling code ``code``."""
    import phonenumbers  # noqa: PLC0415

    # Built directly rather than parsed from text: four times cheaper, and the digits are already clean.
    zeros = len(national) - len(national.lstrip("0"))
    number = phonenumbers.PhoneNumber(country_code=code, national_number=int(national),
                                      italian_leading_zero=zeros > 0 or None, number_of_leading_zeros=zeros or None)
    return bool(phonenumbers.is_valid_number(number))


def plausible_length(digits: str) -> bool:
    """E.164 numbers have 7 to 15 digits."""
    return 7 <= len(digits) <= 15


@lru_cache(maxsize=16_384)
def phone_region(phone: str) -> str | None:
    """The ISO region of a valid phone number (``"5511987654321"``: ``BR``; ``"5215512345678"``: ``MX``), None for
    anything else."""
    number = parsed_number(phone)
    if number is None:
        return None
    import phonenumbers  # noqa: PLC0415

    region = phonenumbers.region_code_for_number(number)
    return region if region and region != "001" else None


def parsed_number(phone: str) -> PhoneNumber | None:
    """The valid phone number the digits of ``phone`` are, or None (a LID, a short or unknown number)."""
    digits = digits_of(phone)
    code = calling_code(digits) if plausible_length(digits) else None
    if code is None or not valid_number(code, digits[len(str(code)):]):
        return None
    from phonenumbers import PhoneNumber  # noqa: PLC0415

    national = digits[len(str(code)):]
    zeros = len(national) - len(national.lstrip("0"))
    return PhoneNumber(country_code=code, national_number=int(national), italian_leading_zero=zeros > 0 or None,
                       number_of_leading_zeros=zeros or None)


def is_phone_number(digits: str) -> bool:
    """Whether a user id's digits are a valid phone number (not a WhatsApp LID)."""
    return parsed_number(digits) is not None
