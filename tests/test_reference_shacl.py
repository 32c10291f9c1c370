"""anthology_kg.reference_shacl: pySHACL run with each SPARQL constraint's text and
bindings worked out once gives pySHACL's own report, and leaves pySHACL as it was."""

from __future__ import annotations

import pyshacl
import pytest
from conftest import FIXTURES
from pyshacl.constraints.constraint_component import ConstraintComponent
from pyshacl.helper.sparql_query_helper import SPARQLQueryHelper
from rdflib.compare import isomorphic
from rdflib.namespace import SH

from anthology_kg.literals import literals_as_written
from anthology_kg.loader import load_anthology
from anthology_kg.reference_shacl import _constraint_messages_alone as MESSAGES_RULE
from anthology_kg.reference_shacl import shacl_report
from anthology_kg.swaps import swapped


@pytest.mark.parametrize("name", ["rule1-bad", "rule9-bad"])
def test_the_report_is_pyshacls_own(name):
    """rule1-bad and rule9-bad break SPARQL constraints (their results bind $this, ?path
    and ?value) on several focus nodes."""
    anthology = load_anthology(FIXTURES / "rules" / name)
    data = anthology.data
    methods = (SPARQLQueryHelper.pre_bind_variables, SPARQLQueryHelper.apply_prefixes)
    conforms, ours = shacl_report(data, anthology.shapes, allow_warnings=True)
    assert (SPARQLQueryHelper.pre_bind_variables, SPARQLQueryHelper.apply_prefixes) == methods
    # pySHACL's own run with the one rule of messages (rule1-bad's second SPARQL
    # constraint has a message of its own: pySHACL wrote its shape's beside it).
    with literals_as_written(), swapped(ConstraintComponent, "make_v_result", MESSAGES_RULE):
        theirs = pyshacl.validate(
            data, shacl_graph=anthology.shapes, allow_warnings=True, advanced=False
        )
    assert conforms is False and theirs[0] is False
    assert len(ours) == len(theirs[1]) and isomorphic(ours, theirs[1])


# Results under sh:or, sh:xone and sh:not (pySHACL makes and drops them) and under
# sh:node (its sh:detail), with pySHACL's generic messages and with a shape's own.
NESTED_DATA = """@prefix ex: <urn:x-test:> .
ex:a a ex:Thing ; ex:p 1, "one" ; ex:q ex:b .
ex:b a ex:Thing ; ex:p ex:c .
ex:c a ex:Thing .
"""
NESTED_SHAPES = """@prefix ex: <urn:x-test:> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:Things a sh:NodeShape ; sh:targetClass ex:Thing ;
  sh:property [ sh:path ex:p ;
    sh:or ( [ sh:datatype xsd:integer ] [ sh:nodeKind sh:BlankNode ] ) ;
    sh:xone ( [ sh:datatype xsd:string ] [ sh:minInclusive 0 ] ) ] ;
  sh:property [ sh:path ex:q ; sh:node ex:Named ; sh:message "q names no thing" ] ;
  sh:not [ sh:property [ sh:path ex:p ; sh:minCount 2 ] ] .
ex:Named a sh:NodeShape ; sh:property [ sh:path ex:p ; sh:nodeKind sh:Literal ] .
"""


def test_nested_results_give_pyshacls_own_report_and_pyshacl_is_left_as_it_was():
    """Without the text of each result and with the constraint parameters looked up by
    set (reference_shacl._report_graph_only), the report is pySHACL's own; afterwards
    pySHACL writes its text report again."""
    from pyshacl import shape as pyshacl_shape
    from pyshacl.constraints.constraint_component import ConstraintComponent
    from rdflib import Graph

    data = Graph().parse(data=NESTED_DATA, format="turtle")
    shapes = Graph().parse(data=NESTED_SHAPES, format="turtle")
    describe = ConstraintComponent.make_v_result_description
    conforms, ours = shacl_report(data, shapes)
    assert ConstraintComponent.make_v_result_description is describe
    assert type(pyshacl_shape.module.CONSTRAINT_PARAMS[0]) is list
    with literals_as_written():
        theirs = pyshacl.validate(data, shacl_graph=shapes, advanced=False)
    assert conforms is False and theirs[0] is False
    assert len(ours) == len(theirs[1]) and isomorphic(ours, theirs[1])
    components = {
        str(o).rsplit("#", 1)[1] for o in ours.objects(None, SH.sourceConstraintComponent)
    }
    assert components == {
        "OrConstraintComponent", "XoneConstraintComponent", "NodeConstraintComponent",
        "NotConstraintComponent", "NodeKindConstraintComponent",  # (a detail of sh:node's)
    }  # fmt: skip
    assert len(set(ours.objects(None, SH.detail))) == 1
    assert "Message: q names no thing" in theirs[2] and "Focus Node: ex:a" in theirs[2]


def test_another_thread_s_pyshacl_writes_its_text_report_while_ours_runs():
    """The result text is left out in the thread validating for shacl_report only: a
    caller's own pySHACL in another thread meanwhile gets its whole text report
    (review7: it got an empty one)."""
    import threading

    from rdflib import Graph

    from anthology_kg.reference_shacl import _report_graph_only

    data = Graph().parse(data=NESTED_DATA, format="turtle")
    shapes = Graph().parse(data=NESTED_SHAPES, format="turtle")
    texts = []
    with _report_graph_only():
        other = threading.Thread(
            target=lambda: texts.append(pyshacl.validate(data, shacl_graph=shapes)[2])
        )
        other.start()
        other.join(60)
    assert len(texts) == 1
    assert "Message: q names no thing" in texts[0] and "Focus Node: ex:a" in texts[0]
