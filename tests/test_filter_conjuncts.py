"""rdflib's engine (stored queries, and pySHACL's through reference_shacl) tests the
conjuncts of a group's FILTER that read nothing its OPTIONAL binds before the OPTIONAL
joins, and the rest after it (``rdflib_sparql.filters_before_optionals``): the rows of
rdflib's own evaluation, with the OPTIONAL asked only for the rows the first kept."""

from __future__ import annotations

import pytest
from rdflib import BNode, Graph
from rdflib.plugins.sparql import prepareQuery

from anthology_kg.rdflib_sparql import evaluate, prepare
from anthology_kg.reference_shacl import _prepare

DATA = """
<urn:a> <urn:p> <urn:b>, <urn:c>, "text", 3, _:x ; <urn:q> <urn:b> .
<urn:b> <urn:id> "B" ; <urn:p> <urn:a> .
<urn:d> <urn:p> <urn:e>, <urn:c> .
<urn:e> <urn:other> 1 .
_:x <urn:id> "X" .
"""

#: Rule 9's form: an OPTIONAL's variable tested unbound beside tests of the rows before.
#: (``?o + 0 > 1``, not ``?o > 1``: rdflib's own took "text" > 1 to be true, where this
#: package's comparison, SPARQL's, is an error: ``sparql_logic.compared``.)
QUERIES = {
    "rule 9": """SELECT ?s ?o WHERE { ?s <urn:p> ?o .
        FILTER (isIRI(?o))
        OPTIONAL { ?o <urn:id> ?id }
        FILTER (!BOUND(?id))
        FILTER (NOT EXISTS { ?o ?any ?thing } || ?s = <urn:a>) }""",
    "an error in a conjunct that moves": """SELECT ?s ?o WHERE { ?s <urn:p> ?o .
        OPTIONAL { ?o <urn:id> ?id } FILTER (?o + 0 > 1 || isIRI(?o)) FILTER (!BOUND(?id)) }""",
    "one that reads the OPTIONAL inside EXISTS": """SELECT ?s ?o ?id WHERE { ?s <urn:p> ?o .
        OPTIONAL { ?o <urn:id> ?id } FILTER (isIRI(?s) && NOT EXISTS { ?s <urn:q> ?id }) }""",
    "two OPTIONALs": """SELECT ?s ?o ?id ?n WHERE { ?s <urn:p> ?o .
        OPTIONAL { ?o <urn:id> ?id } OPTIONAL { ?o <urn:other> ?n }
        FILTER (isIRI(?o) && !BOUND(?n) && ?s != <urn:d>) }""",
}


def shown(rows) -> list:
    """The rows, a blank node as ``_`` (each parse of DATA labels its own)."""
    return sorted(tuple("_" if isinstance(t, BNode) else str(t) for t in row) for row in rows)


def rdflibs_own(text: str) -> list:
    return shown(Graph().parse(data=DATA, format="turtle").query(prepareQuery(text)))


@pytest.mark.parametrize("name", QUERIES)
def test_the_rows_are_rdflibs_own(name):
    graph = Graph().parse(data=DATA, format="turtle")
    found = evaluate(graph, QUERIES[name])
    assert shown(found.rows) == rdflibs_own(QUERIES[name])


def _filters(part) -> list:
    """The Filter nodes from the top of an algebra down its first operands."""
    found = []
    while part is not None and hasattr(part, "name"):
        if part.name == "Filter":
            found.append(part)
        part = dict.get(part, "p", dict.get(part, "p1"))
    return found


def _names(expression) -> set[str]:
    names = {expression.name}
    for operand in dict.get(expression, "other") or ():
        names.add(getattr(operand, "name", ""))
    if expression.name == "ConditionalAndExpression":
        names.add(dict.get(expression, "expr").name)
    return names


@pytest.mark.parametrize("prepared", [prepare, lambda text: _prepare(text, None, ())])
def test_the_conjuncts_that_read_no_optional_are_tested_first(prepared):
    outer, inner = _filters(prepared(QUERIES["rule 9"]).algebra)
    # isIRI(?o), then the OPTIONAL, then !BOUND(?id) and the NOT EXISTS written after it
    assert _names(inner["expr"]) == {"Builtin_isIRI"}
    assert _names(outer["expr"]) == {
        "ConditionalAndExpression",
        "UnaryNot",
        "ConditionalOrExpression",
    }
    assert dict.get(outer, "p").name == "LeftJoin"


def test_a_conjunct_reading_the_optional_inside_exists_stays_after_it():
    outer, inner = _filters(prepare(QUERIES["one that reads the OPTIONAL inside EXISTS"]).algebra)
    assert (
        _names(outer["expr"]) == {"Builtin_NOTEXISTS"} and dict.get(outer, "p").name == "LeftJoin"
    )
    assert _names(inner["expr"]) == {"Builtin_isIRI"}
    # ?s != <urn:d> reads no OPTIONAL, but is written after !BOUND(?n): tested after it
    outer, inner = _filters(prepare(QUERIES["two OPTIONALs"]).algebra)
    assert _names(inner["expr"]) == {"Builtin_isIRI"}
    assert {"UnaryNot", "RelationalExpression"} <= _names(outer["expr"])


def test_an_or_reads_the_graph_last_on_the_reference_engine():
    """reference_shacl's ``||``: the operands holding an EXISTS after the others (rule 9's
    NOT EXISTS after its list of paths), rdflib's rows."""
    text = """SELECT ?s ?o WHERE { ?s <urn:p> ?o
        FILTER (NOT EXISTS { ?o ?any ?thing } || isLiteral(?o) || ?o = <urn:e>) }"""
    (only,) = _filters(_prepare(text, None, ()).algebra)
    disjunction = only["expr"]
    operands = [dict.get(disjunction, "expr"), *dict.get(disjunction, "other")]
    assert [o.name for o in operands] == [
        "Builtin_isLITERAL",
        "RelationalExpression",
        "Builtin_NOTEXISTS",
    ]
    graph = Graph().parse(data=DATA, format="turtle")
    assert shown(graph.query(_prepare(text, None, ()))) == rdflibs_own(text)
    assert len(rdflibs_own(text)) == 5
