"""The prefixes the tool writes, as plain strings: writing RDF as text (the canonical
writers of ``turtle.py`` and ``export_writers.py``) needs no RDF library. ``namespaces.py``
gives the same namespaces as rdflib objects; a test holds the two equal."""

from __future__ import annotations

import functools
import re

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

#: SPARQL 1.1's PN_CHARS_BASE (grammar rule 164), as a regular-expression class body:
#: the letters a name starts with. With ``_`` it is XML 1.0's NameStartChar but ``:``.
NAME_START_CHARS = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
#: SPARQL 1.1's PN_CHARS (rule 167); with ``.`` it is XML 1.0's NameChar but ``:``.
NAME_CHARS = NAME_START_CHARS + "_\\-0-9\u00b7\u0300-\u036f\u203f-\u2040"

#: A local name rdflib writes as ``prefix:local`` after a ``/`` or ``#``: a letter or
#: underscore, then letters, digits, ``_``, ``-`` and ``.`` (rdflib's ``split_uri`` steps
#: back over these to the ``/`` or ``#`` and splits at the letter or underscore after
#: it; an entry's identifier such as ``ARXIV-2409.19256`` has a dot).
_SIMPLE_LOCAL = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def prefixed_name(iri: str, base: str = DEFAULT_BASE) -> str | None:
    """``iri`` as ``prefix:local`` where it is one of the tool's namespaces (``id:`` is
    ``base``) followed by a plain local name, else None (the caller asks rdflib).

    Written here so that naming an entry's class needs no RDF library; for these IRIs
    it is what rdflib's ``normalizeUri`` gives on a graph with these prefixes bound (a
    test holds the two equal)."""
    namespaces = _namespaces(base)
    for end in (iri.rfind("#"), iri.rfind("/")):
        if end <= 0:
            continue
        prefix = namespaces.get(iri[: end + 1])
        if prefix is not None and _SIMPLE_LOCAL.fullmatch(iri, end + 1):
            return f"{prefix}:{iri[end + 1 :]}"
    return None


@functools.lru_cache(maxsize=8)
def _namespaces(base: str) -> dict[str, str]:
    """Each namespace of ``PREFIXES`` (``id:`` bound to ``base``) to its prefix; none
    where two prefixes share a namespace (which one rdflib keeps is its own choice)."""
    bound = {prefix: base if prefix == "id" else iri for prefix, iri in PREFIXES.items()}
    if len(set(bound.values())) < len(bound) or base[-1:] not in ("/", "#"):
        return {}
    return {iri: prefix for prefix, iri in bound.items()}
