"""Long lists of a shape (sh:in, sh:languageIn, sh:or, sh:and, sh:xone) compile to a
balanced tree of operators (``sparql_rewrite.joined``): a flat chain of n costs pyoxigraph
time quadratic in n to plan and recursion as deep as n."""

from __future__ import annotations

import itertools

import pyoxigraph as ox
import pytest
from rdflib import Graph

from anthology_kg.shacl import Compiler, run_compiled, store_select
from anthology_kg.shacl.sparql_rewrite import joined
from anthology_kg.sparql_text import longest_chain, nesting_depth

#: A boolean, and an expression whose evaluation is an error (SPARQL 17.2).
_VALUES = ("true", "false", 'xsd:boolean("x")')


@pytest.mark.parametrize("operator", ["||", "&&"])
def test_the_tree_is_the_chain_with_errors_too(operator):
    """The regrouping changes no answer: every sequence of up to four operands that are
    true, false or an error gives the flat chain's value (error: the row unbound)."""
    store = ox.Store()
    for length in range(1, 5):
        for operands in itertools.product(_VALUES, repeat=length):
            flat = f" {operator} ".join(operands)
            tree = joined(list(operands), operator, "")
            query = (
                "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> "
                f"SELECT ?flat ?tree WHERE {{ BIND (({flat}) AS ?flat) BIND ({tree} AS ?tree) }}"
            )
            (row,) = store.query(query)
            assert row["flat"] == row["tree"], (operator, operands)


def test_a_long_in_list_compiles_to_a_shallow_tree_and_finds_what_the_list_lacks():
    members = " ".join(f'"v{i}"' for i in range(2000))
    shapes = Graph().parse(
        data="@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:in> a sh:NodeShape ; sh:targetSubjectsOf <urn:name> ; sh:property "
        f"[ sh:path <urn:name> ; sh:in ( {members} ) ] .\n",
        format="turtle",
    )
    compiled = Compiler(shapes).compile()
    assert max(longest_chain(c.sparql) for c in compiled) <= 4
    assert max(nesting_depth(c.sparql) for c in compiled) <= 22  # log2(2,000): 11 levels
    store, data = ox.Store(), ox.NamedNode("urn:data")
    for subject, name in (("urn:a", "v1999"), ("urn:b", "w"), ("urn:c", "v0")):
        store.add(ox.Quad(ox.NamedNode(subject), ox.NamedNode("urn:name"), ox.Literal(name), data))
    rows = run_compiled(store_select(store, [data], ox_terms=True), compiled)
    assert [(row.focus, row.value) for row in rows] == [(ox.NamedNode("urn:b"), ox.Literal("w"))]


def test_joined_keeps_the_forms_of_short_lists():
    assert joined([], "||", "(false)") == "(false)"
    assert joined(["a"], "||", "(false)") == "(a)"
    assert joined(["a", "b"], "&&", "(true)") == "(a && b)"
    assert joined(["a", "b", "c", "d"], "+", "(0)") == "((a + b) + (c + d))"


def test_a_shape_of_many_constraints_conforms_by_a_shallow_tree():
    """A shape's own tests, read where another shape asks whether a node conforms to it
    (sh:node), and a qualified value shape's disjoint siblings are joined by ``&&`` as
    sh:and's members are: 64 of them chain at most a few operators in one group."""
    properties = " ; ".join(
        f"sh:property [ sh:path <urn:p{i}> ; sh:maxCount 1 ]" for i in range(64)
    )
    siblings = " ; ".join(
        f"sh:property [ sh:path <urn:q> ; sh:qualifiedValueShape [ sh:class <urn:C{i}> ] ; "
        "sh:qualifiedMaxCount 1 ; sh:qualifiedValueShapesDisjoint true ]"
        for i in range(64)
    )
    shapes = Graph().parse(
        data="@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:outer> a sh:NodeShape ; sh:targetSubjectsOf <urn:p3> ; sh:node <urn:inner> .\n"
        f"<urn:inner> a sh:NodeShape ; {properties} .\n"
        f"<urn:qualified> a sh:NodeShape ; sh:targetNode <urn:a> ; {siblings} .\n",
        format="turtle",
    )
    compiled = Compiler(shapes).compile()
    assert max(longest_chain(c.sparql) for c in compiled) <= 4
    store, data = ox.Store(), ox.NamedNode("urn:data")
    for value in ("x", "y"):  # two values of urn:p3: urn:a does not conform to urn:inner
        store.add(ox.Quad(ox.NamedNode("urn:a"), ox.NamedNode("urn:p3"), ox.Literal(value), data))
    rows = run_compiled(store_select(store, [data], ox_terms=True), compiled)
    assert [(row.focus, str(row.source_shape)) for row in rows] == [
        (ox.NamedNode("urn:a"), "urn:outer")
    ]
