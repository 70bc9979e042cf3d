"""Each person's time zone (SPEC section 21): the one they chose, else their phone number's country's, else TZ.

Pure rules: names and numbers in, zones out. Choices the SPEC leaves open:

- A chosen name is matched ignoring case (``america/bogota`` is ``America/Bogota``) against the IANA names the zone
  database lists; anything else (paths, ``localtime``, POSIX strings) is refused.
- "The country's zone" is the zone phonenumbers' time-zone data gives the number's country calling code, when it
  gives exactly one (+57 Colombia: America/Bogota; +34 Spain lists Madrid and the Canaries, +1 dozens: neither
  counts). Names that keep one clock since 1970 are one zone, named as CLDR names the calling code's main country's
  zone (+44 lists London, Guernsey, Jersey and the Isle of Man: Europe/London; +353: Europe/Dublin; +47:
  Europe/Oslo). The number must be a valid one for that country, which keeps WhatsApp LIDs (long digit strings that are
  no phone number) on TZ.
- A city (SPEC section 23) is an IANA name's last part, or a whole name, compared ignoring case, accents and the
  difference between spaces, ``_`` and ``-`` (``sao paulo``, ``Port au Prince``). Names of one city that keep the
  same clock since 1970 (``America/Buenos_Aires`` and ``America/Argentina/Buenos_Aires``, ``Asia/Istanbul`` and
  ``Europe/Istanbul``) are one zone: the name under a continent or ocean, deepest, then first alphabetically, is
  taken. Names of different clocks (``Australia/West``, ``Brazil/West``) make the city ambiguous.
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from taskcore.errors import AmbiguousTimeZone, InvalidTimeZone
from taskcore.i18n import _, current_language
from taskcore.phones import parsed_number
from taskcore.places import Place, close_place_names, country_name, country_of, main_zone, place_key, places_named
from taskcore.words import key as word_key

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
        raise InvalidTimeZone(_("zona horaria desconocida: «{city}»; escribe una zona como America/Bogota o "
                                "Europe/Madrid", city=name.strip()[:_SHOWN]), field="tz")
    return ZoneInfo(key)


@lru_cache(maxsize=16_384)
def default_time_zone(phone: str) -> ZoneInfo | None:
    """The zone of the phone number's own prefix (``"5521987654321"``: America/Sao_Paulo; ``"13105551234"``:
    America/Los_Angeles); when the prefix maps to several zones, the country's main zone; None when the digits are no
    valid number of a country (a WhatsApp LID, a non-geographic number: use TZ)."""
    number = parsed_number(phone)
    if number is None:
        return None
    from phonenumbers import region_code_for_number, timezone  # noqa: PLC0415 - its data loads only when needed

    zones = [zone for zone in timezone.time_zones_for_number(number) if zone != _UNKNOWN]
    region = region_code_for_number(number)
    if len(zones) == 1 and _zone_country(zones[0]) in {region, None}:
        name: str | None = zones[0]
    else:  # several zones, or one of another country (phonenumbers gives some +44 7 mobiles Europe/Guernsey)
        name = main_zone(region) if region and region != "001" else None
    try:
        return None if name is None else parse_time_zone(name)
    except InvalidTimeZone:  # pragma: no cover - phonenumbers or GeoNames name a zone tzdata lacks
        return None


@lru_cache(maxsize=1024)
def _zone_country(name: str) -> str | None:
    """The ISO region CLDR gives a zone (``America/Buenos_Aires``: AR), None when it gives none."""
    from babel.core import get_global  # noqa: PLC0415 - CLDR data loads only when needed

    territories = get_global("zone_territories")
    found = territories.get(name) or territories.get(get_global("zone_aliases").get(name, ""))
    return None if found is None else str(found)


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


_SEPARATORS = re.compile(r"[\s_-]+")
_AREAS = frozenset({"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian",
                    "Pacific"})
_SAMPLES = tuple(datetime(year, month, day, 12, tzinfo=UTC)
                 for year in range(1970, 2038) for month in range(1, 13) for day in (1, 15))
_SHOWN = 60  # characters of what was typed an error message repeats


def _city_key(text: str) -> str:
    return _SEPARATORS.sub("_", word_key(text))


@lru_cache(maxsize=1)
def _city_index() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """Every zone name by its last part's key, and by its whole key."""
    by_last: dict[str, list[str]] = {}
    for name in _known_names().values():
        by_last.setdefault(_city_key(name.rsplit("/", 1)[-1]), []).append(name)
    by_full = {_city_key(name): name for name in _known_names().values()}
    return {key: tuple(sorted(names)) for key, names in by_last.items()}, by_full


@lru_cache(maxsize=256)
def _clock(name: str) -> tuple[timedelta | None, ...]:
    """The zone's offsets twice a month from 1970 to 2037: names with the same clock are one zone to a person."""
    zone = ZoneInfo(name)
    return tuple(moment.astimezone(zone).utcoffset() for moment in _SAMPLES)


def _preferred(names: Iterable[str]) -> str:
    return min(names, key=lambda name: (name.split("/")[0] not in _AREAS, -name.count("/"), name))


def _distinct_zones(names: tuple[str, ...]) -> tuple[str, ...]:
    """One name per clock among ``names`` (the preferred one), sorted."""
    clocks: dict[tuple[timedelta | None, ...], list[str]] = {}
    for name in names:
        clocks.setdefault(_clock(name), []).append(name)
    return tuple(sorted(_preferred(group) for group in clocks.values()))


def _close_names(text: str) -> tuple[tuple[str, str], ...]:
    """Up to three close names, each with its zone: IANA names' last parts or whole names (shown as the zone), then
    places (GeoNames, CLDR: shown as written, ``Guadalajara``), one per zone."""
    by_last, by_full = _city_index()
    close = difflib.get_close_matches(_city_key(text)[:_SHOWN], [*by_last, *by_full], n=9)
    found = [(zone, zone) for zone in (_preferred(by_last[match]) if match in by_last else by_full[match]
                                       for match in close)]
    for name in close_place_names(text[:_SHOWN]):
        zone = _known_names().get(places_named(name)[0].zone.casefold())
        if zone is not None:
            found.append((name if place_key(name) != place_key(zone.rsplit("/", 1)[-1]) else zone, zone))
    typed = place_key(text[:_SHOWN])
    by_zone: dict[str, str] = {}
    for shown, zone in sorted(found, key=lambda pair: -difflib.SequenceMatcher(
            None, typed, place_key(pair[0].rsplit("/", 1)[-1])).ratio()):
        by_zone.setdefault(zone, shown)
    return tuple((shown, zone) for zone, shown in by_zone.items())[:3]


def _place_zone(text: str) -> tuple[str, ...]:
    """The zones of the places called ``text`` (``Córdoba, AR``: with a trailing country, only that country's): one
    when a single clock is meant or the most populous place has twice the inhabitants of all the others (Guadalajara,
    Manchester); else up to three, as ``zone (country)``, most populous first; none when no place has that name."""
    name, comma, country = text.rpartition(",")
    region = country_of(country) if comma and name.strip() else None
    places = [place for place in places_named(name if region else text)
              if place.zone.casefold() in _known_names() and region in {None, place.country}]
    clocks: dict[tuple[timedelta | None, ...], Place] = {}
    for place in places:  # most populous first: each clock keeps its biggest place
        clocks.setdefault(_clock(_known_names()[place.zone.casefold()]), place)
    ranked = list(clocks.values())
    if len(ranked) == 1 or (ranked and ranked[0].population >= 2 * sum(p.population for p in ranked[1:]) > 0):
        return (_known_names()[ranked[0].zone.casefold()],)
    lang = current_language()
    return tuple(f"{_known_names()[place.zone.casefold()]} ({country_name(place.country, lang)})"
                 for place in ranked[:3])


def _unsettled(text: str, several: tuple[str, ...]) -> AmbiguousTimeZone:
    city = text.strip()[:_SHOWN]
    if several:
        message = _("«{city}» puede ser varias zonas horarias: {names}; escribe una de ellas",
                    city=city, names=", ".join(several[:3]))
        return AmbiguousTimeZone(message, suggestions=tuple(name.split(" ", 1)[0] for name in several[:3]))
    close = _close_names(text)
    if close:
        message = _("zona horaria desconocida: «{city}»; nombres parecidos: {names}", city=city,
                    names=", ".join(shown for shown, _zone in close))
    else:
        message = _("zona horaria desconocida: «{city}»; escribe una ciudad grande de tu zona (Bogota, Madrid) "
                    "o una zona como America/Bogota", city=city)
    return AmbiguousTimeZone(message, suggestions=tuple(zone for _shown, zone in close))


def zone_by_city(text: str) -> ZoneInfo:
    """A city (``bogota``, ``Bogotá``, ``new york``) or an IANA name -> its zone; AmbiguousTimeZone otherwise."""
    try:
        return parse_time_zone(text)
    except InvalidTimeZone:
        pass
    by_last, by_full = _city_index()
    key = _city_key(text)
    if key in by_full:
        return ZoneInfo(by_full[key])
    names = _distinct_zones(by_last.get(key, ()))
    if len(names) == 1:
        return ZoneInfo(names[0])
    places = () if names else _place_zone(text)
    if len(places) == 1:
        return ZoneInfo(places[0])
    raise _unsettled(text, names or places)


def zone_named(name: str | None, fallback: ZoneInfo) -> ZoneInfo:
    """The zone a row stored (a group's), ``fallback`` without one or with a name this zone database does not know."""
    if name is None:
        return fallback
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return fallback
