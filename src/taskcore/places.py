"""Places as people name them (SPEC section 30): cities by their names in each of the product's languages
(``words.LANGUAGES``), and each country's main zone. Data, not word lists: CLDR's localised city names (Babel) and
GeoNames' cities of at least 15,000 inhabitants, read on first use from the compact table shipped in the package
(``data/places.tsv.gz``, 1.2 MB, built from GeoNames by tools/places_table.py: SPEC section 40) and kept.

A name is compared as the lexicons compare words (``words.key``: case and accents ignored), and without spaces,
hyphens and ``_`` (``ciudad de mexico``, ``Rio-de-Janeiro``).
"""

from __future__ import annotations

import difflib
import gzip
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

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


def _cities() -> Iterator[tuple[str, Place, list[str]]]:
    """GeoNames' cities from the shipped table: each one's name, place and other names (read as it goes)."""
    with gzip.open(str(files("taskcore").joinpath("data", "places.tsv.gz")), "rt", encoding="utf-8") as table:
        zones = next(table).rstrip("\n").split("\t")
        for line in table:
            name, zone, country, people, others = line.rstrip("\n").split("\t")
            yield name, Place(zones[int(zone)], country, int(people)), others.split("|") if others else []


@dataclass(frozen=True, slots=True)
class _Index:
    """Every place by each of its names' keys, compactly: the keys sorted (one per name and place), the number of
    each one's place beside it, and each distinct place once. Looked up by bisection: a dict of tuples of places
    cost some 100 MB once built, this a fifth of it (docs/decisions.md, issue 53)."""

    keys: list[str]
    numbers: array[int]
    places: tuple[Place, ...]

    def named(self, key: str) -> Iterator[Place]:
        """The places one of whose names has ``key``."""
        for number in self.numbers[bisect_left(self.keys, key):bisect_right(self.keys, key)]:
            yield self.places[number]


@lru_cache(maxsize=1)
def _index() -> _Index:
    """Every place by each of its names' keys, built on first use from CLDR's city names and the shipped table."""
    from babel import Locale  # noqa: PLC0415
    from babel.core import get_global  # noqa: PLC0415

    pairs: set[tuple[str, int]] = set()
    numbers: dict[Place, int] = {}

    def add(name: str, place: Place, *, primary: bool = True) -> None:
        key = place_key(name)
        if key:
            if primary:
                _DISPLAY.setdefault(key, name)
            pairs.add((key, numbers.setdefault(place, len(numbers))))

    territories = get_global("zone_territories")
    for lang in LANGUAGES:
        for zone, names in Locale.parse(lang).time_zones.items():
            city, country = names.get("city"), territories.get(zone)
            if isinstance(city, str) and country:
                add(city, Place(zone, country, 0))
    for name, place, others in _cities():
        add(name, place)
        for other in others:  # the table keeps only names people of the three languages can type
            add(other, place, primary=False)
    ordered = sorted(pairs)
    return _Index([key for key, _ in ordered], array("I", (number for _, number in ordered)), tuple(numbers))


def places_named(text: str) -> tuple[Place, ...]:
    """The places called ``text``, most inhabitants first (one per zone and country: its most inhabitants)."""
    best: dict[tuple[str, str], int] = {}
    for place in _index().named(place_key(text)):
        best[place.zone, place.country] = max(best.get((place.zone, place.country), 0), place.population)
    return tuple(sorted((Place(zone, country, people) for (zone, country), people in best.items()),
                        key=lambda place: (-place.population, place.zone)))


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
