"""The site's answers from the Oxigraph store's own terms are the engine's answers."""

from __future__ import annotations

import pytest

from anthology_kg.engine import open_engine
from anthology_kg.local_query import run_local
from anthology_kg.queries import catalog
from anthology_kg.resources import bundled_dir
from anthology_kg.site.model import text
from anthology_kg.site.pages import Answer, answer

# Literals whose N-Triples forms differ between writers (escapes) but not their text.
TRICKY = (
    'SELECT ?x ?y ?z WHERE { VALUES (?x ?y ?z) { ("a\\tb\\u0001c\\u2028d" "q\\"u\\\\o"@en-GB '
    '"007"^^<http://www.w3.org/2001/XMLSchema#integer>) (<urn:x> UNDEF "line\\nnext") } }'
)


@pytest.fixture(scope="module")
def engine():
    return open_engine("fast", root=bundled_dir(), validates=True)


def _shown(found: Answer) -> tuple:
    rows = [tuple(None if t is None else (t[0], text(t)) for t in row) for row in found.rows]
    return found.kind, found.variables, rows, found.boolean, found.turtle


def test_every_stored_query_answers_alike_from_the_store_and_from_the_engine(engine):
    queries = catalog(engine)
    answers = answer(engine, queries)
    assert any(a is not None and a.rows for a in answers.values())
    for name, stored in queries.items():
        found = answers[name]
        if found is None:
            assert stored.params
            continue
        expected = Answer.of(run_local(engine, stored.text, source=stored.path))
        assert found == expected, name


@pytest.mark.parametrize(
    "query", [TRICKY, "ASK { ?s ?p ?o }", "CONSTRUCT { <urn:a> <urn:b> ?o } WHERE { ?s ?p ?o }"]
)
def test_terms_written_by_the_store_show_as_the_engine_s(engine, query):
    from_store = Answer.of_store(engine.store_answer(query))
    from_engine = Answer.of(engine.query(query))
    assert _shown(from_store) == _shown(from_engine)
    assert from_store.kind != "select" or from_store.rows[1][1] is None


def test_the_reference_engine_answers_as_the_store(engine):
    reference = open_engine("reference", root=bundled_dir())
    queries = catalog(engine)
    for name, found in answer(reference, queries).items():
        assert found == answer(engine, {name: queries[name]})[name], name
