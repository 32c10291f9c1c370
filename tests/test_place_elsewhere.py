"""A result whose triple is written in another file than its entry's is placed in that
file, at the triple (``validation._written_elsewhere``): the entry's own file would send
the reader, or a GitHub annotation, to lines that are right."""

import json

import pytest
from conftest import run_cli
from engines import ENGINES
from rdflib import BNode, Literal, URIRef

from anthology_kg.entries import Location

ID = "https://w3id.org/anthology-kg/id/"
PREFIXES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .

"""
OWN = 'id:LIT-001 a ak:LiteratureRecord ; dcterms:identifier "LIT-001" ; ak:category ak:method .\n'
OTHER = (
    'id:LIT-002 a ak:LiteratureRecord ; dcterms:identifier "LIT-002" ; ak:category ak:method .\n'
    "id:LIT-001 ak:makesClaim id:LIT-001-gone .\n"  # line 6: rule 9, in LIT-002's file
)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("elsewhere")
    (folder / "data").mkdir()
    (folder / "data" / "LIT-001.ttl").write_text(PREFIXES + OWN, encoding="utf-8")
    (folder / "data" / "LIT-002.ttl").write_text(PREFIXES + OTHER, encoding="utf-8")
    return folder


@pytest.mark.parametrize("kind", ENGINES)
def test_written_in_is_every_file_writing_the_node_as_a_subject(root, kind):
    engine = ENGINES[kind](root)
    data = root / "data"
    assert engine.written_in(URIRef(ID + "LIT-001")) == [
        Location(data / "LIT-001.ttl", 5),
        Location(data / "LIT-002.ttl", 6),
    ]
    assert engine.written_in(URIRef(ID + "LIT-002")) == [Location(data / "LIT-002.ttl", 5)]
    assert engine.written_in(BNode()) == engine.written_in(Literal("LIT-001")) == []


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_result_is_placed_in_the_file_that_writes_its_triple(root, engine):
    result = run_cli("--root", str(root), "validate", "--format", "json", "--engine", engine)
    assert result.exit_code == 1, result.output
    (dangling,) = [r for r in json.loads(result.stdout)["results"] if r["code"] == "AK009"]
    assert (dangling["focus"], dangling["value"]) == ("LIT-001", "id:LIT-001-gone")
    place = (dangling["file"], dangling["line"], dangling["column"])
    assert place == (str(root / "data" / "LIT-002.ttl"), 6, 12)
