"""Paths compiled for a pyoxigraph store (``Compiler(bound_paths=True)``) are walked from
the node their pattern starts at. SPARQL's algebra splits a sequence at the top of a
pattern into a join on a fresh variable, and pyoxigraph walks a ``*`` step of such a join
from every node of the graph: the shapes' syntax check (SHACL-SHACL's rules) of one
shape with a list of n members beside a path that is a list took time quadratic in n
(600 members: 11 s)."""

from __future__ import annotations

import re

import pyoxigraph as ox

from anthology_kg.shacl import Compiler, run_compiled, store_select
from anthology_kg.shacl.graph import ShapesGraph
from anthology_kg.shacl.syntax import _rules, syntax_results

# A property path of a compiled pattern: no spaces, between two terms ("?s PATH ?o .").
_PATH_PATTERN = re.compile(r"(?:\?\w+|<[^>\s]*>) ([(^][^\s]*) (?:\?\w+|<[^>\s]*>) \.")
_IRI = re.compile(r"\^?<[^>\s]*>")


def _top(path: str, operator: str) -> list[str]:
    """``path`` cut at each ``operator`` outside parentheses and IRIs."""
    parts, depth, start, inside_iri = [], 0, 0, False
    for index, char in enumerate(path):
        inside_iri = (inside_iri or char == "<") and char != ">"
        if inside_iri:
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and char == operator:
            parts.append(path[start:index])
            start = index + 1
    return [*parts, path[start:]]


def _bare(path: str) -> str:
    """``path`` without the inverses and the parentheses around all of it."""
    while True:
        if path.startswith("^"):
            path = path[1:]
        elif path.startswith("(") and _top(path, ")") == [path[:-1], ""]:
            path = path[1:-1]  # (the parenthesis it starts with closes at its end)
        else:
            return path


def split_steps(path: str) -> list[str]:
    """The steps of ``path`` that SPARQL's algebra joins on fresh variables when it
    is at the top of a pattern: those of a sequence, through inverses and nested
    sequences; none for a path that is no sequence."""
    steps = _top(_bare(path), "/")
    if len(steps) == 1:
        return []
    return [step for part in steps for step in (split_steps(part) or [_bare(part)])]


def walked_from_every_node(sparql: str) -> list[str]:
    """The paths of ``sparql``'s patterns that pyoxigraph walks from every node of the
    graph: a sequence at the top holding a step other than a predicate (or inverse)."""
    return [
        path
        for path in _PATH_PATTERN.findall(sparql)
        if any(not _IRI.fullmatch(step) for step in split_steps(path))
    ]


def test_the_checker_finds_the_split_forms():
    rest, first = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>", "<urn:first>"
    split = [f"(({rest})*/{first})", f"({rest}/({rest})*)", "^(<urn:p>/(<urn:q>)*)"]
    whole = [f"({rest})+", f"((({rest})*/{first})|(({rest})*/{first}))", f"({rest}/{first})"]
    for path in split + whole:
        assert walked_from_every_node(f"?s {path} ?o .") == ([path] if path in split else [])


def test_the_syntax_rules_walk_every_path_from_its_start():
    """SHACL-SHACL's rules as the syntax check compiles them: no pattern's path is walked
    from every node (their list paths, rdf:rest* and rdf:rest+, were)."""
    _, compiled, _, _ = _rules(None)
    found = {path for c in compiled for path in _PATH_PATTERN.findall(c.sparql)}
    assert any("*" in path for path in found)  # (the checker sees the paths)
    assert [p for c in compiled for p in walked_from_every_node(c.sparql)] == []


PATH_SHAPES = """@prefix ex: <urn:ex:> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
ex:S a sh:NodeShape ; sh:targetClass ex:Thing ;
  sh:property ex:Plus, ex:PlusCount, ex:StarLast, ex:StarFirst, ex:InverseSequence, ex:Nested .
ex:Plus sh:path [ sh:oneOrMorePath ex:next ] ; sh:class ex:Link .
ex:PlusCount sh:path [ sh:oneOrMorePath ex:next ] ; sh:maxCount 3 .
ex:StarLast sh:path ( ex:p [ sh:zeroOrMorePath ex:next ] ) ; sh:maxCount 1 .
ex:StarFirst sh:path ( [ sh:zeroOrMorePath ex:next ] ex:p ) ; sh:minCount 2 .
ex:InverseSequence sh:path [ sh:inversePath ( ex:p [ sh:oneOrMorePath ex:next ] ) ] ;
  sh:minCount 1 .
ex:Nested sh:path ( ex:p [ sh:alternativePath ( ex:next ex:q ) ] ) ;
  sh:property [ sh:path [ sh:oneOrMorePath ex:next ] ; sh:class ex:Link ] .
ex:T a sh:NodeShape ; sh:targetClass ex:Link ; sh:property ex:AlternativeOfOne .
ex:AlternativeOfOne sh:path [ sh:alternativePath ( ( [ sh:inversePath ex:p ]
  [ sh:zeroOrMorePath ex:next ] ) ) ] ; sh:minCount 1 .
"""

# Cycles back to the start (a, b; c, d), which Virtuoso 7.2 answers p+ wrongly on.
PATH_DATA = """@prefix ex: <urn:ex:> .
ex:a a ex:Thing ; ex:next ex:b ; ex:p ex:c .
ex:b a ex:Link, ex:Thing ; ex:next ex:a, ex:c .
ex:c ex:next ex:d ; ex:q ex:e .
ex:d a ex:Link ; ex:next ex:c ; ex:p ex:a .
ex:e a ex:Thing .
"""


def test_the_bound_paths_give_the_rows_of_the_portable_ones():
    """Every path form, with cycles back to the start: the same results either way."""
    store, data = ox.Store(), ox.NamedNode("urn:data")
    store.extend(ox.Quad(q.subject, q.predicate, q.object, data) for q in ox.parse(
        PATH_DATA, format=ox.RdfFormat.TURTLE
    ))  # fmt: skip
    shapes = ShapesGraph(
        (q.subject, q.predicate, q.object)
        for q in ox.parse(PATH_SHAPES, format=ox.RdfFormat.TURTLE)
    )
    select = store_select(store, [data], ox_terms=True)
    bound = Compiler(shapes, bound_paths=True).compile()
    portable = Compiler(shapes).compile()
    assert [walked_from_every_node(c.sparql) for c in bound] == [[] for _ in bound]
    assert any(walked_from_every_node(c.sparql) for c in portable)

    def rows(compiled):
        return sorted(
            (str(r.source_shape), str(r.focus), str(r.value))
            for r in run_compiled(select, compiled)
        )

    found = rows(bound)
    assert found == rows(portable)
    assert len({row[0] for row in found}) == 7  # (every shape has results: none is vacuous)


def test_a_long_list_beside_a_list_path_is_checked_alike():
    """The syntax check's rows for a 300-member sh:in beside a path that is a list,
    one of them ill-formed: the one problem, at the one-member alternative."""
    members = " ".join(f'"v{i}"' for i in range(300))
    turtle = f"""@prefix sh: <http://www.w3.org/ns/shacl#> .
    <urn:in> a sh:NodeShape ; sh:targetSubjectsOf <urn:p> ;
        sh:property [ sh:path <urn:p> ; sh:in ( {members} ) ] .
    <urn:seq> a sh:PropertyShape ; sh:targetNode <urn:x> ; sh:path ( <urn:a> <urn:b> ) .
    <urn:alt> a sh:PropertyShape ; sh:targetNode <urn:x> ;
        sh:path [ sh:alternativePath ( <urn:a> ) ] ."""
    triples = [
        (q.subject, q.predicate, q.object) for q in ox.parse(turtle, format=ox.RdfFormat.TURTLE)
    ]
    rows = syntax_results(triples)
    assert {(str(row.focus), str(row.path)) for row in rows} == {
        ("<urn:alt>", "<http://www.w3.org/ns/shacl#path>")
    }


def test_pyoxigraph_gives_each_node_of_an_alternative_path_once():
    """The bound form ``(X|X)`` relies on this: SPARQL's algebra evaluates an alternative
    as a union (each node twice here, as the UNION of the same pattern gives it), while
    pyoxigraph gives a node of ``p|p`` once. A release that followed the algebra would
    double every value of such a path (under a count, a wrong sh:maxCount)."""
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode("urn:a"), ox.NamedNode("urn:p"), ox.NamedNode("urn:b")))
    alternative = "SELECT ?o WHERE { <urn:a> ((<urn:p>/(<urn:p>)*)|(<urn:p>/(<urn:p>)*)) ?o }"
    union = "SELECT ?o WHERE { { <urn:a> <urn:p> ?o } UNION { <urn:a> <urn:p> ?o } }"
    assert len(list(store.query(alternative))) == 1
    assert len(list(store.query(union))) == 2  # the same store counts a bag where it is one
