"""anthology_kg.reference_shacl: pySHACL run with each SPARQL constraint's text and
bindings worked out once gives pySHACL's own report, and leaves pySHACL as it was."""

from __future__ import annotations

import pyshacl
import pytest
from conftest import FIXTURES
from pyshacl.helper.sparql_query_helper import SPARQLQueryHelper
from rdflib.compare import isomorphic

from anthology_kg.literals import literals_as_written
from anthology_kg.loader import load_anthology
from anthology_kg.reference_shacl import shacl_report


@pytest.mark.parametrize("name", ["rule1-bad", "rule9-bad"])
def test_the_report_is_pyshacls_own(name):
    """rule1-bad and rule9-bad break SPARQL constraints (their results bind $this, ?path
    and ?value) on several focus nodes."""
    anthology = load_anthology(FIXTURES / "rules" / name)
    data = anthology.data
    methods = (SPARQLQueryHelper.pre_bind_variables, SPARQLQueryHelper.apply_prefixes)
    conforms, ours = shacl_report(data, anthology.shapes, allow_warnings=True)
    assert (SPARQLQueryHelper.pre_bind_variables, SPARQLQueryHelper.apply_prefixes) == methods
    with literals_as_written():
        theirs = pyshacl.validate(
            data, shacl_graph=anthology.shapes, allow_warnings=True, advanced=False
        )
    assert conforms is False and theirs[0] is False
    assert len(ours) == len(theirs[1]) and isomorphic(ours, theirs[1])
