"""Two blank nodes written nested in one entry with the same IRIs are placed apart by
their literals (hunt19 #8): two reproducibility claims failing rule 7, differing only
in their label and what they rest on, were both placed at the entry's subject (5:1),
as two identical results in every format, where one such claim is at its own triple.
Nodes written alike in every object still stay at the subject. Both engines."""

import json
from pathlib import Path

import pytest
from conftest import ENGINES, run_cli

ENTRY = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
id:LIT-300 a ak:LiteratureRecord ;
    dcterms:identifier "LIT-300" ;
    ak:category ak:method ;
    ak:readingStatus ak:unread ;
    ak:makesClaim [
        a ak:ReproducibilityClaim ;
        rdfs:label "first claim" ;
        ak:restsOn "{first}"
    ], [
        a ak:ReproducibilityClaim ;
        rdfs:label "{label}" ;
        ak:restsOn "{second}"
    ] .
"""


def places(root: Path, engine: str) -> list[tuple[str, int, int]]:
    found = run_cli(
        "--root",
        str(root),
        "validate",
        "--select",
        "AK007",
        "--format",
        "json",
        "--engine",
        engine,
    )
    assert found.exit_code == 1, found.stderr
    results = json.loads(found.stdout)["results"]
    return [(Path(r["file"]).name, r["line"], r["column"]) for r in results]


@pytest.mark.parametrize("engine", ENGINES)
def test_claims_unlike_in_their_literals_are_each_at_their_own_triple(bundled_copy, engine):
    entry = ENTRY.format(first="a", label="second claim", second="b")
    (bundled_copy / "data" / "LIT-300.ttl").write_text(entry, encoding="utf-8")
    assert places(bundled_copy, engine) == [
        ("LIT-300.ttl", 12, 9),
        ("LIT-300.ttl", 16, 9),
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_claims_written_alike_stay_at_the_entry(bundled_copy, engine):
    entry = ENTRY.format(first="a", label="first claim", second="a")
    (bundled_copy / "data" / "LIT-300.ttl").write_text(entry, encoding="utf-8")
    # Two results, which nothing written tells apart: both at the entry's subject.
    assert places(bundled_copy, engine) == [("LIT-300.ttl", 5, 1)] * 2
