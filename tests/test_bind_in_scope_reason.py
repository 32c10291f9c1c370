"""A query pyoxigraph refuses without a reason is refused with the reference engine's
(asked only then): a BIND of a variable in scope said 'expected [_]' or 'expected
OPTIONAL' on the fast engine, at the end of the text, an IRI no BASE makes absolute
'expected OPTIONAL'; now both engines say the same, at no line (pyoxigraph's position is
where it stopped reading, the end)."""

from __future__ import annotations

import pytest
from conftest import ENGINES, own_shapes, run_cli

from anthology_kg import rdflib_sparql

BOUND = "?x is bound by BIND where it is in scope already"
#: (a query, what is said of it)
QUERIES = {
    "two BINDs": ("SELECT ?x WHERE { BIND(1 AS ?x) BIND(2 AS ?x) }", BOUND),
    "VALUES then BIND": ("SELECT ?x WHERE { VALUES ?x {1} BIND(2 AS ?x) }", BOUND),
    # (pyoxigraph: 'expected OPTIONAL' at 6:7)
    "lines after": (
        "SELECT ?x WHERE {\n  ?s ?p ?o .\n  BIND(1 AS ?x)\n  BIND(?o AS ?x)\n}\nLIMIT 3",
        BOUND,
    ),
    # (pyoxigraph: 'expected one of GRAPH, MINUS, [_]')
    "in a sub-SELECT": (
        "SELECT * WHERE { ?s ?p ?o { SELECT ?x WHERE { BIND(1 AS ?x) BIND(2 AS ?x) } } }",
        BOUND,
    ),
    "a relative IRI": (
        "SELECT * WHERE { <a> ?p ?o }",
        "<a> is no absolute IRI, and no BASE resolves it",
    ),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", QUERIES, ids=list(QUERIES))
def test_the_reason_is_the_reference_engines_on_both(nothing, engine, case):
    text, said = QUERIES[case]
    query = nothing / "q.rq"
    query.write_text(text + "\n", encoding="utf-8")
    result = run_cli("--root", str(nothing), "sparql", str(query), "--engine", engine)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == f"{query}: SPARQL syntax error: {said}\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shapes_bind_of_a_variable_in_scope_is_said_so(tmp_path, engine):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
        '  sh:sparql [ sh:select """SELECT $this WHERE { $this ?p ?o'
        ' BIND(1 AS ?x) BIND(2 AS ?x) }""" ] .\n'
    )
    args = own_shapes(tmp_path, shapes, "<http://ex.org/a> <http://ex.org/p> 1 .\n")
    result = run_cli(*args, "--engine", engine)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        f"{tmp_path / 's.ttl'}:4: a shape in <http://ex.org/S>: sh:select: not a SPARQL "
        f"SELECT query: {BOUND} (a syntax rule of SHACL)\n"
    )


def test_a_good_query_does_not_ask_the_reference_engine(nothing, monkeypatch):
    def asked(text: str) -> str | None:
        raise AssertionError(f"asked for {text}")

    monkeypatch.setattr(rdflib_sparql, "refusal", asked)
    query = "SELECT ?x WHERE { BIND(1 AS ?x) BIND(2 AS ?y) }"
    result = run_cli("--root", str(nothing), "sparql", "-", "--engine", "fast", input=query)
    assert (result.exit_code, result.stdout) == (0, "x\n-\n1\n(1 row)\n"), result.stderr
