"""The README's pictures (docs/img/), taken by the browser tests so they always show the product as it is."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "img"
# Chromium antialiases a control's edge a pixel differently from run to run under load; a change this small is the
# same picture, and rewriting it would only make every test run dirty the working tree.
SAME_PICTURE_MAX_CHANGED = 0.001


def save_picture(png: bytes, name: str) -> Path | None:
    """Write ``png`` as docs/img/<name> when the tests run from the repository (docs/ beside tests/); rewrite it
    only when it changed visibly, so an unchanged page leaves the working tree clean. None when there is no docs/."""
    assert png.startswith(b"\x89PNG"), "not a PNG"
    if not (ROOT / "docs").is_dir():
        return None
    PICTURES.mkdir(exist_ok=True)
    target = PICTURES / name
    if not target.exists() or not same_picture(target.read_bytes(), png):
        target.write_bytes(png)
    return target


def same_picture(old: bytes, new: bytes) -> bool:
    """Whether two PNGs are the same picture: at most SAME_PICTURE_MAX_CHANGED of their pixels differ."""
    return changed_share(old, new) <= SAME_PICTURE_MAX_CHANGED


def changed_share(old: bytes, new: bytes) -> float:
    """The share of pixels that differ between two PNGs (1.0 when their sizes or formats differ)."""
    if old == new:
        return 0.0
    first, second = _pixels(old), _pixels(new)
    if first is None or second is None or (first[0], first[1]) != (second[0], second[1]):
        return 1.0
    width, height, bpp, rows_a = first
    rows_b = second[3]
    changed = sum(row_a[x:x + bpp] != row_b[x:x + bpp] for row_a, row_b in zip(rows_a, rows_b, strict=True)
                  if row_a != row_b for x in range(0, width * bpp, bpp))
    return changed / (width * height)


def _pixels(png: bytes) -> tuple[int, int, int, list[bytes]] | None:
    """(width, height, bytes per pixel, rows) of an 8-bit RGB or RGBA, non-interlaced PNG; None for anything else."""
    data, idat, header = png[8:], b"", None
    while data:
        length, kind = struct.unpack(">I4s", data[:8])
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[8:8 + length])
        elif kind == b"IDAT":
            idat += data[8:8 + length]
        data = data[12 + length:]
    if header is None or header[2] != 8 or header[3] not in (2, 6) or header[6] != 0:
        return None
    width, height, bpp = header[0], header[1], 3 if header[3] == 2 else 4
    return width, height, bpp, _unfiltered(zlib.decompress(idat), width * bpp, height, bpp)


def _unfiltered(raw: bytes, stride: int, height: int, bpp: int) -> list[bytes]:
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up, corner = previous[x], (previous[x - bpp] if x >= bpp else 0)
            line[x] = (line[x] + _predict(kind, left, up, corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return rows


def _predict(kind: int, left: int, up: int, corner: int) -> int:
    if kind == 1:
        return left
    if kind == 2:
        return up
    if kind == 3:
        return (left + up) // 2
    if kind == 4:
        estimate = left + up - corner
        near = min((abs(estimate - left), 0, left), (abs(estimate - up), 1, up), (abs(estimate - corner), 2, corner))
        return near[2]
    return 0
