"""Rule 9's two shapes name one list of the properties whose values are entries
(review46 #6): aks:Rule9NoDanglingReference's query (the properties an entry must be
at the end of) and aks:Rule9ReferenceIsNoText's targets (whose values may be no text).
A property added to one and not the other would check IRIs and texts of different
properties, silently."""

import re

from rdflib import Graph, Namespace, URIRef

from anthology_kg.resources import bundled_shapes_dir

SH = Namespace("http://www.w3.org/ns/shacl#")
AKS = Namespace("https://w3id.org/anthology-kg/shapes#")
PREFIXES = {
    "ak": "https://w3id.org/anthology-kg/ns#",
    "dcterms": "http://purl.org/dc/terms/",
    "cito": "http://purl.org/spar/cito/",
}


def test_the_two_shapes_of_rule_9_name_the_same_properties():
    shapes = Graph().parse(bundled_shapes_dir() / "integrity.ttl")
    targets = set(shapes.objects(AKS.Rule9ReferenceIsNoText, SH.targetObjectsOf))
    # The shape's constraint that follows references (the other checks its classes).
    (query,) = [
        text
        for constraint in shapes.objects(AKS.Rule9NoDanglingReference, SH.sparql)
        if "?path IN (" in (text := str(shapes.value(constraint, SH.select)))
    ]
    # the list after the last "?path IN (" of the query: the entry-valued properties
    listed = re.findall(r"\b(ak|dcterms|cito):(\w+)", query[query.rindex("?path IN (") :])
    named = {URIRef(PREFIXES[prefix] + local) for prefix, local in listed}
    assert len(targets) == 25 and targets == named
