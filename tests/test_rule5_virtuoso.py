"""Rule 5's unread-with-a-note check (aks:Rule5UnreadHasNoNote) gives a store the local
rows: a note of two types, of a subclass of ak:Note or of a subclass of that is one on
Virtuoso 7.2 too, which found only the second of the fixture's three (its
rdfs:subClassOf* entered from a bound type keeps its first match), and none once the
note was reached by `^ak:noteOn|ak:hasNote` with the path walked back from ak:Note."""

from __future__ import annotations

from conftest import FIXTURES, run_cli
from stores import virtuoso  # noqa: F401  (a real Virtuoso, module fixture)
from test_pushdown import VIRTUOSO_GRAPH, _compare_on_virtuoso

ROOT = FIXTURES / "rule5-subclass-notes"


def test_each_unread_entry_with_a_note_is_found_locally_on_both_engines():
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(ROOT), "check", "--engine", engine)
        assert result.exit_code == 1, (engine, result.output)
        assert result.stdout.count("AK005") == 3, (engine, result.stdout)


def test_virtuoso_finds_the_three_as_locally(virtuoso):  # noqa: F811
    rows = _compare_on_virtuoso(virtuoso, ROOT, VIRTUOSO_GRAPH)
    assert len(rows) == 3
