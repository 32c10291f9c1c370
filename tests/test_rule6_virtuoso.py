"""Rule 6's algorithm check (aks:Rule6RangeNamesAlgorithm's second constraint) gives a
store the local rows: an algorithm typed with an anthology's own subclass of
ak:Algorithm is one on Virtuoso 7.2 too, whose rdfs:subClassOf* entered from a bound
type kept its first match only (three false results on this fixture before)."""

from __future__ import annotations

from conftest import FIXTURES, run_cli
from stores import virtuoso  # noqa: F401  (a real Virtuoso, module fixture)
from test_pushdown import VIRTUOSO_GRAPH, _compare_on_virtuoso

ROOT = FIXTURES / "rule6-subclass-algorithms"


def test_subclass_algorithms_conform_locally_on_both_engines():
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(ROOT), "check", "--engine", engine)
        assert result.exit_code == 0, (engine, result.output)


def test_virtuoso_gives_no_result_for_an_algorithm_of_a_subclass(virtuoso):  # noqa: F811
    assert _compare_on_virtuoso(virtuoso, ROOT, VIRTUOSO_GRAPH) == []
