"""Each person's time zone (SPEC section 21): the one they chose, else their phone number's country's, else TZ.

Pure rules: names and numbers in, zones out. Choices the SPEC leaves open:

- A chosen name is matched ignoring case (``america/bogota`` is ``America/Bogota``) against the IANA names the zone
  database lists; anything else (paths, ``localtime``, POSIX strings) is refused.
- "The country's zone" is the zone phonenumbers' time-zone data gives the number's country calling code, when it
  gives exactly one (+57 Colombia: America/Bogota; +34 Spain lists Madrid and the Canaries, +1 dozens: neither
  counts). The number must be a valid one for that country, which keeps WhatsApp LIDs (long digit strings that are
  no phone number) on TZ.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from taskcore.errors import InvalidTimeZone
from taskcore.phones import calling_code, digits_of, plausible_length, valid_number

_UNKNOWN = "Etc/Unknown"
_NOT_ZONES = frozenset({"localtime", "posixrules", "factory"})  # files some systems list beside the IANA zones


class ZoneSource(enum.StrEnum):
    """Where a user's zone comes from."""

    USER = "user"  # chosen with /t zona or the preferences API
    PHONE = "phone"  # the phone number's country
    DEFAULT = "default"  # TZ


@dataclass(frozen=True, slots=True)
class UserZone:
    """A user's effective time zone and where it comes from."""

    zone: ZoneInfo
    source: ZoneSource

    @property
    def name(self) -> str:
        """The IANA name."""
        return self.zone.key


@lru_cache(maxsize=1)
def _known_names() -> dict[str, str]:
    return {name.casefold(): name for name in available_timezones() if name.casefold() not in _NOT_ZONES}


def known_zone_names() -> list[str]:
    """Every IANA zone name ``parse_time_zone`` accepts, in its canonical spelling, sorted."""
    return sorted(_known_names().values())


@lru_cache(maxsize=1024)  # the reminder tick reads the chosen zone of many rows: a few hundred names at most
def parse_time_zone(name: str) -> ZoneInfo:
    """An IANA zone name, any case, surrounding spaces ignored -> its ZoneInfo; InvalidTimeZone otherwise."""
    key = _known_names().get(name.strip().casefold())
    if key is None:
        raise InvalidTimeZone(f"zona horaria desconocida: «{name.strip()[:60]}»; usa un nombre IANA como "
                              "America/Bogota o Europe/Madrid", field="tz")
    return ZoneInfo(key)


@lru_cache(maxsize=1024)
def _calling_code_zone(code: int) -> str | None:
    from phonenumbers import PhoneNumber, timezone  # noqa: PLC0415 - its data loads only when a default is needed

    # The country-level list (typed in phonenumbers' stubs): the zones of every number with this calling code.
    zones = timezone._country_level_time_zones_for_number(PhoneNumber(country_code=code))
    return zones[0] if len(zones) == 1 and zones[0] != _UNKNOWN else None


@lru_cache(maxsize=16_384)
def default_time_zone(phone: str) -> ZoneInfo | None:
    """The zone of the phone number's country (``"573001234567"`` or ``"+57 300 123 4567"``: America/Bogota) when
    its country calling code maps to exactly one zone and the number is valid there; None otherwise (use TZ)."""
    digits = digits_of(phone)
    if not plausible_length(digits):
        return None
    code = calling_code(digits)
    zone = None if code is None else _calling_code_zone(code)
    if code is None or zone is None or not valid_number(code, digits[len(str(code)):]):
        return None  # the cheap tests first: most countries end before the number is validated
    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):  # pragma: no cover - phonenumbers names a zone tzdata lacks
        return None


def effective_zone(chosen: str | None, user_id: str, fallback: ZoneInfo) -> UserZone:
    """The user's zone: the chosen one, else their number's country's, else ``fallback`` (TZ)."""
    if chosen:
        try:
            return UserZone(parse_time_zone(chosen), ZoneSource.USER)
        except InvalidTimeZone:
            pass  # a name a newer zone database no longer lists: fall through to the defaults
    by_phone = default_time_zone(user_id)
    if by_phone is not None:
        return UserZone(by_phone, ZoneSource.PHONE)
    return UserZone(fallback, ZoneSource.DEFAULT)
