"""``COALESCE()`` of no argument is an expression error on both engines (SPARQL 1.1,
17.4.1.4), in a query and in a shape's SPARQL (hunt18 #2): rdflib gave ``'h'``, the first
letter of ``rdf:nil``'s text, which the result formats could not write (a traceback,
exit 1) and a shape reported as a value."""

from __future__ import annotations

import pytest
from conftest import ENGINES, answered_alike, own_shapes, run_cli

QUERY = 'SELECT ?none ?first WHERE { BIND(COALESCE() AS ?none) BIND(COALESCE(1/0, "x") AS ?first) }'


@pytest.mark.parametrize("form", ["csv", "json", "table"])
def test_coalesce_of_nothing_is_unbound(form):
    printed = answered_alike("sparql", "-", "--format", form, input=QUERY)
    if form == "csv":
        assert printed.splitlines() == ["none,first", ",x"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shape_binding_coalesce_of_nothing_finds_nothing(tmp_path, engine):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
        'ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:message "got {?value}" ;'
        ' sh:select """SELECT $this ?value WHERE { BIND(COALESCE() AS ?value)'
        ' FILTER(BOUND(?value)) }""" ] .\n'
    )
    result = run_cli(
        *own_shapes(tmp_path, shapes, "<http://ex.org/a> <http://ex.org/p> 1 .\n"),
        "--engine",
        engine,
    )
    assert result.exit_code == 0, result.output
