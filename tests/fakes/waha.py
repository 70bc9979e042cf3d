"""WAHA's samples (fixtures/gateway/waha, copied from ../shared/gateway/waha/samples) for the tests."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

WAHA_SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "gateway" / "waha"
__all__ = ["WAHA_SAMPLES", "sample", "sample_names"]


@cache
def _loaded(name: str) -> Any:
    return json.loads((WAHA_SAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def sample(name: str) -> Any:
    """A fresh copy of one sample by file name (without .json)."""
    return copy.deepcopy(_loaded(name))


def sample_names() -> set[str]:
    """Every sample's name."""
    return {path.stem for path in WAHA_SAMPLES.glob("*.json")}
