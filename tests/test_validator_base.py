"""An ASK validator's BASE is the BASE of the compiled query it is joined into (review46
#1, #2, a regression of f540ff2): with the IRIs written out and the prologue dropped,
IRI("b") in ``BASE <http://ex.org/> ASK { FILTER($value = IRI("b")) }`` no longer
resolved (SPARQL 1.1, 17.4.2.8: against the query's base, as it runs), a false
violation on the fast engine, and a relative IRI written with a ``\\u`` escape stopped it
('bad SPARQL', exit 2). Two validators of one query with two BASEs leave the shape to
the reference engine. Both engines answer alike."""

from __future__ import annotations

import pytest
from conftest import own_shapes, run_cli, validated_alike

HEAD = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"


def component(name: str, parameter: str, ask: str) -> str:
    return (
        f"ex:{name} a sh:ConstraintComponent ; sh:parameter [ sh:path ex:{parameter} ] ;\n"
        f'  sh:validator [ a sh:SPARQLAskValidator ; sh:message "bad {parameter}" ;\n'
        f'    sh:ask """{ask}""" ] .\n'
    )


def shape(*parameters: str) -> str:
    uses = " ; ".join(f"ex:{p} true" for p in parameters)
    return f"ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:property [ sh:path ex:p ; {uses} ] .\n"


IRI_CALL = component("C", "needs", 'BASE <http://ex.org/>\nASK { FILTER($value = IRI("b")) }')
ESCAPED = component("E", "escaped", "BASE <http://ex.org/>\nASK { $this <p\\\\u0041> ?v }")


@pytest.mark.parametrize(
    ("value", "violated"), [("<http://ex.org/b>", False), ("<http://ex.org/c>", True)]
)
def test_iri_of_a_relative_text_resolves_against_the_validators_base(tmp_path, value, violated):
    data = f"<http://ex.org/a> <http://ex.org/p> {value} .\n"
    printed = validated_alike(
        *own_shapes(tmp_path, HEAD + IRI_CALL + shape("needs"), data), exit_code=int(violated)
    )
    assert ("bad needs" in printed) is violated, printed


@pytest.mark.parametrize(("holds", "violated"), [(True, False), (False, True)])
def test_a_relative_iri_written_with_an_escape_resolves(tmp_path, holds, violated):
    pa = "<http://ex.org/pA> 2 " if holds else "<http://ex.org/pB> 2 "
    data = f"<http://ex.org/a> <http://ex.org/p> 1 ; {pa}.\n"
    printed = validated_alike(
        *own_shapes(tmp_path, HEAD + ESCAPED + shape("escaped"), data), exit_code=int(violated)
    )
    assert ("bad escaped" in printed) is violated, printed


def test_two_bases_in_one_query_leave_the_shape_to_the_reference_engine(tmp_path):
    """Two validators used through one sh:node are joined into one query."""
    needs = component(
        "C", "needs", 'BASE <http://ex.org/>\nASK { $this <p> ?o FILTER(?o = IRI("b")) }'
    )
    other = component("D", "other", 'BASE <http://other.org/>\nASK { FILTER(IRI("b") != $this) }')
    joined = (
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:node [ ex:needs true ; ex:other true ] .\n"
    )
    data = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> .\n"
    args = own_shapes(tmp_path, HEAD + needs + other + joined, data)
    assert validated_alike(*args, exit_code=0).startswith("conforms")
    said = run_cli(*args, "--engine", "fast").stderr
    assert "two BASEs" in said and "using the reference engine" in said, said
