"""A query's prefixes are only those its PREFIX lines declare (SPARQL 1.1, 4.1.1.1 and
19.5), on both engines: the reference engine answered a query using one of rdflib's ~30
own prefixes undeclared (``xsd:``, ``rdf:``, ``owl:``, ``schema:`` ...) where the fast
engine refuses it, exit 2. And a prefix no PREFIX declares, written before a syntax
error, is the error said, on both engines."""

from __future__ import annotations

import pytest
from conftest import ENGINES, answered_alike, own_shapes, run_cli

#: (a query, the line and column of its first undeclared prefix, the prefix)
QUERIES = {
    "xsd: in an ASK": ("ASK { ?s xsd:x ?o }", 1, 10, "xsd"),
    "rdf: in a SELECT": ("SELECT * WHERE { ?s rdf:type ?o }", 1, 21, "rdf"),
    "owl: in a CONSTRUCT": ("CONSTRUCT { ?s a owl:Thing } WHERE { ?s ?p ?o }", 1, 18, "owl"),
    "schema: in a FILTER": (
        "SELECT * WHERE { ?s ?p ?o FILTER(?p = schema:name) }",
        1,
        39,
        "schema",
    ),
    "xsd: as a function": ('SELECT (xsd:integer("1") AS ?n) WHERE { }', 1, 9, "xsd"),
    # A syntax error after the prefix: the prefix is the first error (review46 #4; the
    # reference engine said rdflib's later 'Expected end of text')
    "then a bad LIMIT": ("SELECT * WHERE { ?s ex:p ?o } LIMIT x", 1, 21, "ex"),
    "then an open FILTER": ("SELECT * WHERE { ?s ex:p ?o . FILTER( }", 1, 21, "ex"),
    "then lines apart": ("SELECT * WHERE {\n  ?s ex:p ?o\n}\nLIMIT x", 2, 6, "ex"),
    "after an escape": ('SELECT * WHERE { ?s ?p "\\u0041" . ?s ex:p ?o } LIMIT x', 1, 38, "ex"),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", QUERIES, ids=list(QUERIES))
def test_an_undeclared_prefix_is_said(engine, case):
    text, line, column, prefix = QUERIES[case]
    result = run_cli("sparql", "-", "--engine", engine, input=text)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        f"<stdin>:{line}: SPARQL syntax error at column {column}: the prefix {prefix}: is "
        "declared by no PREFIX\n"
    )


def test_a_declared_one_is_answered():
    text = (
        "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
        "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
        'SELECT (COUNT(*) AS ?n) (xsd:integer("1") AS ?one) WHERE { ?s rdf:type ?o }'
    )
    assert answered_alike("sparql", "-", "--format", "csv", input=text).endswith(",1\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shapes_prefix_is_its_sh_prefixes(tmp_path, engine):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        'ex:Decl sh:declare [ sh:prefix "xsd" ;\n'
        '  sh:namespace "http://www.w3.org/2001/XMLSchema#" ] .\n'
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:prefixes ex:Decl ;\n"
        '  sh:message "typed" ; sh:select """SELECT $this WHERE { $this ?p ?v'
        ' FILTER(datatype(?v) = xsd:integer) }""" ] .\n'
    )
    result = run_cli(
        *own_shapes(tmp_path, shapes, "<http://ex.org/a> <http://ex.org/p> 1 .\n"),
        "--engine",
        engine,
    )
    assert result.exit_code == 1 and "typed" in result.stdout, result.output
