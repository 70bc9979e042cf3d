"""The README's pictures (docs/img/), taken by the browser tests so they always show the product as it is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "img"


def save_picture(png: bytes, name: str) -> Path | None:
    """Write ``png`` as docs/img/<name> when the tests run from the repository (docs/ beside tests/); rewrite it
    only when it changed, so an unchanged page leaves the working tree clean. None when there is no docs/."""
    assert png.startswith(b"\x89PNG"), "not a PNG"
    if not (ROOT / "docs").is_dir():
        return None
    PICTURES.mkdir(exist_ok=True)
    target = PICTURES / name
    if not target.exists() or target.read_bytes() != png:
        target.write_bytes(png)
    return target
