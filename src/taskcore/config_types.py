"""The value types of the configuration variables: each checks and normalises one kind of value (SPEC section 2).

The messages name the accepted form; config_lines() puts them after the variable's name.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError
from pydantic_settings import NoDecode

from taskcore.identity import normalize_group_id, parse_group_list, parse_id_list
from taskcore.words import LANGUAGES

GROUP_FORM = "<digits>@g.us or <digits>-<digits>@g.us"
_DIGITS_ONLY = re.compile(r"[0-9]+")


def _community(value: str) -> str:
    try:
        return normalize_group_id(value)
    except ValueError as exc:
        raise ValueError(GROUP_FORM) from exc


def _time_zone(value: str) -> str:
    try:
        ZoneInfo(value.strip())
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError("an IANA time zone such as Europe/Madrid") from exc
    return value.strip()


def _http_url(value: str) -> str:
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("an http:// or https:// URL")
    return value.strip().rstrip("/")


def _digits(value: str) -> str:
    if not _DIGITS_ONLY.fullmatch(value.strip()):
        raise ValueError("digits only, such as 34600112233")
    return value.strip()


def _admins(value: object) -> object:
    try:
        return parse_id_list(_joined(value)) if _is_list_like(value) else value
    except ValueError as exc:
        raise ValueError("comma-separated user ids or JIDs, each containing digits") from exc


def _groups(value: object) -> object:
    try:
        return parse_group_list(_joined(value)) if _is_list_like(value) else value
    except ValueError as exc:
        raise ValueError(f"comma-separated group ids, each {GROUP_FORM}") from exc


def _language(value: object) -> object:
    """One of the registry's languages, refused as a ``Literal`` of them would be (the same error, the same
    message)."""
    if value not in LANGUAGES:
        expected = " or ".join([", ".join(map(repr, LANGUAGES[:-1])), repr(LANGUAGES[-1])])
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})
    return value


def _log_level(value: object) -> object:
    """``warn`` is ``warning`` (as MIGRATIONS_LOG_LEVEL and most tools spell it); any case."""
    word = value.strip().lower() if isinstance(value, str) else value
    return "warning" if word == "warn" else word


def _is_list_like(value: object) -> bool:
    return value is None or isinstance(value, str | list | tuple | set | frozenset)


def _joined(value: Any) -> str | None:
    return value if value is None or isinstance(value, str) else ",".join(str(item) for item in value)


Port = Annotated[int, Field(ge=0, le=65535)]
UserIdSet = Annotated[frozenset[str], NoDecode, BeforeValidator(_admins)]
GroupIdSet = Annotated[frozenset[str], NoDecode, BeforeValidator(_groups)]
CommunityId = Annotated[str, AfterValidator(_community)]
TimeZoneName = Annotated[str, AfterValidator(_time_zone)]
HttpUrl = Annotated[str, AfterValidator(_http_url)]
Digits = Annotated[str, AfterValidator(_digits)]
LanguageCode = Annotated[str, BeforeValidator(_language), WithJsonSchema({"type": "string", "enum": list(LANGUAGES)})]
"""A code of ``taskcore.words.LANGUAGES`` (DEFAULT_LANGUAGE, the preferences' ``lang``)."""


LogLevel = Annotated[Literal["debug", "info", "warning", "error"], BeforeValidator(_log_level)]
