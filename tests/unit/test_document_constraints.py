"""The OpenAPI document's constraints are the server's (SPEC section 28): what the schema lets a generator produce,
taskcore accepts, and what it forbids, taskcore refuses."""

from __future__ import annotations

import re
import unicodedata

import pydantic
import pytest

from taskcore.errors import InvalidTime, InvalidTimeZone
from taskcore.reminders import normalize_reminder_time
from taskcore.text import INVISIBLE_RANGES, VISIBLE_CHARACTER, clean_text
from taskcore.zones import known_zone_names, parse_time_zone, zone_by_city
from tasksvc_run.web.models import MAX_TIME_WORDS, PreferencesBody
from tasksvc_run.web.routes import document

SCHEMAS = document()["components"]["schemas"]


def _invisible(code: int) -> bool:
    char = chr(code)
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Cs")


def test_the_invisible_ranges_are_every_control_format_surrogate_and_space_code_point_of_this_python() -> None:
    listed = {code for low, high in INVISIBLE_RANGES for code in range(low, high + 1)}
    assert listed == {code for code in range(0x110000) if _invisible(code)}


@pytest.mark.parametrize("text", ["\u008d", " \t\n", "\u200b\u200e", "\x00\x1f", "\ufeff \u3000", "\U000e0041"])
def test_a_text_of_invisible_characters_does_not_match_the_pattern_and_is_blank_once_cleaned(text: str) -> None:
    assert re.search(VISIBLE_CHARACTER, text) is None
    assert clean_text(text) == ""


@pytest.mark.parametrize("text", ["a", " ñ ", "\u200b😀", "\U0001f600", "\u0378"])
def test_a_text_holding_a_visible_character_matches_and_keeps_it(text: str) -> None:
    assert re.search(VISIBLE_CHARACTER, text) is not None
    assert clean_text(text) != ""


def test_names_and_descriptions_carry_the_pattern() -> None:
    assert SCHEMAS["TokenBody"]["properties"]["name"]["pattern"] == VISIBLE_CHARACTER
    assert SCHEMAS["TaskPatch"]["properties"]["description"]["pattern"] == VISIBLE_CHARACTER


@pytest.mark.parametrize(("value", "read"), [
    ("8:30", "08:30"), ("08:30", "08:30"), ("0:0", "00:00"), ("23:59", "23:59"), (" 7:05 ", "07:05"), ("19:5", "19:05"),
    ("7 pm", "19:00"), ("às 18h", "18:00"), ("a las 8", "08:00"), ("8:00 am", "08:00"),
])
def test_a_time_as_the_chat_reads_it_is_accepted_by_the_preferences(value: str, read: str) -> None:
    """SPEC section 39: the web's preference form takes the chat's words; the document says a short text."""
    assert PreferencesBody.model_validate({"freq": "daily", "time": value}).time == read
    assert normalize_reminder_time(value) == read


@pytest.mark.parametrize("value", ["24:00", "8:60", "830", "8.30", "", "08:30:00", "١:٢", "8", "x" * 41])
def test_anything_else_is_refused_naming_the_time(value: str) -> None:
    with pytest.raises(pydantic.ValidationError) as refused:
        PreferencesBody.model_validate({"freq": "daily", "time": value})
    assert [error["loc"] for error in refused.value.errors()] == [("time",)]
    with pytest.raises(InvalidTime):
        normalize_reminder_time(value)


def test_the_time_of_preferences_is_null_or_a_short_text() -> None:
    time = SCHEMAS["PreferencesBody"]["properties"]["time"]
    assert time["anyOf"] == [{"type": "string", "minLength": 1, "maxLength": MAX_TIME_WORDS}, {"type": "null"}]


def test_the_zone_is_null_or_a_name_an_iana_zone_or_a_city_and_every_iana_name_is_accepted() -> None:
    """SPEC section 39: the preference form takes a city as /t zona does, so the document cannot list them."""
    names, null = SCHEMAS["PreferencesBody"]["properties"]["tz"]["anyOf"]
    assert null == {"type": "null"}
    assert names == {"type": "string", "minLength": 1, "maxLength": 64}
    assert "Tijuana" in SCHEMAS["PreferencesBody"]["properties"]["tz"]["examples"]
    assert all(zone_by_city(name).key == name for name in known_zone_names())
    assert zone_by_city("Tijuana").key == "America/Tijuana"
    with pytest.raises(InvalidTimeZone):
        parse_time_zone("")


def test_a_write_without_a_body_needs_the_json_declaration_with_the_session_and_nothing_with_a_token() -> None:
    paths = document()["paths"]
    bodyless = [(path, method) for path, item in paths.items() for method, operation in item.items()
                if method in ("post", "patch", "put", "delete") and "requestBody" not in operation]
    assert bodyless
    for path, method in bodyless:
        assert paths[path][method]["security"] == [{"session": [], "jsonWrite": []}, {"bearer": []}]
        assert "415" in paths[path][method]["responses"]
    scheme = document()["components"]["securitySchemes"]["jsonWrite"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "Content-Type")


def test_the_twenty_first_token_is_documented_as_a_409() -> None:
    assert "409" in document()["paths"]["/api/me/tokens"]["post"]["responses"]
