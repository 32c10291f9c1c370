"""The lookups that place a result in its source: ``objects`` on every engine, and the
nested blank node found from the node's own objects (not from the referrers of each
IRI the file writes, which for a class run to thousands of subjects)."""

import pyoxigraph as ox
import pytest
from engines import ENGINES
from rdflib import BNode, Literal, URIRef

from anthology_kg.fast import load_fast
from anthology_kg.sourcemap import is_blank_written, written_blank, written_triples

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


def _fitting_by_brute_force(positions, own, pointing):
    """What ``written_blank`` answers, by a look at every nested blank node: the one
    with the most IRI objects among those whose IRI objects the node has and whose
    holder points at it (or is a blank node itself), of several the one written with
    just the node's objects; None for none or a tie."""
    written, holders = positions.by_subject
    scored: dict[int, list[object]] = {}
    for blank, holder in holders.items():
        if not isinstance(holder.subject, tuple) and holder.subject not in pointing:
            continue
        named = {o for o in written.get(blank, ()) if not isinstance(o, tuple)}
        if named <= own:
            scored.setdefault(len(named), []).append(holder)
    best = scored[max(scored)] if scored else []
    if len(best) > 1:  # a tie: the one written with the node's objects, literals too
        # (``own`` holds IRIs only: a literal written is one the node does not have)
        best = [
            h
            for h in best
            if {o for o in written.get(h.object, ()) if not is_blank_written(o)} == own
        ]
    return best[0] if len(best) == 1 else None


def constant(terms: set[URIRef]):
    """A lookup that answers ``terms`` for any node."""
    return lambda _: terms


def test_the_blank_node_found_is_the_one_a_look_at_every_node_finds():
    """Files of nested figures, some alike, some nested in others, held by two entries:
    for nodes with few and with many objects (the groups' subsets, or every group)."""
    import random

    chooser = random.Random(7)
    names = [f"ak:A{i}" for i in range(6)]
    for _ in range(40):
        figures = []
        for _ in range(chooser.randint(1, 12)):
            chosen = chooser.sample(names, chooser.randint(0, 4))
            inner = " ; ".join(f"ak:algorithm {name}" for name in chosen) or 'ak:unit "x"'
            if chooser.random() < 0.3:
                inner = f"ak:part [ {inner} ]"
            figures.append(f"[ {inner} ]")
        half = len(figures) // 2
        text = (
            "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
            "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
            f"id:A ak:figure {', '.join(figures[:half]) or '[]'} .\n"
            f"id:B ak:figure {', '.join(figures[half:]) or '[]'} .\n"
        )
        positions = written_triples(text, ID)
        for _ in range(6):
            own = {URIRef(AK + f"A{i}") for i in chooser.sample(range(6), chooser.randint(0, 6))}
            pointing = {URIRef(ID + chooser.choice("AB"))}
            found = written_blank(positions, BNode("n"), constant(pointing), constant(own))
            assert found == _fitting_by_brute_force(positions, own, pointing), text


def test_thousands_of_alike_nodes_fit_none_and_one_unlike_fits():
    figures = ", ".join(["[ ak:algorithm ak:PPO ]"] * 2000 + ["[ ak:algorithm ak:GRPO ]"])
    text = (
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        f"@prefix id: <https://w3id.org/anthology-kg/id/> .\nid:A ak:figure {figures} .\n"
    )
    positions = written_triples(text, ID)
    pointing = {URIRef(ID + "A")}

    def fitting(name: str) -> object:
        return written_blank(
            positions, BNode("n"), lambda _: pointing, lambda _: {URIRef(AK + name)}
        )

    assert fitting("PPO") is None
    unlike = fitting("GRPO")
    assert unlike is not None and unlike.column == text.splitlines()[2].rindex("[") + 1
