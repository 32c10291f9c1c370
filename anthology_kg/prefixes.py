"""The prefixes the tool writes, as plain strings: writing RDF as text (the canonical
writers of ``turtle.py`` and ``export.py``) needs no RDF library. ``namespaces.py``
gives the same namespaces as rdflib objects; a test holds the two equal."""

from __future__ import annotations

from .choices import DEFAULT_BASE

#: The prefixes the tool binds when it writes or prints RDF, in this fixed set.
PREFIXES: dict[str, str] = {
    "ak": "https://w3id.org/anthology-kg/ns#",
    "aks": "https://w3id.org/anthology-kg/shapes#",
    "cito": "http://purl.org/spar/cito/",
    "dcterms": "http://purl.org/dc/terms/",
    "id": DEFAULT_BASE,
    "owl": "http://www.w3.org/2002/07/owl#",
    "prov": "http://www.w3.org/ns/prov#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "sh": "http://www.w3.org/ns/shacl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
