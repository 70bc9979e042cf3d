"""The configuration reference is generated from Settings and committed as docs/configuration.md."""

from pathlib import Path

from taskcore.settings import Settings
from tasksvc_run.confref import MEANINGS, reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_every_setting_has_a_meaning_and_no_meaning_is_stale() -> None:
    assert set(MEANINGS) == set(Settings.model_fields)


def test_the_committed_reference_equals_the_generated_one() -> None:
    assert DOC.read_text(encoding="utf-8") == reference(), "run: tasksvc config-reference > docs/configuration.md"


def test_the_reference_names_every_variable_in_upper_case_with_its_default() -> None:
    text = reference()
    assert "| `RATE_LIMIT_PER_MIN` | `15` |" in text
    assert "| `TZ` | `Europe/Madrid` |" in text
