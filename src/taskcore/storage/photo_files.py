"""The photo files of photo proof (SPEC section 34): one folder, ``DATA_DIR/photos``, and nothing outside it.

Only names ``chores.proof.file_name_for`` makes are written, read or deleted (a name from anywhere else is refused
before any path is built), each as a direct child of the folder; a file is written under a temporary name and
renamed into place, so a reader never sees half a photo; a link in the folder is never followed.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from taskcore.chores.proof import is_file_name
from taskcore.errors import PhotoExists, ValidationError

__all__ = ["PHOTOS", "PhotoFiles"]

PHOTOS = "photos"  # the folder's name under DATA_DIR
_PARTIAL = ".partial-"


class PhotoFiles:
    """The photo folder of one DATA_DIR."""

    def __init__(self, data_dir: str | Path) -> None:
        self.folder = Path(os.path.abspath(data_dir)) / PHOTOS

    def _path(self, name: str) -> Path:
        if not is_file_name(name):
            raise ValidationError("not a photo file name the service made")
        return self.folder / name

    def save(self, name: str, data: bytes) -> Path:
        """Write a new photo file; FileExistsError if the name is taken (names are random: never in practice)."""
        path = self._path(name)
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = self.folder / f"{_PARTIAL}{secrets.token_hex(8)}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(partial, flags, 0o640)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            if path.exists():
                raise PhotoExists(name)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        return path

    def read(self, name: str) -> bytes | None:
        """A photo's bytes, None when the file is gone (or the name is none of ours)."""
        try:
            path = self._path(name)
            if path.is_symlink():
                return None
            return path.read_bytes()
        except (ValueError, OSError):
            return None

    def delete(self, name: str | None) -> bool:
        """Delete a photo file; True when one was deleted (a missing file or a foreign name deletes nothing)."""
        if not name:
            return False
        try:
            self._path(name).unlink()
        except (ValueError, FileNotFoundError):
            return False
        return True

    def leftovers(self, kept: set[str], *, older_than_seconds: float, now: float | None = None) -> list[str]:
        """Names of files in the folder that no row keeps (a photo whose row went, a write cut short), older than
        ``older_than_seconds``: the clean-up deletes them."""
        moment = time.time() if now is None else now
        try:
            entries = list(os.scandir(self.folder))
        except FileNotFoundError:
            return []
        found = []
        for entry in entries:
            ours = is_file_name(entry.name) or entry.name.startswith(_PARTIAL)
            if not ours or entry.name in kept or not entry.is_file(follow_symlinks=False):
                continue
            if moment - entry.stat(follow_symlinks=False).st_mtime > older_than_seconds:
                found.append(entry.name)
        return found

    def remove_leftover(self, name: str) -> None:
        """Delete one leftover file (a photo name of ours, or a partial write)."""
        if is_file_name(name) or (name.startswith(_PARTIAL) and "/" not in name and os.sep not in name):
            (self.folder / name).unlink(missing_ok=True)
