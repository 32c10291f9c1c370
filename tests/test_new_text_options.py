"""`new --title/--authors`: one line of text, not empty nor blank (hunt6 #9)."""

import pytest
from conftest import run_cli


@pytest.mark.parametrize(
    ("option", "value", "why"),
    [
        ("--authors", "Doe et al. (2024) — ARXIV-2501.00009\nKey takeaways", "holds a line break"),
        ("--authors", "Doe\r", "holds a line break"),
        ("--authors", " ", "is blank"),
        ("--authors", "", "is empty"),
        ("--title", "", "is empty"),
        ("--title", "\t", "is blank"),
        ("--title", "A\nB", "holds a line break"),
    ],
)
def test_a_text_option_new_cannot_write_as_given_is_refused(anthology, option, value, why):
    """Before, each passed with exit 0: a two-line ak:authors (a heading render broke),
    ak:authors " ", and an empty --title silently dropped."""
    before = sorted(p.name for p in (anthology / "data").iterdir())
    result = run_cli("new", "lit", "LIT-201", option, value)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert result.stderr.startswith(f"anthology-kg: {option} {value!r} {why}"), result.stderr
    assert sorted(p.name for p in (anthology / "data").iterdir()) == before


def test_one_line_authors_and_title_are_written(anthology):
    result = run_cli("new", "lit", "LIT-201", "--authors", "Doe et al.", "--title", "A title")
    assert result.exit_code == 0, result.stderr
    text = (anthology / "data" / "LIT-201.ttl").read_text("utf-8")
    assert 'ak:authors "Doe et al."' in text and '"A title"' in text
