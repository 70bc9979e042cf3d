"""Configuration errors worded for the operator: one line per invalid variable, naming it and what it accepts."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal, get_args, get_origin

import annotated_types
import pydantic
from pydantic.fields import FieldInfo

from taskcore.identity import mask_phone_numbers


def config_lines(
    exc: pydantic.ValidationError, fields: Mapping[str, FieldInfo], *, never_echoed: Collection[str]
) -> list[str]:
    """One line per invalid variable: its name, the value unless it may be secret, and what it accepts."""
    lines: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else "configuration"
        shown = "" if name in never_echoed else f" {mask_phone_numbers(repr(error['input']))}"
        accepted = str(error["ctx"]["error"]) if error["type"] == "value_error" else _accepted(fields.get(name))
        lines.setdefault(name, f"{name.upper()}: invalid value{shown}; accepted: {accepted}")
    return list(lines.values())


def _accepted(field: FieldInfo | None) -> str:
    if field is None:
        return "see the configuration reference"
    annotation = field.annotation
    if get_origin(annotation) is Literal:
        return ", ".join(str(choice) for choice in get_args(annotation))
    if annotation in (bool, bool | None):
        return "true, false, 1, 0"
    if annotation in (int, int | None):
        return _integer_range(field.metadata)
    return "a text value"


def _integer_range(metadata: Sequence[object]) -> str:
    ge = next((item.ge for item in metadata if isinstance(item, annotated_types.Ge)), None)
    gt = next((item.gt for item in metadata if isinstance(item, annotated_types.Gt)), None)
    le = next((item.le for item in metadata if isinstance(item, annotated_types.Le)), None)
    if ge is not None and le is not None:
        return f"an integer from {ge} to {le}"
    if ge is not None:
        return f"an integer >= {ge}"
    return f"an integer > {gt}" if gt is not None else "an integer"
