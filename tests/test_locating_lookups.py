"""The lookups that place a result in its source: ``objects`` on every engine, and the
nested blank node found from the node's own objects (not from the referrers of each
IRI the file writes, which for a class run to thousands of subjects)."""

import pyoxigraph as ox
import pytest
from engines import ENGINES
from rdflib import BNode, Literal, URIRef

from anthology_kg.fast import load_fast
from anthology_kg.sourcemap import written_blank, written_triples

AK = "https://w3id.org/anthology-kg/ns#"
ID = "https://w3id.org/anthology-kg/id/"
ENTRY = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .

id:LIT-001 a ak:LiteratureRecord ;
    dcterms:identifier "LIT-001" ;
    ak:category ak:method ;
    ak:figure [ ak:algorithm ak:PPO ; ak:unit "x" ] .
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("objects")
    (folder / "data").mkdir()
    (folder / "data" / "LIT-001.ttl").write_text(ENTRY, encoding="utf-8")
    return folder


@pytest.mark.parametrize("kind", ENGINES)
def test_objects_are_the_subjects_objects_in_the_data(root, kind):
    engine = ENGINES[kind](root)
    entry = URIRef(ID + "LIT-001")
    said = engine.objects(entry)
    (figure,) = [o for o in said if isinstance(o, BNode)]
    assert said == {URIRef(AK + "LiteratureRecord"), Literal("LIT-001"), URIRef(AK + "method")} | {
        figure
    }
    assert engine.objects(figure) == {URIRef(AK + "PPO"), Literal("x")}
    assert engine.objects(Literal("x")) == set()
    assert engine.objects(URIRef(AK + "PPO")) == set()  # an object only
    # Asked with pyoxigraph's terms (validation's rows on the Oxigraph engine).
    answered = engine.objects(ox.NamedNode(ID + "LIT-001"))
    assert {str(getattr(o, "value", o)) for o in answered if not _blank(o)} == {
        AK + "LiteratureRecord",
        "LIT-001",
        AK + "method",
    }


def _blank(term) -> bool:
    return isinstance(term, (BNode, ox.BlankNode))


def test_the_fast_engine_answers_in_the_library_it_is_asked_in(root):
    engine = load_fast(root)
    said = engine.objects(ox.NamedNode(ID + "LIT-001"))
    assert all(isinstance(o, (ox.NamedNode, ox.BlankNode, ox.Literal)) for o in said)
    (figure,) = [o for o in said if isinstance(o, ox.BlankNode)]
    assert engine.objects(figure) == {ox.NamedNode(AK + "PPO"), ox.Literal("x")}


TWO_FIGURES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
id:A ak:figure [ ak:algorithm ak:PPO ] ,
               [ ak:algorithm ak:PPO ; ak:baseline ak:GRPO ] .
"""


def test_a_blank_node_is_found_from_its_own_objects():
    """Of the two figures written, the node pointing at both ak:PPO and ak:GRPO is the
    second; the referrers asked are those of the node alone."""
    positions = written_triples(TWO_FIGURES, ID)
    node = BNode("b")
    asked: list[object] = []

    def referrers(term):
        asked.append(term)
        return {URIRef(ID + "A")} if term == node else set()

    def objects(term):
        return {URIRef(AK + "PPO"), URIRef(AK + "GRPO")} if term == node else set()

    holding = written_blank(positions, node, referrers, objects)
    assert holding is not None and (holding.line, holding.column) == (4, 16)
    assert asked == [node]
    # The node pointing at ak:PPO alone fits the first only: the second names ak:GRPO too.
    alone = written_blank(positions, node, referrers, lambda term: {URIRef(AK + "PPO")})
    assert alone is not None and (alone.line, alone.column) == (3, 6)
