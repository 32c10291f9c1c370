"""The Turtle writer's hot paths against its general one, and its output read back.

``_Writer._named_statements`` writes an IRI subject's lines in one pass (the writer's
hot loop), with a shortcut for plain strings and ``rdf:type`` put first as ``a``;
``_Writer.predicate_lines`` (``_line_pieces``) writes any subject's lines, several
objects to a predicate included. For random graphs the document written by the hot
path is the one written by the general path alone, and the document reads back
(pyoxigraph) as a graph isomorphic to the one written.
"""

from __future__ import annotations

from itertools import groupby
from unittest import mock

import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anthology_kg import turtle
from anthology_kg.choices import DEFAULT_BASE
from anthology_kg.prefixes import PREFIXES
from anthology_kg.turtle import statement_lines, turtle_of_quads, turtle_sections

RDF, AK, XSD = PREFIXES["rdf"], PREFIXES["ak"], PREFIXES["xsd"]
TYPE, FIRST, REST, NIL = (ox.NamedNode(RDF + n) for n in ("type", "first", "rest", "nil"))
POSITION = ox.NamedNode(AK + "position")

#: Predicates of the anthology's vocabulary, of no prefix, and ones that begin one
#: another (``ex:p`` and ``ex:p2``: their IRI order is not their text order).
PREDICATES = [
    ox.NamedNode(iri)
    for iri in (
        AK + "label",
        AK + "takeaway",
        AK + "note",
        "http://e.org/p",
        "http://e.org/p2",
        "http://e.org/p-x",
        "http://e.org/p/q",
        "http://e.org/~odd",
        RDF + "_1",
        RDF + "_10",
    )
] + [TYPE, POSITION]
#: IRIs named ``id:`` (the base), by another prefix, or by none.
IRIS = [
    ox.NamedNode(iri)
    for iri in (
        DEFAULT_BASE + "LIT-001",
        DEFAULT_BASE + "LIT-002",
        DEFAULT_BASE + "LIT-0010",
        DEFAULT_BASE + "a.b",
        AK + "Paper",
        AK + "Practice",
        "http://e.org/x",
        "http://e.org/x/",
        "http://e.org/x.",
        "urn:z",
    )
]
BLANKS = [ox.BlankNode(f"b{n}") for n in range(6)]

lexicals = st.text(
    st.sampled_from(["a", "Z", " ", '"', "'", "\\", "\n", "\r", "\t", "\x01", "é", "<", "1", "."]),
    max_size=6,
)
literals = st.one_of(
    lexicals.map(ox.Literal),
    st.tuples(lexicals, st.sampled_from(["en", "en-GB", "de"])).map(
        lambda t: ox.Literal(t[0], language=t[1])
    ),
    st.tuples(
        lexicals,
        st.sampled_from(["en", "ar"]),
        st.sampled_from([ox.BaseDirection.LTR, ox.BaseDirection.RTL]),
    ).map(lambda t: ox.Literal(t[0], language=t[1], direction=t[2])),
    st.tuples(
        st.sampled_from(["1", "-2", "+03", "1.5", ".5", "1e3", "true", "false", "x", "NaN"]),
        st.sampled_from(["integer", "decimal", "boolean", "double", "string", "date"]),
    ).map(lambda t: ox.Literal(t[0], datatype=ox.NamedNode(XSD + t[1]))),
    lexicals.map(lambda text: ox.Literal(text, datatype=ox.NamedNode("http://e.org/dt"))),
)
subjects = st.sampled_from(IRIS + BLANKS)
objects = st.one_of(st.sampled_from(IRIS + BLANKS), literals)
triples = st.builds(ox.Triple, subjects, st.sampled_from(PREDICATES), objects)


@st.composite
def rdf_lists(draw: st.DrawFn) -> list[ox.Triple]:
    """An RDF list used as some subject's object; now and then malformed (a member short
    of its rdf:rest, or with one more rdf:first, or two lists sharing their nodes)."""
    members = draw(st.lists(objects, max_size=3))
    tag = draw(st.integers(0, 2))
    nodes = [ox.BlankNode(f"l{tag}x{n}") for n in range(len(members))]
    found = []
    for node, member, after in zip(nodes, members, [*nodes[1:], NIL][: len(nodes)], strict=True):
        found.append(ox.Triple(node, FIRST, member))
        if draw(st.integers(0, 9)):
            found.append(ox.Triple(node, REST, after))
        else:
            found.append(ox.Triple(node, FIRST, draw(objects)))
    owner = draw(st.sampled_from(IRIS + BLANKS[:2]))
    found.append(ox.Triple(owner, draw(st.sampled_from(PREDICATES)), nodes[0] if nodes else NIL))
    return found


graphs = st.tuples(st.lists(triples, max_size=25), st.lists(rdf_lists(), max_size=2)).map(
    lambda t: t[0] + [triple for listed in t[1] for triple in listed]
)


class _GeneralWriter(turtle._Writer):
    """The writer with every subject's lines written by ``predicate_lines`` alone, its
    rows in predicate IRI order: no hot path."""

    def _named_statements(self) -> dict[str, str]:
        rows = [line.split(" ", 2) for line in self.named_lines]
        return {
            subject: self.statement(subject, sorted(group, key=turtle._by_iri))
            for subject, group in groupby(rows, turtle._first)
        }


def _general(sections: list[tuple[str, list[str]]]) -> str:
    with mock.patch.object(turtle, "_Writer", _GeneralWriter):
        return turtle_sections(sections)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs, graphs)
def test_the_hot_paths_write_what_the_general_path_writes(graph, inferred):
    lines = statement_lines(graph)
    assert turtle_sections([("", lines)]) == _general([("", lines)])
    sections = [("", lines), ("# inferred", statement_lines(inferred))]
    assert turtle_sections(sections) == _general(sections)


def test_the_general_writer_is_another_path():
    """The general writer does not just call the hot paths: a subject's predicates that
    begin one another are put in IRI order by it alone, and both agree."""
    called = []
    general = turtle._Writer._line_pieces

    def spy(self, edges, depth):
        called.append(len(edges))
        return general(self, edges, depth)

    lines = statement_lines([ox.Triple(IRIS[0], PREDICATES[0], ox.Literal("x"))])
    with mock.patch.object(turtle._Writer, "_line_pieces", spy):
        fast = turtle_sections([("", lines)])
        assert called == []
        assert _general([("", lines)]) == fast
        assert called == [1]


def _canonical(triples: list[ox.Triple] | list[ox.Quad]) -> set[ox.Quad]:
    dataset = ox.Dataset(
        ox.Quad(t.subject, t.predicate, t.object, ox.DefaultGraph()) for t in triples
    )
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return set(dataset)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs)
def test_the_turtle_written_reads_back_as_the_same_graph(graph):
    text = turtle_of_quads(graph)
    read = list(ox.parse(text.encode("utf-8"), format=ox.RdfFormat.TURTLE))
    assert _canonical(read) == _canonical(graph), text
