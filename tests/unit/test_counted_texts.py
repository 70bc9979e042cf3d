"""Every counted text of every catalog, read at 0, 1 and 2 in each language (SPEC sections 30 and 39): one is the
singular, zero and two the plural in Spanish, Portuguese (``0 pontos``: people count zero as plural, though CLDR's
Brazilian rule says otherwise) and English."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from taskcore.i18n.catalogs import DOMAINS
from taskcore.words import LANGUAGES

SRC = Path(__file__).resolve().parents[2] / "src"
CASES = [(domain, lang) for domain in DOMAINS for lang in LANGUAGES]


def _counted(po: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    with po.open("rb") as read:
        catalog = read_po(read)
    return [(message.id[0], message.id[1], tuple(message.string)) for message in catalog
            if message.id and message.pluralizable]


@pytest.mark.parametrize(("domain", "lang"), CASES, ids=[f"{d.name}-{lang}" for d, lang in CASES])
def test_each_counted_text_reads_as_singular_at_one_and_plural_at_zero_and_two(domain: object, lang: str) -> None:
    base = domain.locales(SRC) / lang / "LC_MESSAGES"  # type: ignore[attr-defined]
    name = domain.name  # type: ignore[attr-defined]
    counted = _counted(base / f"{name}.po")
    assert counted, f"{name} {lang}: no counted texts read"
    with (base / f"{name}.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for singular, plural, forms in counted:
        one, many = forms[0] or singular, forms[1] or plural
        assert compiled.ngettext(singular, plural, 1) == one, (lang, singular)
        for n in (0, 2):
            assert compiled.ngettext(singular, plural, n) == many, (lang, n, singular)


@pytest.mark.parametrize(("lang", "zero"), [("es", "0 puntos"), ("pt", "0 pontos"), ("en", "0 points")])
def test_zero_points_is_plural_in_every_language(lang: str, zero: str) -> None:
    from taskcore.chores.texts import points_set  # noqa: PLC0415
    from taskcore.i18n import speaking  # noqa: PLC0415

    with speaking(lang):
        assert zero in points_set(3, 0)
