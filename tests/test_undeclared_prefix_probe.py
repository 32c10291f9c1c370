"""What the search for a query's first error reads (review46 #6, #9, after 839a1ad): an
IRI written with a codepoint escape is one IRI (SPARQL 1.1, 19.2), not ``http:`` and a
local name, which was said to be a prefix no PREFIX declares; and a text with an
undeclared prefix is parsed again as a SELECT *, never answered: an ASK is answered as
it is parsed, so a heavy ASK took as long as its answer (14.6 s for one of VALUES) to be
refused. A later error on the ASK's line is said at its own column."""

import pyoxigraph as ox
import pytest
from conftest import run_cli

from anthology_kg import sparql_text


def said(tmp_path, query: str) -> str:
    (tmp_path / "q.rq").write_text(query + "\n", encoding="utf-8")
    result = run_cli("sparql", str(tmp_path / "q.rq"))
    assert result.exit_code == 2, result.output
    return result.stderr


def test_an_escaped_iri_is_no_prefixed_name(tmp_path):
    # (ORDER BY ASC ?o: no common mistake, pyoxigraph's words; LIMIT x is said in words)
    message = said(tmp_path, "SELECT * WHERE { ?s <http://ex.org/\\u0070> ?o } ORDER BY ASC ?o")
    assert "prefix" not in message, message
    assert "q.rq:1: SPARQL syntax error at column 44: expected one of" in message, message


class _Recording:
    """A store that records the form of each text it is asked to parse."""

    forms: list[str] = []

    def __init__(self):
        self.store = _STORE()

    def query(self, text, **options):
        _Recording.forms.append(sparql_text.query_form(text)[0])
        return self.store.query(text, **options)


_STORE = ox.Store


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("ASK { ?s ex:p ?o }", ("the prefix ex: is declared by no PREFIX", 1, 10)),
        # an error before the name, on the keyword's line: at its own column
        ("ASK { ?s ?p <a b> . ?s ex:p ?o }", ("expected IRI parsing failed", 1, 18)),
    ],
)
def test_an_ask_is_parsed_again_unanswered(monkeypatch, query, found):
    monkeypatch.setattr(sparql_text.ox, "Store", _Recording)
    _Recording.forms = []
    said = sparql_text.undeclared_prefix_error(query)
    monkeypatch.undo()
    assert said is not None and said[0].startswith(found[0]) and said[1:] == found[1:], said
    assert _Recording.forms == ["SELECT"], _Recording.forms


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * WHERE { ?s ex:p ?o } ORDER BY ?o",
        "SELECT (COUNT(*) AS ?n) WHERE { ?s ex:p ?o }",
        "SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } GROUP BY ?s } ?s ex:p ?o }",
    ],
)
def test_a_query_the_store_computes_as_it_parses_is_not_parsed_again(monkeypatch, query):
    """An ORDER BY, a grouping or an aggregate is computed before the store returns
    (review46 #2b: 16-17 s for one of three VALUES blocks): the prefix is said."""
    monkeypatch.setattr(sparql_text.ox, "Store", _Recording)
    _Recording.forms = []
    said = sparql_text.undeclared_prefix_error(query)
    monkeypatch.undo()
    assert said is not None and said[0] == "the prefix ex: is declared by no PREFIX", said
    assert _Recording.forms == [], _Recording.forms
