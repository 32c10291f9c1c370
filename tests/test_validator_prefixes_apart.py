"""Two ASK validators joined into one compiled query may declare one prefix for two
namespaces (their sh:prefixes, or their own PREFIX): the fast engine hoisted every
PREFIX line to the top of the query, where the later declaration won, so one validator
read the other's IRIs (a false violation, or a missed one; bbc6bd3's note). Each
validator's IRIs are now written out in its pattern; both engines answer alike."""

from __future__ import annotations

import pytest
from conftest import own_shapes, validated_alike

from anthology_kg.sparql_text import iris_written_out

SHAPES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    'ex:D1 sh:declare [ sh:prefix "v" ; sh:namespace "http://one.org/"^^xsd:anyURI ] .\n'
    'ex:D2 sh:declare [ sh:prefix "v" ; sh:namespace "http://two.org/"^^xsd:anyURI ] .\n'
    "ex:C1 a sh:ConstraintComponent ; sh:parameter [ sh:path ex:one ] ;\n"
    "  sh:validator [ a sh:SPARQLAskValidator ; sh:prefixes ex:D1 ;\n"
    '    sh:ask """ASK { $this v:p ?v }""" ] .\n'
    "ex:C2 a sh:ConstraintComponent ; sh:parameter [ sh:path ex:two ] ;\n"
    "  sh:validator [ a sh:SPARQLAskValidator ; sh:prefixes ex:D2 ;\n"
    '    sh:ask """ASK { $this v:q ?v }""" ] .\n'
    # its own prologue: a BASE, a PREFIX v: relative to it, a dot inside a local name
    # and the triple's end right after one (rdflib keeps the backslash of an escaped
    # local name, v:a\\.b: not here)
    "ex:C3 a sh:ConstraintComponent ; sh:parameter [ sh:path ex:three ] ;\n"
    '  sh:validator [ a sh:SPARQLAskValidator ; sh:ask """BASE <http://three.org/>\n'
    'PREFIX v: <sub/>\nASK { $this <r> ?v . $this v:a.b v:c. }""" ] .\n'
    "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
    "  sh:node [ ex:one true ; ex:two true ; ex:three true ] .\n"
)
THREE = (
    "<http://ex.org/a> <http://three.org/r> 3 ;"
    " <http://three.org/sub/a.b> <http://three.org/sub/c> .\n"
)


@pytest.mark.parametrize(
    ("data", "violated"),
    [
        ("<http://ex.org/a> <http://one.org/p> 1 ; <http://two.org/q> 2 .\n" + THREE, False),
        # (v:p is <http://one.org/p>, whatever the other validators declare v: to be)
        ("<http://ex.org/a> <http://two.org/p> 1 ; <http://two.org/q> 2 .\n" + THREE, True),
        ("<http://ex.org/a> <http://one.org/p> 1 ; <http://two.org/q> 2 .\n", True),
    ],
    ids=["both hold", "one does not", "three does not"],
)
def test_each_validator_reads_its_own_namespaces_on_both_engines(tmp_path, data, violated):
    printed = validated_alike(*own_shapes(tmp_path, SHAPES, data), exit_code=1 if violated else 0)
    assert ("fails sh:node" in printed) is violated, printed


def test_iris_are_written_out_by_the_prefixes_then_the_texts_own_prologue():
    text = (
        "BASE <http://b.org/x/>\nPREFIX v: <y/>\n# v:c\n"
        'ASK { $this v:p <z>, <http://a.org/../q>, w:r, u:s, "v:t" ; v:a\\.b%20c:d v:o. }'
    )
    assert iris_written_out(text, {"v": "http://zero/", "w": "http://w.org/"}) == (
        "ASK { $this <http://b.org/x/y/p> <http://b.org/x/z>, <http://a.org/../q>, "
        '<http://w.org/r>, u:s, "v:t" ; <http://b.org/x/y/a.b%20c:d> <http://b.org/x/y/o>. }'
    )
