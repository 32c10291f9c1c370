"""SHACL 2.1.3 Targets: the focus nodes of a shape as a SPARQL pattern binding ``?this``.

Node targets, class-based targets, implicit class targets (a shape that is also an
``rdfs:Class``), subjects-of and objects-of targets. SHACL instances follow
``rdf:type/rdfs:subClassOf*`` in the data graph. ``sh:target`` (SHACL-AF custom
targets) is not part of the core or SPARQL-based suite and is refused.
"""

from __future__ import annotations

from rdflib import RDF, RDFS, Graph
from rdflib.namespace import OWL, SH
from rdflib.term import Node

from .errors import Unsupported
from .sparql_text import term

TYPE_PATH = f"<{RDF.type}>/<{RDFS.subClassOf}>*"
TARGET_PREDICATES = (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf)


def instance_of(node: str, cls: Node) -> str:
    """The pattern: ``node`` is a SHACL instance of ``cls``."""
    return f"{node} {TYPE_PATH} {term(cls)} ."


def has_targets(g: Graph, shape: Node) -> bool:
    return any((shape, p, None) in g for p in TARGET_PREDICATES) or _is_class(g, shape)


def _is_class(g: Graph, shape: Node) -> bool:
    return (shape, RDF.type, RDFS.Class) in g or (shape, RDF.type, OWL.Class) in g


def focus_nodes(g: Graph, shape: Node) -> str | None:
    """A subquery binding ``?this`` to each focus node of ``shape`` once, or None when
    the shape has no target."""
    if (shape, SH.target, None) in g:
        raise Unsupported(f"sh:target on shape {shape} (SHACL-AF custom targets)")
    parts = [f"{{ {instance_of('?this', cls)} }}" for cls in g.objects(shape, SH.targetClass)]
    if _is_class(g, shape):
        parts.append(f"{{ {instance_of('?this', shape)} }}")
    parts += [f"{{ VALUES ?this {{ {term(n)} }} }}" for n in g.objects(shape, SH.targetNode)]
    parts += [f"{{ ?this {term(p)} ?_ts . }}" for p in g.objects(shape, SH.targetSubjectsOf)]
    parts += [f"{{ ?_to {term(p)} ?this . }}" for p in g.objects(shape, SH.targetObjectsOf)]
    if not parts:
        return None
    return "{ SELECT DISTINCT ?this WHERE { " + " UNION ".join(sorted(parts)) + " } }"
