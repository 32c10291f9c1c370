"""A literal of a result (its focus node or its value) is placed at the triple that
writes it, matched by its text, datatype and language, and a literal the fast engine's
store keeps in another form than written (``3e0`` as ``"3"^^xsd:double``) by that form
too, named as written (hunt17 finding 4): not at another literal with the same text (an
integer ``3`` of another predicate), as the reference engine places and names it."""

from __future__ import annotations

import json

from conftest import own_shapes, run_cli
from rdflib import Literal, URIRef

from anthology_kg import sourcemap
from anthology_kg.sourcemap import object_triples, written_triple, written_triples

PREFIXES = """@prefix ex: <http://ex.org/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""
XSD = "http://www.w3.org/2001/XMLSchema#"
X = "http://ex.org/x"


def _places(args: tuple[str, ...], engine: str) -> list[tuple]:
    """Each result's focus, value, line and column, as ``validate --engine`` reports them
    in JSON (it must find some), in the report's order."""
    result = run_cli(*args, "--format", "json", "--engine", engine)
    assert result.exit_code == 1, (engine, result.output)
    assert "using the reference engine" not in result.stderr  # (the fast engine ran)
    found = json.loads(result.stdout)["results"]
    return [(r["focus"], r["value"], r["line"], r["column"]) for r in found]


def _alike(args: tuple[str, ...]) -> list[tuple]:
    """``_places`` of both engines, asserted the same."""
    reference = _places(args, "reference")
    assert _places(args, "fast") == reference
    return reference


def test_a_literal_focus_the_store_rewrites_is_placed_and_named_as_written(tmp_path):
    shapes = (
        PREFIXES + "ex:S a sh:NodeShape ; sh:targetObjectsOf ex:num ; sh:datatype xsd:integer ."
    )
    data = PREFIXES + "ex:x ex:num 3e0 ; ex:other 3 .\nex:y ex:num 1, 2.5E0 .\n"
    # (not at ex:other's 3, 4:17, the fast engine's place before)
    assert _alike(own_shapes(tmp_path, shapes, data)) == [
        ("3e0", "3e0", 4, 6),
        ("2.5E0", "2.5E0", 5, 16),
    ]


def test_literals_that_differ_only_in_their_datatype_have_their_own_places(tmp_path):
    shapes = PREFIXES + (
        "ex:S a sh:NodeShape ; sh:targetObjectsOf ex:typed ; sh:datatype xsd:string .\n"
        "ex:V a sh:NodeShape ; sh:targetNode ex:x ;\n"
        "  sh:property [ sh:path ex:typed ; sh:datatype xsd:string ] .\n"
    )
    data = PREFIXES + 'ex:x ex:typed "3"^^ex:t, 3 .\n'
    found = _alike(own_shapes(tmp_path, shapes, data))
    # The focus node 3 and ex:x's value 3, each at 3's column (not at "3"^^ex:t's).
    assert sorted(found) == [(focus, "3", 4, c) for focus in ("3", X) for c in (6, 26)]


def test_literals_that_differ_only_in_their_language_have_their_own_places(tmp_path):
    shapes = PREFIXES + (
        'ex:S a sh:NodeShape ; sh:targetObjectsOf ex:tagged ; sh:languageIn ( "fr" ) .\n'
        "ex:V a sh:NodeShape ; sh:targetNode ex:x ;\n"
        '  sh:property [ sh:path ex:tagged ; sh:languageIn ( "fr" ) ] .\n'
    )
    data = PREFIXES + 'ex:x ex:tagged "a"@en,\n  "a", "a"@EN-gb .\n'
    found = _alike(own_shapes(tmp_path, shapes, data))
    assert sorted(found) == sorted(
        (focus, "a", line, column)
        for focus in ("a", X)
        for line, column in ((4, 6), (5, 3), (5, 8))
    )


def test_a_value_the_store_holds_once_for_two_forms_is_named_as_the_first(tmp_path):
    """``3e0, 3.0e0`` are one triple in the fast engine's store, so one result, which
    cannot be mapped back to one written literal: it is named and placed as the first
    of them, the reference engine's first of its two."""
    shapes = PREFIXES + (
        "ex:V a sh:NodeShape ; sh:targetNode ex:x ;\n"
        "  sh:property [ sh:path ex:num ; sh:datatype xsd:integer ] .\n"
    )
    data = PREFIXES + "ex:x ex:other 3 ; ex:num 3e0, 3.0e0 .\n"
    args = own_shapes(tmp_path, shapes, data)
    reference = _places(args, "reference")
    assert reference == [(X, "3e0", 4, 19), (X, "3.0e0", 4, 31)]
    assert _places(args, "fast") == reference[:1]


def test_a_literal_is_looked_up_as_written_before_the_stored_form():
    text = PREFIXES + 'ex:x ex:p 3e0, "3"^^xsd:double, 3, "3", "3"@en, 3.0 .\n'
    positions = written_triples(text)
    x, p = URIRef("http://ex.org/x"), URIRef("http://ex.org/p")
    double = URIRef(XSD + "double")
    columns = {
        Literal("3e0", datatype=double, normalize=False): [
            6
        ],  # (the first object: at its predicate)
        Literal("3", datatype=double, normalize=False): [
            16
        ],  # written so: not 3e0, which a store keeps so
        Literal("3", datatype=URIRef(XSD + "integer"), normalize=False): [33],
        Literal("3"): [36],
        Literal("3", lang="EN"): [41],
        Literal("3", datatype=URIRef(XSD + "decimal"), normalize=False): [
            49
        ],  # 3.0, by its stored form
        Literal("3", datatype=URIRef("http://ex.org/t")): [],
        URIRef("http://ex.org/3"): [],
    }
    for value, expected in columns.items():
        assert [w.column for w in object_triples(positions, x, value)] == expected, value
        found = written_triple(positions, x, p, value)
        assert (found.column if found else None) == (expected[0] if expected else None)
    # Named as written where found by the form stored.
    decimal = Literal("3", datatype=URIRef(XSD + "decimal"), normalize=False)
    named = sourcemap.as_written(written_triple(positions, x, p, decimal), decimal)
    assert (str(named), named.datatype) == ("3.0", URIRef(XSD + "decimal"))
    kept = Literal("3", datatype=double, normalize=False)
    assert sourcemap.as_written(written_triple(positions, x, p, kept), kept) is kept


def test_a_decimal_written_with_a_leading_dot_is_placed(tmp_path):
    """``.5`` is a decimal (Turtle's DECIMAL): the reader took its dot for the one that
    ends a statement, and the literal, and those after it in its list, had no place.
    The fast engine's ``"0.5"^^xsd:decimal`` is written so by ex:other, which the shape
    does not target: the targeted ``.5`` comes first though it is found by the form
    stored."""
    shapes = (
        PREFIXES + "ex:S a sh:NodeShape ; sh:targetObjectsOf ex:num ; sh:datatype xsd:integer ."
    )
    data = PREFIXES + "ex:x ex:num 1, .5, -.5e1 ; ex:other 0.5 .\n"
    assert _alike(own_shapes(tmp_path, shapes, data)) == [
        (".5", ".5", 4, 16),
        ("-.5e1", "-.5e1", 4, 20),
    ]
