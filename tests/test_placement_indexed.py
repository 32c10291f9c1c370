"""Results are placed on their file, line and column through an index of each file's
written triples, made once per file: not a scan of the file per result, which made
placing the results of one file quadratic in their number (20,000 dangling references
on one line: 68 s). The places are those the scans gave."""

from __future__ import annotations

import itertools
import json

from conftest import rules_fixture_copy, run_cli
from rdflib import BNode, Literal, URIRef

from anthology_kg import sourcemap
from anthology_kg.sourcemap import (
    Positions,
    _holding,
    _matches,
    nested_triples,
    object_triples,
    written_triple,
    written_triples,
)

TEXT = """@prefix ex: <http://example.org/> .
ex:a ex:p ex:b, "ex:b", "x", "x" ; ex:q "x", ex:a ;
    ex:r [ ex:p "x" ; ex:q [ ex:p ex:b, "y" ] ], [ ex:p "x" ] .
ex:b ex:p "http://example.org/b", 5 ; ex:q ( "x" ex:a ) ; ex:r [ ex:p "x" ] .
"""
EX = "http://example.org/"


def _scanned_triple(positions: Positions, subject, predicate, value):
    """``written_triple`` as a scan of the file (what it was)."""
    return next(
        (
            w
            for w in positions.triples
            if w.subject == subject and w.predicate == predicate and _matches(w, value)
        ),
        None,
    )


def _scanned_nested(positions: Positions, owner, predicate, value):
    inside = _holding(positions, owner)
    return [
        w
        for w in positions.triples
        if w.subject in inside and w.predicate == predicate and _matches(w, value)
    ]


def test_the_indexes_find_what_a_scan_of_the_file_finds():
    positions = written_triples(TEXT)
    subjects = {w.subject for w in positions.triples} | {URIRef(EX + "c")}
    predicates = [URIRef(EX + name) for name in "pqrs"]
    values = [None, URIRef(EX + "a"), URIRef(EX + "b"), Literal("x"), Literal("y")]
    values += [Literal("ex:b"), Literal(EX + "b"), Literal(5), BNode("x"), Literal("z")]
    found = 0
    for subject, predicate, value in itertools.product(subjects, predicates, values):
        expected = _scanned_triple(positions, subject, predicate, value)
        assert written_triple(positions, subject, predicate, value) == expected
        found += expected is not None
        if value is not None:
            scanned = [w for w in positions.triples if w.subject == subject and _matches(w, value)]
            assert object_triples(positions, subject, value) == scanned
        assert nested_triples(positions, subject, predicate, value) == _scanned_nested(
            positions, subject, predicate, value
        )
    assert found > 10  # (the cases do find triples)
    # Two triples alike ("x" twice): the first; a literal written as the IRI's text too.
    first = written_triple(positions, URIRef(EX + "a"), URIRef(EX + "p"), Literal("x"))
    assert (first.line, first.column) == (2, 25)
    nested = nested_triples(positions, URIRef(EX + "a"), URIRef(EX + "p"), Literal("x"))
    assert [(w.line, w.column) for w in nested] == [(3, 12), (3, 52)]


class _CountedTriples(list):
    """A file's written triples that count the scans of them."""

    scans = 0

    def __iter__(self):
        _CountedTriples.scans += 1
        return super().__iter__()


def _validated_counting_scans(root, monkeypatch):
    """``validate --format json`` of ``root``, each file's written triples counting the
    scans of them (``_CountedTriples.scans``, from 0), the files' indexes made afresh."""

    def counted(*args, **kwargs):
        positions = written_triples(*args, **kwargs)
        return Positions(_CountedTriples(positions.triples), positions.subjects)

    monkeypatch.setattr(sourcemap, "written_triples", counted)
    monkeypatch.setattr(_CountedTriples, "scans", 0)
    sourcemap._file_positions.cache_clear()
    try:
        return run_cli("--root", str(root), "validate", "--format", "json")
    finally:
        sourcemap._file_positions.cache_clear()


def test_the_results_of_one_file_are_placed_without_a_scan_each(tmp_path, monkeypatch):
    many = 24
    root = rules_fixture_copy(tmp_path, "rule9-good")
    dangling = ", ".join(f"id:LIT-{900 + i}" for i in range(many))
    path = root / "data" / "LIT-001.ttl"
    path.write_text(path.read_text("utf-8").replace("id:ADR-001 .", f"id:ADR-001, {dangling} ."))

    result = _validated_counting_scans(root, monkeypatch)
    assert result.exit_code == 1, result.output
    places = [(r["file"], r["line"], r["column"]) for r in json.loads(result.stdout)["results"]]
    line = path.read_text("utf-8").splitlines()[8]
    columns = [line.index(f"id:LIT-{900 + i}") + 1 for i in range(many)]
    assert sorted(places) == sorted((str(path), 9, c) for c in columns)
    # Each index is one scan of the file, whatever the number of results (it was two
    # per result).
    assert _CountedTriples.scans <= 3


def test_the_waivers_written_as_blank_nodes_are_placed_without_a_scan_each(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule9-good")
    waivers = "".join(
        f'[] a ak:Waiver ; ak:waives <LIT-001> ; ak:rule "AK00{i % 9 + 1}" ;\n'
        f'    rdfs:comment "old {i}" ; ak:expires "2020-01-01"^^xsd:date .\n'
        for i in range(12)
    )
    (root / "waivers.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n" + waivers,
        "utf-8",
    )

    result = _validated_counting_scans(root, monkeypatch)
    places = sorted(r["line"] for r in json.loads(result.stdout)["results"] if r["code"] == "AK000")
    assert places == [4 + 2 * i for i in range(12)]  # each expired waiver at its own
    assert _CountedTriples.scans <= 3  # (it was one per waiver)
