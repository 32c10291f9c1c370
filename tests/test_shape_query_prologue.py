"""A shape's SPARQL SELECT may start with its own prologue (PREFIX, BASE: SPARQL 1.1,
4.1.1): the fast engine's compiler nested the query, prologue and all, in a subquery,
where a prologue may not stand (exit 2, 'bad SPARQL: ... expected OPTIONAL'); it is now
moved to the top of the compiled query. The same results as the reference engine."""

from __future__ import annotations

import pytest
from conftest import own_shapes, validated_alike

DATA = "<http://ex.org/a> <http://ex.org/p> 1 .\n"


@pytest.mark.parametrize(
    "prologue",
    ["PREFIX ex: <http://ex.org/>", "BASE <http://ex.org/>\nPREFIX ex: <>"],
    ids=["prefix", "base and prefix"],
)
def test_a_select_with_its_own_prologue_runs_on_both_engines(tmp_path, prologue):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
        'ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:message "has ex:p" ;'
        f' sh:select """{prologue}\nSELECT $this WHERE {{ $this ex:p ?v }}""" ] .\n'
    )
    printed = validated_alike(*own_shapes(tmp_path, shapes, DATA))
    assert "has ex:p" in printed


COMPONENT = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    'ex:Decl sh:declare [ sh:prefix "ex" ; sh:namespace "http://ex.org/"^^xsd:anyURI ] .\n'
    "ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:needs ] ;\n"
    '  sh:validator [ a sh:SPARQLAskValidator ; sh:message "no {$needs}" ; VALIDATOR ] .\n'
    "ex:S a sh:NodeShape ; sh:targetNode ex:a ; ex:needs 2 .\n"
    "ex:T a sh:NodeShape ; sh:targetNode ex:a ; sh:node [ ex:needs 3 ] .\n"
)
SELECT_COMPONENT = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    'ex:Decl sh:declare [ sh:prefix "ex" ; sh:namespace "http://ex.org/"^^xsd:anyURI ] .\n'
    "ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:needs ] ;\n"
    '  sh:nodeValidator [ a sh:SPARQLSelectValidator ; sh:message "no {$needs}" ;'
    " sh:prefixes ex:Decl ;\n"
    '  sh:select """SELECT $this WHERE { $this ex:p ?v FILTER(?v != $needs) }""" ] .\n'
    "ex:S a sh:NodeShape ; sh:targetNode ex:a ; ex:needs 2 .\n"
)


@pytest.mark.parametrize(
    "validator",
    [
        'sh:prefixes ex:Decl ; sh:ask """ASK { $this ex:p ?v FILTER(?v = $needs) }"""',
        'sh:ask """PREFIX ex: <http://ex.org/>\nASK { $this ex:p ?v FILTER(?v = $needs) }"""',
    ],
    ids=["sh:prefixes", "its own PREFIX"],
)
def test_an_ask_validator_with_prefixes_runs_on_both_engines(tmp_path, validator):
    """The compiled query of a component's ASK validator had neither its sh:prefixes nor
    its own prologue: 'bad SPARQL: ... Prefix not found' (exit 2) on the fast engine."""
    shapes = COMPONENT.replace("VALIDATOR", validator)
    printed = validated_alike(*own_shapes(tmp_path, shapes, DATA))
    assert "no 2" in printed and "fails sh:node" in printed  # (ex:T's, through sh:node)


def test_a_select_validator_with_sh_prefixes_runs_on_both_engines(tmp_path):
    printed = validated_alike(*own_shapes(tmp_path, SELECT_COMPONENT, DATA))
    assert "no 2" in printed
