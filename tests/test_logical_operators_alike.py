"""SPARQL's ``&&`` and ``||`` in a shape's SPARQL constraint give the same results on both
engines (SPARQL 1.1, 17.2: a false operand makes ``&&`` false and a true one makes ``||``
true even where another operand is an error or an unbound variable). The reference engine
evaluates them in reference_shacl (``_and_in_order``, ``_or_in_order``); rdflib's own
raised at the first error, so ``FILTER (!(?value / 0 && false))`` kept no row there."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

ENTRY = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
    'id:LIT-901 a ak:LiteratureRecord ; dcterms:identifier "LIT-901" ;\n'
    '    dcterms:title "t" ; <http://ex.org/num> 1, 2 .\n'
)
#: Filters that keep every value by SPARQL's rules, each beside an error or unbound operand.
FILTERS = [
    "!((?value / 0) && false)",
    "!(false && (?value / 0))",
    "!(?nothing && false)",
    "(?value / 0) || true",
    "true || ?nothing",
    "(?value > 0) && (?value < 3)",
]


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logical")
    (folder / "data").mkdir()
    (folder / "data" / "LIT-901.ttl").write_text(ENTRY, encoding="utf-8")
    return folder


@pytest.mark.parametrize("condition", FILTERS)
def test_a_shapes_logical_operator_keeps_the_rows_sparql_keeps_on_both_engines(
    root, tmp_path, condition
):
    shapes = tmp_path / "mine.ttl"
    shapes.write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
        "<http://ex.org/S> a sh:NodeShape ; sh:targetNode id:LIT-901 ;\n"
        '  sh:sparql [ sh:message "kept" ; sh:select """SELECT $this ?value WHERE {\n'
        f'    $this <http://ex.org/num> ?value FILTER ({condition}) }}""" ] .\n',
        encoding="utf-8",
    )
    kept = {}
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(root), "validate", "--shapes", str(shapes),
                         "--format", "json", "--engine", engine)  # fmt: skip
        assert result.exit_code == 1, (engine, result.output)
        results = json.loads(result.stdout)["results"]
        kept[engine] = sorted(r["value"] for r in results if r["message"] == "kept")
    assert kept["fast"] == kept["reference"] == ["1", "2"]
