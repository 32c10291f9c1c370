"""What ``render`` builds to print an entry: its read-back leaves out the takeaway and
practice nodes, and the entry's graph is built and read with the collector paused
(hunt15 #11: render grew faster than the entry's takeaways)."""

from __future__ import annotations

import gc

import pytest
from rdflib import RDF, Graph, URIRef

from anthology_kg.errors import AnthologyError
from anthology_kg.namespaces import AK, DCTERMS
from anthology_kg.records import parse_record, render_entry, render_record

RECORD = (
    "Doe (2024) — ARXIV-2401.00003\nKey takeaways\n- one, after LIT-168\n- two\n"
    "Practices\n- p\nStanding in the anthology\nFiled as method.\nUnread — no NOTE."
)


def test_without_value_nodes_the_record_is_the_rest_of_its_graph():
    whole = parse_record(RECORD).graph
    rest = parse_record(RECORD, value_nodes=False).graph
    values = {n for p in (AK.takeaway, AK.carriesPractice) for n in whole.objects(None, p)}
    assert len(values) == 3
    kept = {(s, p, o) for s, p, o in whole if s not in values and o not in values}
    assert set(rest) == kept
    # A takeaway's mention is a triple of the entry all the same.
    assert (None, DCTERMS.references, None) in rest


def test_without_value_nodes_the_lines_are_still_read():
    broken = RECORD.replace("- two\n", "- two\n-\n")
    with pytest.raises(AnthologyError) as whole:
        parse_record(broken)
    with pytest.raises(AnthologyError) as rest:
        parse_record(broken, value_nodes=False)
    assert (rest.value.line, rest.value.message) == (whole.value.line, whole.value.message)


class _Engine:
    """An engine that says of an entry what a parsed record says, and notes whether the
    collector ran while it was asked."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.collecting: list[bool] = []

    def describe(self, node: URIRef) -> Graph:
        self.collecting.append(gc.isenabled())
        return self.graph


def test_render_entry_pauses_the_collector_and_puts_it_back():
    record = parse_record(RECORD)
    engine = _Engine(record.graph)
    assert gc.isenabled()
    printed = render_entry(engine, record.iri)  # type: ignore[arg-type]
    assert printed == render_record(record.graph, record.iri) == RECORD
    assert engine.collecting == [False] and gc.isenabled()
    record.graph.remove((record.iri, RDF.type, None))
    record.graph.remove((record.iri, AK.readingStatus, None))
    with pytest.raises(AnthologyError):  # an error on the way puts it back too
        render_entry(engine, record.iri)  # type: ignore[arg-type]
    assert gc.isenabled()
