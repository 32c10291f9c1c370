"""Literals the fast engine's store keeps in another form than written (1.0 as "1",
"42"^^xsd:int as xsd:integer): where a shape reads the term as written, the default
engine validates on the reference engine and says so, so both engines give one verdict
(hunt11 finding 2); where none does, it keeps the fast engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

PREFIXES = (
    "@prefix ex: <http://ex.org/> .\n"
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
)

#: (shapes, data, the reference engine's number of results)
CASES = {
    "in, hasValue, equals as terms": (
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
        '  sh:property [ sh:path ex:n ; sh:in ( "1"^^xsd:decimal ) ] ,\n'
        "    [ sh:path ex:e ; sh:equals ex:f ] , [ sh:path ex:b ; sh:in ( true ) ] .\n",
        'ex:a a ex:T ;\n  ex:n 1.0 ; ex:e "01"^^xsd:integer ; ex:f 1 ; ex:b "1"^^xsd:boolean .\n',
        4,
    ),
    "disjoint": (
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
        "  sh:property [ sh:path ex:e ; sh:disjoint ex:f ] .\n",
        'ex:a a ex:T ;\n  ex:e "01"^^xsd:integer ; ex:f 1 .\n',
        0,
    ),
    "derived datatypes": (
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
        "  sh:property [ sh:path ex:age ; sh:datatype xsd:int ] ,\n"
        "    [ sh:path ex:at ; sh:datatype xsd:dateTimeStamp ] .\n",
        'ex:a a ex:T ;\n  ex:age "42"^^xsd:int ;'
        ' ex:at "2020-01-01T00:00:00Z"^^xsd:dateTimeStamp .\n',
        0,
    ),
    "pattern and counts on a node shape's values": (
        'ex:S a sh:NodeShape ; sh:targetObjectsOf ex:code ; sh:pattern "^0" .\n'
        "ex:C a sh:NodeShape ; sh:targetClass ex:T ;\n"
        "  sh:property [ sh:path ex:v ; sh:maxCount 1 ] .\n",
        'ex:a a ex:T ;\n  ex:code "07"^^xsd:integer ; ex:v 1.0, 1.00 .\n',
        1,
    ),
    "a SPARQL constraint's message": (
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ; sh:sparql [\n"
        '  sh:message "price {?value} too high" ;\n'
        '  sh:select "SELECT $this ?value WHERE { $this <http://ex.org/price> ?value . '
        'FILTER (?value > 1) }" ] .\n',
        "ex:a a ex:T ;\n  ex:price 1.50 .\n",
        1,
    ),
}


def _anthology(tmp_path: Path, shapes: str, data: str) -> tuple[Path, Path]:
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "X-1.ttl").write_text(PREFIXES + data, encoding="utf-8")
    (tmp_path / "s.ttl").write_text(PREFIXES + shapes, encoding="utf-8")
    return tmp_path, tmp_path / "s.ttl"


def _validate(root: Path, shapes: Path, engine: str):
    return run_cli(
        "--root", str(root), "validate", "--shapes", str(shapes), "--engine", engine,
        "--format", "json",
    )  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_shape_reading_a_rewritten_literal_gets_the_reference_engines_verdict(tmp_path, case):
    shapes, data, expected = CASES[case]
    root, shapes_file = _anthology(tmp_path, shapes, data)
    fast = _validate(root, shapes_file, "fast")
    reference = _validate(root, shapes_file, "reference")
    assert fast.exit_code == reference.exit_code == (1 if expected else 0)
    assert len(json.loads(reference.stdout)["results"]) == expected
    assert fast.stdout == reference.stdout
    # the notice names the first such literal where it is written, and why
    assert "X-1.ttl:5: " in fast.stderr and "using the reference engine" in fast.stderr
    assert "in the fast engine's store" in fast.stderr


def test_a_rewritten_literal_in_a_shape_is_named_where_the_shape_writes_it(tmp_path):
    root, shapes = _anthology(
        tmp_path,
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
        '  sh:property [ sh:path ex:h ; sh:hasValue "01"^^xsd:integer ] .\n',
        "ex:a a ex:T ; ex:h 1 .\n",
    )
    fast = _validate(root, shapes, "fast")
    assert fast.exit_code == 1 and len(json.loads(fast.stdout)["results"]) == 1
    assert 's.ttl:5: "01"^^xsd:integer is held as "1"^^xsd:integer' in fast.stderr


def test_the_fast_engine_is_kept_where_no_shape_reads_the_literal_as_written(tmp_path):
    """A value range compares values, and a literal that no term-reading constraint
    reaches changes nothing: the store's form gives SHACL's verdict."""
    root, shapes = _anthology(
        tmp_path,
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
        "  sh:property [ sh:path ex:price ; sh:maxInclusive 1 ] ,\n"
        '    [ sh:path ex:name ; sh:pattern "^a" ] .\n',
        'ex:a a ex:T ;\n  ex:price 1.50 ; ex:name "b" ; ex:other "01"^^xsd:integer .\n',
    )
    fast = _validate(root, shapes, "fast")
    assert fast.stderr == ""
    assert fast.exit_code == 1 and len(json.loads(fast.stdout)["results"]) == 2
    assert fast.stdout == _validate(root, shapes, "reference").stdout


def test_the_bundled_shapes_read_no_literal_as_written(tmp_path):
    """The bundled rules keep the fast engine on data written as ``generate`` writes it
    (``ak:minValue 4.0``) and on other non-canonical numbers: their SPARQL queries read
    a literal only for its presence or kind, and their term-reading constraints reach
    no number. Both engines give the same results."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ARXIV-2000.00001.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        'id:ARXIV-2000.00001 a ak:Reference ; dcterms:identifier "ARXIV-2000.00001" ;\n'
        '  dcterms:issued "2019"^^xsd:gYear ; dcterms:title "W" ; ak:authors "A" ;\n'
        "  ak:category ak:evaluation ; ak:readingStatus ak:unread ;\n"
        '  ak:takeaway [ a ak:Takeaway ; ak:position "01"^^xsd:integer ] ;\n'
        "  ak:makesClaim id:ARXIV-2000.00001-c .\n"
        "id:ARXIV-2000.00001-c a ak:QuantitativeClaim ; ak:figure [ a ak:Figure ;\n"
        '  ak:algorithm ak:ES ; ak:minValue 4.0 ; ak:maxValue 1.5E1 ; ak:unit "x" ] .\n',
        encoding="utf-8",
    )
    outputs = {}
    for engine in ("fast", "reference"):
        found = run_cli("--root", str(tmp_path), "validate", "--engine", engine, "--format", "json")
        outputs[engine] = (found.exit_code, found.stdout)
        if engine == "fast":
            assert found.stderr == ""
    assert outputs["fast"] == outputs["reference"]


def test_a_deferred_load_is_checked_on_the_bytes_it_keeps(tmp_path):
    """The site's engine is not parsed until used: the check reads the bytes kept, and
    leaves a load with nothing to fall back for unparsed."""
    from anthology_kg.engine import open_engine

    root, shapes = _anthology(tmp_path / "a", *CASES["derived datatypes"][:2])
    said: list[str] = []
    engine = open_engine(
        root=root, extra_shapes=[shapes], validates=True, deferred=True, warn=said.append
    )
    assert engine.name == "reference" and "X-1.ttl:5: " in said[0]
    kept, _ = _anthology(tmp_path / "b", "", 'ex:a ex:n 20.57, "2019"^^xsd:gYear .\n')
    engine = open_engine(root=kept, validates=True, deferred=True, warn=said.append)
    assert engine.name == "fast" and not engine.loaded and len(said) == 1


WRITTEN = [
    "1.0", "1.0.", "20.57", "( 007 )", "12, -3", "+5", "-0", ".5", "1e5", "-0.5",
    '"2019"^^xsd:gYear', '"01"^^xsd:integer', '"1"^^xsd:boolean', '"42"^^xsd:int',
    '"x"^^<http://ex.org/t>', '"""01"""^^xsd:integer', '"2020-01-01T00:00:00.0Z"^^xsd:dateTime',
    '"P1Y12M"^^xsd:duration', '"13:00:00"^^xsd:time', '"a\\"b"^^xsd:token',
]  # fmt: skip


@pytest.mark.parametrize("written", WRITTEN)
def test_the_byte_search_misses_no_literal_a_store_rewrites(written):
    """``may_be_rewritten`` is true for every literal a store keeps in another form, and
    false for these written in the store's form (no file read again for them)."""
    import pyoxigraph as ox

    from anthology_kg.literal_terms import may_be_rewritten, stored_form

    statement = written if written.endswith(".") else f"{written} ."
    data = f"{PREFIXES}ex:a ex:n {statement}\n".encode()
    literals = [q.object for q in ox.parse(data, format=ox.RdfFormat.TURTLE)]
    rewritten = any(stored_form(o) != o for o in literals if isinstance(o, ox.Literal))
    assert may_be_rewritten(data) == rewritten or (may_be_rewritten(data) and "\\" in written)
