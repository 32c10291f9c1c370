"""Exporting the graph: what to include, what to infer, and byte-stable writers.

Every writer orders its output itself (subjects, predicates, objects; blank nodes carry
the content-derived labels the loader gives them), so the same graph gives the same bytes
whatever the hash seed or the order the files were parsed in. Inferred triples are
kept apart: a named graph in N-Quads and JSON-LD, a marked section in Turtle.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

import owlrl
from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.namespace import OWL, SKOS, XSD
from rdflib.term import Node

from .errors import AnthologyError
from .loader import Anthology
from .namespaces import PREFIXES, bind_prefixes
from .terms import nt_term
from .turtle import canonical_turtle

FORMATS = ("turtle", "ntriples", "nquads", "jsonld", "rdfxml")
INFERENCE = ("none", "rdfs", "owlrl")
PARTS = ("data", "ontology", "shapes")
INFERRED_GRAPH = URIRef("https://w3id.org/anthology-kg/graph/inferred")
_STANDARD = tuple(str(ns) for ns in (RDF, RDFS, OWL, XSD, SKOS)) + ("http://www.w3.org/ns/shacl#",)
_TRIVIAL_OBJECTS = {OWL.Thing, RDFS.Resource, OWL.Nothing}
_TRIVIAL_TYPES = {OWL.NamedIndividual, RDFS.Class, OWL.Class}
_REFLEXIVE = {
    OWL.sameAs,
    RDFS.subClassOf,
    RDFS.subPropertyOf,
    OWL.equivalentClass,
    OWL.equivalentProperty,
}


@dataclass
class Export:
    """What an export writes: the asserted graph and, apart, the inferred triples."""

    asserted: Graph
    inferred: Graph
    base: str
    inference: str


def parse_include(text: str) -> tuple[str, ...]:
    """``"data,ontology"`` to ``("data", "ontology")``; an unknown part is an error."""
    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise AnthologyError(f"--include takes a comma list of {', '.join(PARTS)}, not {text!r}")
    return parts


def _about_the_anthology(triple: tuple[Node, Node, Node], asserted: Graph) -> bool:
    s, p, o = triple
    if isinstance(s, Literal) or str(s).startswith(_STANDARD):
        return False
    if s not in asserted.subjects() and not isinstance(s, BNode):
        return False
    if p in _REFLEXIVE and s == o:
        return False
    return o not in _TRIVIAL_OBJECTS and not (p == RDF.type and o in _TRIVIAL_TYPES)


def build_export(
    anthology: Anthology, include: tuple[str, ...] = ("data", "ontology"), inference: str = "none"
) -> Export:
    """The graphs an export writes. With inference, the closure is computed over data and
    ontology together (owlrl), and only new triples about the anthology's own entries and
    terms are kept: no axioms about the RDF, RDFS, OWL, XSD, SKOS or SHACL vocabularies."""
    if inference not in INFERENCE:
        raise AnthologyError(f"--inferred takes one of {', '.join(INFERENCE)}")
    asserted = bind_prefixes(Graph(), anthology.base)
    for part in include:
        asserted += {
            "data": anthology.data,
            "ontology": anthology.ontology,
            "shapes": anthology.shapes,
        }[part]
    inferred = bind_prefixes(Graph(), anthology.base)
    if inference != "none":
        closure = Graph()
        closure += anthology.data
        closure += anthology.ontology
        semantics = owlrl.OWLRL_Semantics if inference == "owlrl" else owlrl.RDFS_Semantics
        owlrl.DeductiveClosure(semantics, axiomatic_triples=False).expand(closure)
        for triple in closure:
            if triple not in asserted and _about_the_anthology(triple, asserted):
                inferred.add(triple)
    return Export(asserted=asserted, inferred=inferred, base=anthology.base, inference=inference)


def _inferred_header(export: Export) -> str:
    return (
        f"# Inferred ({export.inference} closure with owlrl): entailed by the ontology, "
        "not asserted in data/."
    )


def to_turtle(export: Export) -> str:
    """Canonical Turtle; inferred triples follow in a section of their own, marked by a
    comment (Turtle has no named graphs)."""
    text = canonical_turtle(export.asserted, base=export.base)
    if len(export.inferred):
        body = canonical_turtle(export.inferred, base=export.base)
        statements = body.split("\n\n", 1)[1] if "\n\n" in body else ""
        prefixes = body.split("\n\n", 1)[0]
        missing = [line for line in prefixes.splitlines() if line not in text]
        if missing:  # a prefix only the inferred part uses goes with the others
            head, _, rest = text.partition("\n\n")
            lines = sorted(set(head.splitlines()) | set(missing))
            text = "\n".join(lines) + "\n\n" + rest
        text += "\n" + _inferred_header(export) + "\n\n" + statements
    return text


def _nt_lines(graph: Graph, graph_name: URIRef | None = None) -> list[str]:
    suffix = f" {nt_term(graph_name)} .\n" if graph_name is not None else " .\n"
    return sorted(f"{nt_term(s)} {nt_term(p)} {nt_term(o)}{suffix}" for s, p, o in graph)


def to_ntriples(export: Export) -> str:
    """Sorted N-Triples of the asserted and the inferred triples together."""
    return "".join(sorted(set(_nt_lines(export.asserted)) | set(_nt_lines(export.inferred))))


def to_nquads(export: Export) -> str:
    """Sorted N-Quads: asserted triples in the default graph, inferred ones in
    ``<https://w3id.org/anthology-kg/graph/inferred>``."""
    return "".join(_nt_lines(export.asserted) + _nt_lines(export.inferred, INFERRED_GRAPH))


def _jsonld_nodes(graph: Graph) -> list[dict]:
    nodes = []
    for subject in sorted(set(graph.subjects()), key=nt_term):
        node: dict = {"@id": subject.n3() if isinstance(subject, BNode) else str(subject)}
        types = sorted(str(o) for o in graph.objects(subject, RDF.type))
        if types:
            node["@type"] = types
        for predicate in sorted(set(graph.predicates(subject)) - {RDF.type}, key=str):
            values = []
            for o in sorted(graph.objects(subject, predicate), key=nt_term):
                if isinstance(o, Literal):
                    value: dict = {"@value": str(o)}
                    if o.language:
                        value["@language"] = o.language
                    elif o.datatype is not None and o.datatype != XSD.string:
                        value["@type"] = str(o.datatype)
                    values.append(value)
                else:
                    values.append({"@id": o.n3() if isinstance(o, BNode) else str(o)})
            node[str(predicate)] = values
        nodes.append(node)
    return nodes


def to_jsonld(export: Export) -> str:
    """Expanded JSON-LD 1.1, nodes and values sorted; inferred triples in a named graph."""
    document = _jsonld_nodes(export.asserted)
    if len(export.inferred):
        document.append({"@id": str(INFERRED_GRAPH), "@graph": _jsonld_nodes(export.inferred)})
    return json.dumps(document, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


_NCNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*$")


def _split_predicate(predicate: URIRef) -> tuple[str, str]:
    match = _NCNAME.search(str(predicate))
    if not match or match.start() == 0:
        raise AnthologyError(f"RDF/XML cannot write the predicate <{predicate}>")
    return str(predicate)[: match.start()], match.group(0)


def to_rdfxml(export: Export) -> str:
    """RDF/XML, one rdf:Description per subject, subjects, properties and values sorted.

    Written here rather than by rdflib, whose writer walks subjects in hash order.
    """
    triples = list(export.asserted) + list(export.inferred)
    namespaces = sorted({_split_predicate(p)[0] for _, p, _ in triples} | {str(RDF)})
    known = {ns: prefix for prefix, ns in PREFIXES.items()}
    known[export.base] = "id"
    names = {}
    for index, ns in enumerate(namespaces):
        names[ns] = known.get(ns, f"ns{index}")
    by_subject: dict[Node, list] = {}
    for s, p, o in triples:
        by_subject.setdefault(s, []).append((p, o))
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<rdf:RDF"]
    lines += [f'   xmlns:{names[ns]}="{_attr(ns)}"' for ns in sorted(namespaces, key=names.get)]
    lines[-1] += ">"
    for subject in sorted(by_subject, key=nt_term):
        if isinstance(subject, BNode):
            lines.append(f'  <rdf:Description rdf:nodeID="{subject}">')
        else:
            lines.append(f'  <rdf:Description rdf:about="{_attr(str(subject))}">')
        for p, o in sorted(set(by_subject[subject]), key=lambda po: (str(po[0]), nt_term(po[1]))):
            ns, local = _split_predicate(p)
            tag = f"{names[ns]}:{local}"
            if isinstance(o, URIRef):
                lines.append(f'    <{tag} rdf:resource="{_attr(str(o))}"/>')
            elif isinstance(o, BNode):
                lines.append(f'    <{tag} rdf:nodeID="{o}"/>')
            else:
                attrs = ""
                if o.language:
                    attrs = f' xml:lang="{o.language}"'
                elif o.datatype is not None and o.datatype != XSD.string:
                    attrs = f' rdf:datatype="{_attr(str(o.datatype))}"'
                lines.append(f"    <{tag}{attrs}>{escape(str(o))}</{tag}>")
        lines.append("  </rdf:Description>")
    lines.append("</rdf:RDF>")
    return "\n".join(lines) + "\n"


WRITERS = {
    "turtle": to_turtle,
    "ntriples": to_ntriples,
    "nquads": to_nquads,
    "jsonld": to_jsonld,
    "rdfxml": to_rdfxml,
}
