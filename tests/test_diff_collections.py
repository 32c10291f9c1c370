"""diff places a fact whose blank node holds a collection, at the line where it is
written (hunt18 #11): the positions reader took a collection for one opaque term, so
such a fact was listed with its file and no line. A collection is now read as RDF writes
it, a nested blank node a member with rdf:first and rdf:rest."""

from __future__ import annotations

import json

from conftest import run_cli

ENTRY = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    '<https://w3id.org/anthology-kg/id/X-1> dcterms:identifier "X-1" .\n'
)
ADDED = (
    '[] <http://example.org/q> "x" .\n'
    "[] <http://example.org/q> ( 2 ) .\n"
    "[] <http://example.org/q> [ <http://example.org/r> ( 3 <http://example.org/o> ) ] .\n"
    "<https://w3id.org/anthology-kg/id/X-1> <http://example.org/s> ( ) .\n"
)


def test_facts_holding_a_collection_are_placed_at_their_lines(tmp_path):
    for state, text in (("old", ENTRY), ("new", ENTRY + ADDED)):
        (tmp_path / state / "data").mkdir(parents=True)
        (tmp_path / state / "data" / "X-1.ttl").write_text(text, encoding="utf-8")
    result = run_cli("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "json")
    assert result.exit_code == 1, result.output
    added = [fact for entry in json.loads(result.stdout)["entries"] for fact in entry["added"]]
    assert sorted(fact["line"] for fact in added) == [4, 5, 6, 7]
