"""The catalogs' toolchain (Babel): extract every message of a package's code and templates, bring each language's
``.po`` up to date with them, compile the ``.mo`` the wheel ships, and list what is missing.

``python -m taskcore.i18n.catalogs update <src>`` (``nox -s catalogs``) extracts, updates and compiles;
``python -m taskcore.i18n.catalogs check <src>`` exits non-zero when a catalog is behind the code, a message lacks a
translation or a translation drops or invents a placeholder, or a compiled catalog is not the one its ``.po`` makes.
Spanish is the source language: its catalog holds each message as its own translation (so a Spanish wording can be
changed in the catalog), filled in by ``update``.
"""

from __future__ import annotations

import copy
import io
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileParser, write_po

from taskcore.i18n import SOURCE
from taskcore.words import LANGUAGES

_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


@dataclass(frozen=True, slots=True)
class Domain:
    """One catalog domain: its package under ``src`` and how its files are read."""

    name: str
    package: str
    methods: tuple[tuple[str, str], ...]

    def locales(self, src: Path) -> Path:
        """Where its catalogs live."""
        return src / self.package / ("i18n/locales" if self.package == "taskcore" else "locales")


DOMAINS = (
    Domain("taskcore", "taskcore", (("**.py", "python"),)),
    Domain("tasksvc_run", "tasksvc_run", (("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract"),
                                          ("**/devgateway/**.html", "jinja2.ext:babel_extract"))),
)
_OPTIONS = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}


def extract(src: Path, domain: Domain) -> Catalog:
    """Every message the domain's code and templates mark, without locations (the catalogs stay stable when code
    moves)."""
    catalog = Catalog(domain=domain.name, locale=SOURCE, project="tasksvc", fuzzy=False)
    for _file, _line, message, comments, context in extract_from_dir(
        src / domain.package, method_map=list(domain.methods), options_map=_OPTIONS,
        comment_tags=("Translators:",), strip_comment_tags=True,
    ):
        catalog.add(message, None, auto_comments=comments, context=context)
    return catalog


def _read(path: Path, lang: str, domain: str) -> Catalog:
    """The language's catalog as its ``.po`` writes it, its gettext plural rule included: the one header line each
    ``.po`` keeps (``Plural-Forms``), so the rule is the catalog's whichever CLDR release the installed Babel has
    (Babel 2.19 gives Spanish a third form, and would read a third, empty form into each plural). A language without
    a ``.po`` yet starts from its CLDR rule, which its first ``update`` writes into the header."""
    catalog = Catalog(locale=lang, domain=domain)
    if path.exists():
        with path.open("rb") as po:
            PoFileParser(catalog).parse(po)
    return catalog


def _po_path(src: Path, domain: Domain, lang: str) -> Path:
    return domain.locales(src) / lang / "LC_MESSAGES" / f"{domain.name}.po"


def _po_bytes(catalog: Catalog) -> bytes:
    """The ``.po``: a header of its plural rule alone (no dates, no tool versions), then the messages."""
    out = io.BytesIO()
    out.write(f'msgid ""\nmsgstr ""\n"Plural-Forms: {catalog.plural_forms}\\n"\n\n'.encode())
    write_po(out, catalog, omit_header=True, no_location=True, sort_output=True, width=120)
    return out.getvalue()


class _Compiled(Catalog):
    """A catalog as it is compiled: its header without the ``Generated-By`` line and with its own plural rule (its
    ``.po``'s), so a developer's Babel and the pinned one make the same bytes of the same messages."""

    def __iter__(self) -> Iterator[Message]:
        header, *messages = super().__iter__()
        lines = [line for line in str(header.string).split("\n")
                 if not line.startswith(("Generated-By:", "Plural-Forms:"))]
        header.string = "\n".join([*lines, f"Plural-Forms: {self.plural_forms}"])
        yield header
        yield from messages


def _mo_bytes(catalog: Catalog) -> bytes:
    """The compiled catalog, the same bytes whenever and with whichever Babel it is made (its header carries no
    clock and no Babel version)."""
    compiled = copy.copy(catalog)
    compiled.__class__ = _Compiled
    compiled.project, compiled.version = "tasksvc", "1"
    compiled.creation_date = compiled.revision_date = _EPOCH
    out = io.BytesIO()
    write_mo(out, compiled, use_fuzzy=False)
    return out.getvalue()


def updated(src: Path, domain: Domain, lang: str) -> Catalog:
    """The language's catalog brought up to date with the code: new messages added (Spanish: translated as
    themselves), gone ones dropped, translations kept."""
    template = extract(src, domain)
    catalog = _read(_po_path(src, domain, lang), lang, domain.name)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    if lang == SOURCE:
        for message in catalog:
            if message.id and not any(message.string if isinstance(message.string, tuple) else (message.string,)):
                message.string = message.id
    return catalog


def update(src: Path) -> None:
    """Write every domain's ``.po`` and ``.mo`` for every language."""
    for domain in DOMAINS:
        for lang in LANGUAGES:
            catalog = updated(src, domain, lang)
            po = _po_path(src, domain, lang)
            po.parent.mkdir(parents=True, exist_ok=True)
            po.write_bytes(_po_bytes(catalog))
            po.with_suffix(".mo").write_bytes(_mo_bytes(catalog))


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message."""
    return set(_PLACEHOLDER.findall(text))


def _message_problems(catalog: Catalog, lang: str, domain: str) -> Iterable[str]:
    for message in catalog:
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string or ())
        where = f"{domain} {lang}: {ids[0][:70]!r}"
        if not all(strings) or not strings or message.fuzzy:
            yield f"{where} has no translation"
            continue
        for string in strings:  # each plural form has the placeholders of the plural msgid
            if placeholders(string) != placeholders(ids[-1]):
                yield f"{where} has placeholders {sorted(placeholders(string))}, not {sorted(placeholders(ids[-1]))}"


def problems(src: Path) -> list[str]:
    """Everything wrong with the catalogs under ``src``, one line each (empty: all good)."""
    found: list[str] = []
    for domain in DOMAINS:
        wanted = {m.id for m in extract(src, domain) if m.id}
        for lang in LANGUAGES:
            po = _po_path(src, domain, lang)
            catalog = _read(po, lang, domain.name)
            have = {m.id for m in catalog if m.id}
            found += [f"{domain.name} {lang}: {str(m)[:70]!r} is not in the catalog" for m in sorted(wanted - have)]
            found += [f"{domain.name} {lang}: {str(m)[:70]!r} is no longer in the code" for m in sorted(have - wanted)]
            found += _message_problems(catalog, lang, domain.name)
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != _mo_bytes(catalog):
                found.append(f"{domain.name} {lang}: {mo.name} is not compiled from its .po (nox -s catalogs)")
    return found


def main(argv: list[str] | None = None) -> int:
    """``update <src>`` or ``check <src>``."""
    command, src = (argv if argv is not None else sys.argv[1:]) or ("check", "src")
    if command == "update":
        update(Path(src))
        return 0
    found = problems(Path(src))
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":  # pragma: no cover - nox -s catalogs
    raise SystemExit(main())
