"""The compiler's ``focus_graph``: each shape's focus nodes found once (its
``focus_queries``) and read from a graph give the results its targets give, on every
W3C SHACL test (core and SPARQL-based). The syntax check runs its rules this way."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from test_w3c_shacl import TESTS

from anthology_kg.shacl import Compiler, ShapesGraph, Unsupported, run_compiled, store_select
from anthology_kg.shacl.targets import FOCUS_NODE

DATA = ox.NamedNode("urn:test:data")
SHAPES = ox.NamedNode("urn:test:shapes")
FOCUS = ox.NamedNode("urn:test:focus")


def _rows(store: ox.Store, compiler: Compiler) -> set[tuple[object, ...]]:
    select = store_select(store, [DATA], ox_terms=True)
    return {
        (row.focus, row.path, row.value, row.source_constraint_component, row.source_shape)
        for row in run_compiled(select, compiler.compile())
    }


@pytest.mark.parametrize(("name", "details"), TESTS, ids=[t[0] for t in TESTS])
def test_focus_nodes_read_from_a_graph_give_the_same_results(name, details):
    store = ox.Store()
    for path, graph in ((details["data"], DATA), (details["shapes"], SHAPES)):
        store.load(path=path, format=ox.RdfFormat.TURTLE, base_iri=path.as_uri(), to_graph=graph)
    shapes = ShapesGraph(
        (q.subject, q.predicate, q.object)
        for q in store.quads_for_pattern(None, None, None, SHAPES)
    )
    given = Compiler(shapes, SHAPES.value, focus_graph=FOCUS)
    try:
        expected = _rows(store, Compiler(shapes, SHAPES.value))
    except Unsupported:
        with pytest.raises(Unsupported):
            given.compile()
        return
    select = store_select(store, [DATA], ox_terms=True)
    queries = given.focus_queries()
    for shape, query in queries:
        focus = [row["this"] for row in select(query)]
        store.extend(ox.Quad(shape, FOCUS_NODE, node, FOCUS) for node in focus)  # type: ignore[arg-type]
    assert _rows(store, given) == expected
