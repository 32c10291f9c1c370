"""``new`` says the values its template set that no option gave (hunt23 #9): a new
reference or lit entry is written unread and a decision record proposed, values the
record's author did not state; they were written without a word."""

from __future__ import annotations

import pytest
from conftest import run_cli

UNREAD = (
    "set by the template: ak:readingStatus ak:unread (a new entry is unread; once read, "
    "ak:read with a note on it, as rule 5 asks)"
)
PROPOSED = (
    "set by the template: ak:status ak:proposed (a proposed record admits no category "
    "for rule 1; once accepted, ak:accepted)"
)


@pytest.fixture
def empty(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("kind", "identifier", "said"),
    [
        ("reference", "ARXIV-2401.00001", [UNREAD]),
        ("lit", "LIT-001", [UNREAD]),
        ("adr", "ADR-001", [PROPOSED]),
        ("sota", "SOTA-001", []),
        ("note", "NOTE-001", []),
    ],
)
def test_new_says_the_values_its_template_set(empty, kind, identifier, said):
    result = run_cli("new", kind, identifier, "--title", "T")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("set by the template")] == said
    written = (empty / "data" / f"{identifier}.ttl").read_text(encoding="utf-8")
    for line in said:  # what is said is what was written
        assert line.split(": ", 1)[1].split(" (")[0].split(" ")[1] in written


def test_quiet_new_prints_the_path_alone(empty):
    result = run_cli("-q", "new", "lit", "LIT-001", "--title", "T")
    assert (result.exit_code, result.stdout) == (0, "data/LIT-001.ttl\n")
