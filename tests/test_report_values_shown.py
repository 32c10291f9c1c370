"""The text report shows a node shape's value where it is not the focus node, and a
literal's language tag or datatype where its bare text would be ambiguous, so distinct
results print as distinct lines (hunt11 finding 10); both engines alike."""

from __future__ import annotations

from conftest import own_shapes, validated_alike

SHAPES = """@prefix ex: <http://ex.org/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
ex:S a sh:NodeShape ; sh:targetClass ex:T ; sh:equals ex:n .
ex:P a sh:NodeShape ; sh:targetClass ex:T ; sh:property [ sh:path ex:p ; sh:in ( "b" ) ] .
"""
DATA = """@prefix ex: <http://ex.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:a a ex:T ; ex:n 5, "5", "a"@en, ex:b, "http://ex.org/b", "2020"^^xsd:gYear, "x y" ;
  ex:p "c"@en .
"""


def test_distinct_results_print_as_distinct_lines(tmp_path):
    text = validated_alike(*own_shapes(tmp_path, SHAPES, DATA))
    lines = text.splitlines()[:-1]
    assert len(lines) == len(set(lines)) == 9
    details = sorted(line.split(" (", 2)[-1] for line in lines)
    assert details == sorted(
        [
            "http://ex.org/a)",  # ex:a itself: the focus node, its value
            "http://ex.org/a, value 5)",
            'http://ex.org/a, value "5")',
            'http://ex.org/a, value "a"@en)',
            "http://ex.org/a, value http://ex.org/b)",
            'http://ex.org/a, value "http://ex.org/b")',
            'http://ex.org/a, value "2020"^^xsd:gYear)',
            "http://ex.org/a, value x y)",
            'http://ex.org/a, <http://ex.org/p> "c"@en)',
        ]
    )


UNIQUE = """@prefix ex: <http://ex.org/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
ex:S a sh:NodeShape ; sh:targetClass ex:T ; sh:property ex:P .
ex:S2 a sh:NodeShape ; sh:targetClass ex:T ; sh:property ex:P .
ex:P sh:path ex:u ; sh:uniqueLang true .
"""


def test_sh_unique_lang_gives_a_result_per_repeated_language(tmp_path):
    """SHACL reports one result per language two values share; each names its tag.
    A shape reached from two parents still counts once (one focus, one shape)."""
    data = (
        '<http://ex.org/a> a <http://ex.org/T> ;\n  <http://ex.org/u> "a"@en, "b"@EN, "c"@fr,'
        ' "d"@fr, "e"@de .\n'
    )
    text = validated_alike(*own_shapes(tmp_path, UNIQUE, data))
    assert [line.split(" (")[-1] for line in text.splitlines()[:-1]] == [
        "http://ex.org/a, <http://ex.org/u> @en)",
        "http://ex.org/a, <http://ex.org/u> @fr)",
    ]
    assert "does not conform: 2 violation(s)" in text
