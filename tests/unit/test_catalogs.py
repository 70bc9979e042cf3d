"""The message catalogs (SPEC section 24): every message of the code in every language, placeholders kept, the
compiled files the wheel ships made from them; and the toolchain's check catches what it should."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taskcore.i18n import _, speaking, translations
from taskcore.i18n.catalogs import main, placeholders, problems
from taskcore.words import LANGUAGES

SRC = Path(__file__).resolve().parents[2] / "src"


def test_every_catalog_is_complete_and_compiled() -> None:
    assert problems(SRC) == []


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the source tree's packages, to break."""
    for package in ("taskcore", "tasksvc_run"):
        shutil.copytree(SRC / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _po(tree: Path, lang: str) -> Path:
    return tree / "taskcore" / "i18n" / "locales" / lang / "LC_MESSAGES" / "taskcore.po"


def test_a_new_message_without_translation_fails_the_check(tree: Path) -> None:
    (tree / "taskcore" / "new_text.py").write_text('from taskcore.i18n import _\n\nTEXT = _("Un texto nuevo")\n')
    found = problems(tree)
    assert any("'Un texto nuevo' is not in the catalog" in line and " pt:" in line for line in found)
    main(["update", str(tree)])
    after = problems(tree)
    assert not any("'Un texto nuevo' is not in the catalog" in line for line in after)
    assert {line.split(":")[0] for line in after if "'Un texto nuevo'" in line} == {"taskcore pt", "taskcore en"}
    assert all("has no translation" in line for line in after if "'Un texto nuevo'" in line)
    assert main(["check", str(tree)]) == 1


def test_a_translation_that_drops_a_placeholder_fails_the_check(tree: Path) -> None:
    po = _po(tree, "pt")
    text = po.read_text()
    assert 'msgstr "Idioma não disponível: «{word}»' in text
    po.write_text(text.replace('msgstr "Idioma não disponível: «{word}»', 'msgstr "Idioma não disponível: «{palavra}»'))
    assert any("placeholders ['choices', 'palavra']" in line for line in problems(tree))


def test_a_stale_compiled_catalog_fails_the_check(tree: Path) -> None:
    mo = _po(tree, "en").with_suffix(".mo")
    mo.write_bytes(mo.read_bytes()[:-8])
    assert any("en: taskcore.mo is not compiled from its .po" in line for line in problems(tree))


def test_placeholders_are_the_named_braces() -> None:
    assert placeholders("Tarea #{id} creada: {text} {{no}}") == {"id", "text", "no"}


@pytest.mark.parametrize(("lang", "name"), [("es", "Hoy"), ("pt", "Hoje"), ("en", "Today")])
def test_the_shipped_catalogs_translate(lang: str, name: str) -> None:
    with speaking(lang):
        assert _("Hoy") == name
    assert _("Hoy") == "Hoy"
    assert translations("xx").gettext("Hoy") == "Hoy"


@pytest.mark.parametrize(("lang", "rule"), [("es", "(n != 1)"), ("pt", "(n != 1)"), ("en", "(n != 1)")])
def test_the_compiled_header_names_no_babel_release_and_our_plural_rule(lang: str, rule: str) -> None:
    """The bytes of a compiled catalog do not depend on the Babel that made them: Babel 2.19 writes its version and
    gives Spanish three plural forms from its CLDR, and the check then failed on a clean clone whose Babel was the
    pinned 2.18."""
    import gettext  # noqa: PLC0415

    for domain in ("taskcore", "tasksvc_run"):
        base = SRC / ("taskcore/i18n/locales" if domain == "taskcore" else "tasksvc_run/locales")
        with (base / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as compiled:
            info = gettext.GNUTranslations(compiled).info()
        assert "generated-by" not in info
        assert info["plural-forms"] == f"nplurals=2; plural={rule};"


def test_the_plural_rule_is_the_catalog_s_own(tree: Path) -> None:
    """No table of languages beside the catalogs: each ``.po``'s header carries its rule, and the compiled file is
    checked against it."""
    po = _po(tree, "pt")
    text = po.read_text()
    assert text.startswith('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n')
    po.write_text(text.replace("plural=(n != 1);", "plural=(n > 1);", 1))
    assert "taskcore pt: taskcore.mo is not compiled from its .po (nox -s catalogs)" in problems(tree)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_check_reads_two_plural_forms_whatever_cldr_the_installed_babel_has(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel 2.19's CLDR gives Spanish and Portuguese a third form (a million of something): read with it, every
    plural message lacked a translation and the check failed under an unpinned install. The catalogs' own rule holds."""
    from babel.messages import catalog as babel_catalog  # noqa: PLC0415

    from taskcore.i18n import catalogs  # noqa: PLC0415

    monkeypatch.setattr(babel_catalog, "get_plural", lambda _locale: (3, "(n == 1 ? 0 : n % 1000000 == 0 ? 1 : 2)"))
    catalog = catalogs._read(catalogs._po_path(SRC, catalogs.DOMAINS[0], lang), lang, "taskcore")
    plurals = [message for message in catalog if message.id and not isinstance(message.id, str)]
    assert catalog.num_plurals == 2
    assert plurals
    assert all(len(message.string) == 2 and all(message.string) for message in plurals)
    assert list(catalogs._message_problems(catalog, lang, "taskcore")) == []
