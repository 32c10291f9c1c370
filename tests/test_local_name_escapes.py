"""A prefixed name's escaped character (PN_LOCAL_ESC, SPARQL 1.1 19.8: ``ex:a\\.b`` is
``<http://ex.org/a.b>``) is read without its backslash on both engines, in a query as in
a shape's SPARQL: rdflib kept the backslash, so the reference engine refused such a
query ('<http://ex.org/a\\.b> is no absolute IRI') and such a shape matched nothing."""

from __future__ import annotations

import pytest
from conftest import answered_alike, own_shapes, validated_alike

#: (a prefixed name, the IRI it stands for)
NAMES = {
    "a dot": ("ex:a\\.b", "http://ex.org/a.b"),
    "a hyphen and a tilde": ("ex:a\\-b\\~c", "http://ex.org/a-b~c"),
    "a percent sign": ("ex:a\\%41", "http://ex.org/a%41"),
    "a slash and a hash": ("ex:a\\/b\\#c", "http://ex.org/a/b#c"),
}


@pytest.mark.parametrize("case", NAMES, ids=list(NAMES))
def test_a_local_names_escape_is_read(case):
    name, iri = NAMES[case]
    text = f"PREFIX ex: <http://ex.org/>\nSELECT (STR({name}) AS ?iri) WHERE {{ }}"
    assert answered_alike("sparql", "-", "--format", "csv", input=text) == f"iri\n{iri}\n"


SHAPES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
    'ex:Decl sh:declare [ sh:prefix "v" ; sh:namespace "http://one.org/" ] .\n'
)
DATA = "<http://ex.org/a> <http://one.org/a-b> 1 ; <http://one.org/a.b> 2 .\n"


def test_an_ask_validators_escaped_name_matches(tmp_path):
    shapes = SHAPES + (
        "ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:needs ] ;\n"
        '  sh:validator [ a sh:SPARQLAskValidator ; sh:prefixes ex:Decl ; sh:message "no a-b" ;\n'
        '    sh:ask """ASK { $this v:a\\\\-b ?v }""" ] .\n'
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; ex:needs true .\n"
    )
    printed = validated_alike(*own_shapes(tmp_path, shapes, DATA), exit_code=0)
    assert "no a-b" not in printed


def test_a_selects_escaped_name_matches(tmp_path):
    shapes = SHAPES + (
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:prefixes ex:Decl ;\n"
        '  sh:message "a.b is {?v}" ; sh:select """SELECT $this ?v WHERE { $this v:a\\\\.b ?v }"""'
        " ] .\n"
    )
    printed = validated_alike(*own_shapes(tmp_path, shapes, DATA), "--format", "json")
    assert "a.b is 2" in printed, printed
