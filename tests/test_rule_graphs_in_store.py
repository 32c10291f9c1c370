"""The Oxigraph engine copies the rule graphs (ontology, shapes, vocabulary) into its
store as they are asked for: a validation without inference copies none (it lends the
vocabulary's triples to the data graph), unless a shape's query may read a named graph
(``GRAPH``, ``FROM``), which then sees every rule graph as a query does."""

from __future__ import annotations

import pytest
from conftest import own_shapes, run_cli

from anthology_kg.engine import open_engine
from anthology_kg.fast import ONTOLOGY, SHAPES, VOCABULARY
from anthology_kg.validation import validate

DATA = "@prefix ex: <http://example.org/> .\nex:a ex:p 1 .\n"
PREFIXES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://example.org/> .\n"
    "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
)


def test_a_validation_copies_no_rule_graph_and_a_query_every_one(tmp_path):
    shapes = (
        PREFIXES
        + "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
        + "  sh:property [ sh:path ex:p ; sh:maxCount 1 ] .\n"
    )
    args = own_shapes(tmp_path, shapes, DATA)
    engine = open_engine("fast", root=tmp_path, extra_shapes=[tmp_path / "s.ttl"], validates=True)
    assert validate(engine).results == []
    assert engine._rules_in_store == set()
    engine.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1", parts=("data", "ontology", "shapes"))
    assert engine._rules_in_store == {ONTOLOGY, SHAPES, VOCABULARY}
    assert run_cli(*args).exit_code == 0


#: A shape's query reading a named graph: the shapes graph ($shapesGraph), and any graph
#: (the ontology's rdfs:comment, which neither the data nor the vocabulary holds).
READING_NAMED_GRAPHS = {
    "shapes graph": "GRAPH $shapesGraph { ?shape <http://www.w3.org/ns/shacl#targetNode> $this }",
    "any graph": "GRAPH ?g { ?class <http://www.w3.org/2000/01/rdf-schema#comment> ?said }",
}


@pytest.mark.parametrize("name", READING_NAMED_GRAPHS)
def test_a_shape_reading_a_named_graph_sees_it(tmp_path, name):
    shapes = PREFIXES + (
        'ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:select """'
        f"SELECT $this WHERE {{ {READING_NAMED_GRAPHS[name]} }}"
        '""" ] .\n'
    )
    result = run_cli(*own_shapes(tmp_path, shapes, DATA))
    assert result.exit_code == 1, result.output
    assert "1 violation(s)" in result.output
