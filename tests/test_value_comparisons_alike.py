"""The value ranges (sh:minInclusive and the three others), sh:lessThan and
sh:lessThanOrEquals compare values on the reference engine as on the fast engine: by
SPARQL's operators as pyoxigraph evaluates them (``reference_shacl._order_as_sparql``,
``_pairs_compared``), a value that does not compare a result (SHACL 4.4, 4.5.3-4).
pySHACL ordered a date against a dateTime or a number, gYears, durations and date-times
with and without a time zone its own way, and took a language string for a string."""

from __future__ import annotations

from conftest import own_shapes, validated_alike

DATA = """@prefix ex: <http://ex.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:n ex:dt "2020-01-01T00:00:00"^^xsd:dateTime, "2020-06-01T00:00:00"^^xsd:dateTime ;
  ex:dur "P20D"^^xsd:duration, "P2M"^^xsd:duration ;
  ex:y "2019"^^xsd:gYear, "2021"^^xsd:gYear ;
  ex:s "c"@en, "c", "a" ;
  ex:num "abc"^^xsd:integer, true, 3, 0, "2020-01-02"^^xsd:date ;
  ex:date "2020-01-01"^^xsd:date ;
  ex:later "2021-01-01T00:00:00Z"^^xsd:dateTime, "2020-01-02"^^xsd:date ;
  ex:a 1, 5 ; ex:b 3, "x" .
"""
SHAPES = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://ex.org/> .
ex:Dt a sh:NodeShape ; sh:targetNode ex:n ;
  sh:property [ sh:path ex:dt ; sh:minInclusive "2020-03-01T00:00:00Z"^^xsd:dateTime ] .
ex:Dur a sh:NodeShape ; sh:targetNode ex:n ;
  sh:property [ sh:path ex:dur ; sh:minExclusive "P1M"^^xsd:duration ] .
ex:Y a sh:NodeShape ; sh:targetNode ex:n ;
  sh:property [ sh:path ex:y ; sh:maxInclusive "2020"^^xsd:gYear ] .
ex:S a sh:NodeShape ; sh:targetNode ex:n ; sh:property [ sh:path ex:s ; sh:minInclusive "b" ] .
ex:N a sh:NodeShape ; sh:targetNode ex:n ; sh:property [ sh:path ex:num ; sh:maxExclusive 4 ] .
ex:Lt a sh:NodeShape ; sh:targetNode ex:n ; sh:property [ sh:path ex:date ; sh:lessThan ex:later ] .
ex:Le a sh:NodeShape ; sh:targetNode ex:n ;
  sh:property [ sh:path ex:a ; sh:lessThanOrEquals ex:b ] .
"""


def test_value_ranges_and_pairs_flag_the_same_values_on_both_engines(tmp_path):
    text = validated_alike(*own_shapes(tmp_path, SHAPES, DATA))
    flagged = sorted(
        (line.split("] fails ", 1)[1].split(" ", 1)[0], line.rsplit("> ", 1)[1].rstrip(")"))
        for line in text.splitlines()[:-1]
    )
    # pySHACL gave none of the five marked "-", and flagged "2019"^^xsd:gYear (as after
    # "2020") and "2020-06-01T00:00:00" (no time zone, as before "2020-03-01...Z") too.
    assert flagged == [
        ("sh:lessThan", '"2020-01-01"^^xsd:date'),  # - a date and a dateTime do not compare
        ("sh:lessThanOrEquals", "1"),  # 1 <= "x" is an error
        ("sh:lessThanOrEquals", "5"),
        ("sh:maxExclusive", '"2020-01-02"^^xsd:date'),  # - a date and a number
        ("sh:maxExclusive", '"abc"^^xsd:integer'),
        ("sh:maxExclusive", "true"),  # - a boolean and a number
        ("sh:maxInclusive", '"2021"^^xsd:gYear'),
        ("sh:minExclusive", '"P20D"^^xsd:duration'),  # - P20D and P1M do not compare
        ("sh:minInclusive", '"2020-01-01T00:00:00"^^xsd:dateTime'),
        ("sh:minInclusive", '"c"@en'),  # - a language string and a string
        ("sh:minInclusive", "a"),
    ], text
