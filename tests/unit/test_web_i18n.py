"""The shells' catalogs (SPEC section 24): tasksvc_run writes its texts through its own ``_``, the templates use the
``{name}`` placeholders the catalogs' check compares, and Accept-Language picks one of our languages."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from taskcore.i18n import speaking
from taskcore.i18n.catalogs import DOMAINS, extract
from tasksvc_run.i18n import _
from tasksvc_run.problems import problem_title
from tasksvc_run.web.language import accepted_language
from tasksvc_run.web.templating import make_templates

SRC = Path(__file__).resolve().parents[2] / "src"


def _taskcore_gettext_imports(path: Path, root: Path = SRC) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(root)}:{node.lineno}" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "taskcore.i18n"
            and any(alias.name == "_" for alias in node.names)]


def test_no_tasksvc_run_module_reads_taskcores_catalogs_for_its_texts() -> None:
    found = [hit for path in sorted((SRC / "tasksvc_run").rglob("*.py")) for hit in _taskcore_gettext_imports(path)]
    assert found == [], "take _ from tasksvc_run.i18n: taskcore's catalogs do not hold the shells' texts"


def test_the_check_catches_an_import_of_taskcores_underscore(tmp_path: Path) -> None:
    module = SRC / "tasksvc_run" / "web" / "pages.py"
    assert _taskcore_gettext_imports(module) == []
    bad = tmp_path / "probe.py"
    bad.write_text("from taskcore.i18n import N_, _\n")
    assert _taskcore_gettext_imports(bad, tmp_path) == ["probe.py:1"]


def test_the_shells_messages_use_the_named_brace_placeholders_only() -> None:
    (domain,) = [d for d in DOMAINS if d.name == "tasksvc_run"]
    ids = [m.id if isinstance(m.id, str) else m.id[0] for m in extract(SRC, domain) if m.id]
    assert ids
    assert not [text for text in ids if "%(" in text or "%s" in text]


@pytest.mark.parametrize(("lang", "text"), [("es", "Mis tareas"), ("pt", "Minhas tarefas"), ("en", "My tasks")])
def test_the_shells_catalogs_translate(lang: str, text: str) -> None:
    with speaking(lang):
        assert _("Mis tareas") == text
        assert _("Vence el {date}", date="20/11").endswith("20/11")


def test_template_texts_escape_their_values_and_keep_their_markup() -> None:
    template = make_templates().from_string('{{ _("Entrar como {who}", who=name) }} {% trans %}Tareas{% endtrans %}')
    with speaking("en"):
        assert template.render(name="<b>Ana</b>") == "Sign in as &lt;b&gt;Ana&lt;/b&gt; Tasks"


@pytest.mark.parametrize(("header", "lang"), [
    ("pt-BR", "pt"), ("pt-PT", "pt"), ("en-GB", "en"), ("en-US,en;q=0.9", "en"), ("es-MX", "es"),
    ("fr-FR, de;q=0.9, en;q=0.1", "en"), ("fr", None), ("", None), (None, None), ("en;q=0, pt;q=0.4", "pt"),
    ("en;q=zzz, pt", "pt"), ("*", None), ("PT-BR", "pt"), ("EN-gb, es;q=0.5", "en"), ("ES", "es"), ("Pt", "pt"),
])
def test_accept_language_picks_one_of_ours(header: str | None, lang: str | None) -> None:
    assert accepted_language(header) == lang


@pytest.mark.parametrize(("lang", "not_found", "other"), [
    ("es", "No encontrado", "Error del cliente (418)"), ("pt", "Não encontrado", "Erro do cliente (418)"),
    ("en", "Not Found", "Client error (418)"),
])
def test_every_problem_title_is_in_the_reader_s_language(lang: str, not_found: str, other: str) -> None:
    with speaking(lang):
        assert problem_title(404) == not_found
        assert problem_title(418) == other
        assert all(problem_title(status) != "" for status in range(400, 600))
