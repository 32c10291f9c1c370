"""The rules read by pyoxigraph (the Oxigraph engine's, no rdflib) are the rules read by
rdflib (the reference engine's, and every caller asking for graphs): the same triples,
each blank node with the same label."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox

from anthology_kg import resources
from anthology_kg.bnodes import ox_stable_labels, stable_labels
from anthology_kg.ruleset import load_rules
from anthology_kg.sources import parse_quads, to_graph
from anthology_kg.terms import from_ox

REPOSITORY = Path(__file__).resolve().parent.parent

OWN_SHAPES = '''@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:Own a sh:NodeShape ; sh:targetClass ex:Thing ;
    sh:property [ sh:path ( ex:a [ sh:inversePath ex:b ] ) ; sh:minCount 1 ;
        sh:message "two\\nlines, a \\"quote\\" and a \\\\ backslash"@en ] ;
    sh:sparql [ sh:select """
        SELECT $this WHERE { $this <http://example.org/c> 'x\\"' }
    """ ; ex:note 4.0, "1e0"^^xsd:double, "INF"^^xsd:double ] .
'''


def _rdflib_triples(triples) -> set:
    return {(from_ox(s), from_ox(p), from_ox(o)) for s, p, o in triples}


def test_the_bundled_rules_are_the_same_triples_and_labels_either_way():
    rules = load_rules(resources.find_root())
    assert any(isinstance(s, ox.BlankNode) for s, _, _ in rules.shape_triples)
    assert _rdflib_triples(rules.shape_triples) == set(rules.shapes)
    assert _rdflib_triples(rules.ontology_triples) == set(rules.ontology)


def test_an_anthologys_own_shapes_are_the_same_triples_and_labels_either_way(tmp_path):
    root = tmp_path / "own"
    shutil.copytree(REPOSITORY / "tests" / "fixtures" / "rules" / "rule1-good", root)
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "own.ttl").write_text(OWN_SHAPES, encoding="utf-8")
    rules = load_rules(root)
    own = [t for t in rules.shape_triples if t[0].value == "http://example.org/Own"]
    assert len(own) == 4  # (the file was read)
    assert _rdflib_triples(rules.shape_triples) == set(rules.shapes)


def test_content_labels_agree_on_every_turtle_file_of_the_repository():
    """``ox_stable_labels`` hashes rdflib's ``n3()`` text of each term, written without
    rdflib (``bnodes.rdflib_n3``): long strings, quotes, language tags, typed values,
    on every file pyoxigraph reads (the W3C suite's among them)."""
    compared = 0
    for path in sorted(REPOSITORY.glob("*/**/*.ttl")):
        if ".venv" in path.parts:
            continue
        try:
            quads = parse_quads(path.read_bytes(), path, "https://example.org/id/")
        except Exception:  # not valid Turtle: a fixture of a parse error
            continue
        by_rdflib = {str(k): str(v) for k, v in stable_labels(to_graph(quads)).items()}
        triples = ((q.subject, q.predicate, q.object) for q in quads)
        by_ox = {k.value: v.value for k, v in ox_stable_labels(triples).items()}
        assert by_ox == by_rdflib, path
        compared += bool(by_ox)
    assert compared >= 100
