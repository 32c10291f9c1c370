"""The note a status line names is a mention of it (hunt19 #11; RECORD_FORMAT.md: "An
identifier anywhere in the entry … is a mention, except the entry's own identifier"):
``Read — NOTE-012.`` gave ak:hasNote alone, where the same identifier in the prose gives
dcterms:references. render prints such an entry whether or not its graph states the
mention of its note (ak:hasNote or ak:noteOn says which note it is)."""

from conftest import FIXTURES
from rdflib import URIRef

from anthology_kg.namespaces import AK, DCTERMS, DEFAULT_BASE
from anthology_kg.records import parse_record, render_record

TEXT = (FIXTURES / "records" / "LIT-201.txt").read_text("utf-8")
NOTE = URIRef(DEFAULT_BASE + "NOTE-012")


def test_the_status_line_s_note_is_a_mention():
    record = parse_record(TEXT)
    graph, entry = record.graph, record.iri
    assert (entry, AK.hasNote, NOTE) in graph
    assert (entry, DCTERMS.references, NOTE) in graph


def test_render_prints_the_entry_with_the_mention_of_its_note_stated_or_not():
    record = parse_record(TEXT)
    graph, entry = record.graph, record.iri
    assert render_record(graph, entry) == TEXT
    graph.remove((entry, DCTERMS.references, NOTE))
    assert render_record(graph, entry) == TEXT
