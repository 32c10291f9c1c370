"""``--inference owlrl`` on the fast engine refuses (and the command falls back to owlrl)
a graph with a literal owlrl's own check refuses (its rule dt-not-type, an
inconsistency), for every datatype of owlrl's that it checks (hunt18 #8: those no SPARQL
cast tests, such as xsd:NCName and xsd:token, went unseen, so the engines' closures
differed with no word said)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from owlrl.DatatypeHandling import AltXSDToPYTHON
from owlrl.XsdDatatypes import OWL_RL_Datatypes
from rdflib import URIRef

from anthology_kg.errors import InferenceUnsupported
from anthology_kg.inference import _CHECKED_BY_OWLRL, _CHECKED_DATATYPES, materialize
from anthology_kg.terms import GRAPHS

DATA = GRAPHS["data"]
XSD = "http://www.w3.org/2001/XMLSchema#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#: A lexical form owlrl refuses and one it takes, for each datatype only owlrl checks.
FORMS = {
    URIRef(XSD + "NCName"): ("not a name", "ok"),
    URIRef(XSD + "token"): ("a  b", "a b"),
    URIRef(XSD + "language"): ("not a tag!", "en-GB"),
    URIRef(XSD + "Name"): ("1abc", "a:b"),
    URIRef(XSD + "NMTOKEN"): ("a b", "ab"),
    URIRef(XSD + "normalizedString"): ("a\tb", "a b"),
    URIRef(XSD + "hexBinary"): ("xyz", "0A"),
    URIRef(XSD + "base64Binary"): ("!!!", "QQ=="),
    URIRef(RDF + "XMLLiteral"): ("<a>", "<a/>"),
    URIRef(RDF + "PlainLiteral"): ("abc", "abc@en"),
}


def _store_with(form: str, datatype: str) -> ox.Store:
    store = ox.Store()
    literal = ox.Literal(form, datatype=ox.NamedNode(datatype))
    store.add(ox.Quad(ox.NamedNode("urn:x:s"), ox.NamedNode("urn:x:p"), literal, DATA))
    return store


@pytest.mark.parametrize("datatype", FORMS, ids=[d.split("#")[-1] for d in FORMS])
def test_a_literal_owlrl_refuses_is_refused_and_one_it_takes_is_not(datatype):
    refused, taken = FORMS[datatype]
    with pytest.raises(ValueError):  # (owlrl's verdicts, as this test assumes them)
        AltXSDToPYTHON[datatype](refused)
    AltXSDToPYTHON[datatype](taken)
    with pytest.raises(InferenceUnsupported, match=f"ill-formed {datatype} literal"):
        materialize(_store_with(refused, datatype), [DATA], "owlrl")
    assert materialize(_store_with(taken, datatype), [DATA], "owlrl") > 0


def test_every_datatype_owlrl_checks_is_checked():
    """owlrl's datatypes with a check that can refuse (not xsd:string's nor rdf:HTML's,
    which take any text) are the ones tested here by a SPARQL cast or by owlrl."""
    takes_any = {URIRef(XSD + "string"), URIRef(RDF + "HTML")}
    checked = {d for d in OWL_RL_Datatypes if d in AltXSDToPYTHON} - takes_any
    here = {ox.NamedNode(str(d)) for d in checked}
    assert here == _CHECKED_DATATYPES | _CHECKED_BY_OWLRL
    assert not _CHECKED_DATATYPES & _CHECKED_BY_OWLRL
