"""SHACL 2.1.3 Targets: the focus nodes of a shape as a SPARQL pattern binding ``?this``.

Node targets, class-based targets, implicit class targets (a shape that is also an
``rdfs:Class``), subjects-of and objects-of targets. SHACL instances follow
``rdf:type/rdfs:subClassOf*`` in the data graph, or, when the class hierarchy was read
beforehand (``Hierarchy``, ``read_hierarchy``), ``rdf:type`` with one of the class's
known subclasses.
``sh:target`` (SHACL-AF custom targets) is not part of the core or SPARQL-based suite
and is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from .errors import Unsupported
from .graph import ShapesGraph as Graph
from .sparql_rewrite import term
from .vocabulary import OWL, RDF, RDFS, SH, ox_term, text
from .vocabulary import Term as Node

if TYPE_CHECKING:
    from ..kinds import Term

TYPE_PATH = f"{RDF.type}/{RDFS.subClassOf}*"
TARGET_PREDICATES = (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf)


#: Each class, with itself and all its subclasses (rdfs:subClassOf*).
Hierarchy = Mapping[Node, Sequence[Node]]


#: The predicate of a focus node's triple in ``Compiler``'s ``focus_graph``: ``shape
#: FOCUS_NODE node`` (a literal may be a focus node, and only an object may be one).
FOCUS_NODE = ox.NamedNode("urn:anthology-kg:focus-node")


def hierarchy(pairs: Iterable[tuple[Any, Any]]) -> dict[Any, list[Any]]:
    """The Hierarchy of the ``(subclass, superclass)`` pairs of a graph (terms of
    either library, kept as given)."""
    below: dict[Any, set[Any]] = {}
    for sub, sup in pairs:
        below.setdefault(sup, set()).add(sub)
    closure: dict[Any, list[Any]] = {}
    for cls in below:
        seen, todo = {cls}, [cls]
        while todo:
            for sub in below.get(todo.pop(), ()):
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
        closure[cls] = sorted(seen, key=text)
    return closure


def read_hierarchy(select: Callable[[str], Iterable[Mapping[str, object]]]) -> Hierarchy:
    """The Hierarchy of the data graph that ``select`` queries (a validator's Select),
    on pyoxigraph terms whichever library's terms ``select`` answers."""
    rows = select(f"SELECT DISTINCT ?sub ?super WHERE {{ ?sub {RDFS.subClassOf} ?super }}")
    return hierarchy(
        (ox_term(sub), ox_term(sup))
        for r in rows
        if (sub := r.get("sub")) is not None and (sup := r.get("super")) is not None
    )


def ox_hierarchy(known: Hierarchy | Mapping[Term, Sequence[Term]]) -> Hierarchy:
    """A Hierarchy on pyoxigraph terms (one read with rdflib's terms converted)."""
    return {ox_term(cls): [ox_term(sub) for sub in subs] for cls, subs in known.items()}


def instance_of(
    node: str, cls: object, known: Mapping[Any, Sequence[Any]] | None = None, via: str = ""
) -> str:
    """The pattern: ``node`` is a SHACL instance of ``cls``; with the class hierarchy
    ``known``, ``node`` has ``cls`` or one of its subclasses as its rdf:type (``via``,
    a variable of its own, holds that type).

    A store reads the path as well, but Virtuoso 7.2 gets ``rdfs:subClassOf*`` (and
    ``+``) wrong once its plan enters the path from a bound node: it keeps the match of
    the first node only, in joins and in EXISTS alike, with one default graph or two.
    A class with a blank node below it keeps the path: a query cannot name that node.
    """
    found = (known.get(cls) or [cls]) if known is not None else []
    classes, cls = [ox_term(c) for c in found], ox_term(cls)  # (a caller may give rdflib's)
    if not classes or any(isinstance(c, ox.BlankNode) for c in classes):
        return f"{node} {TYPE_PATH} {term(cls)} ."
    if len(classes) == 1:
        return f"{node} {RDF.type} {term(classes[0])} ."
    return f"VALUES {via} {{ {' '.join(map(term, classes))} }} {node} {RDF.type} {via} ."


def has_targets(g: Graph, shape: Node) -> bool:
    return any(g.has(shape, p) for p in TARGET_PREDICATES) or _is_class(g, shape)


def _is_class(g: Graph, shape: Node) -> bool:
    return g.has(shape, RDF.type, RDFS.Class) or g.has(shape, RDF.type, OWL.Class)


def focus_nodes(
    g: Graph,
    shape: Node,
    known: Hierarchy | None = None,
    path_targets: bool = False,
    distinct: bool = True,
    grouped: bool = False,
) -> str | None:
    """A subquery binding ``?this`` to each focus node of ``shape`` once, or None when
    the shape has no target (``known``: the class hierarchy, see ``instance_of``).

    Without ``distinct`` a focus node may be bound more than once (a node with two
    types, say): the form for a query whose answer is a set that no aggregate counts,
    where it gives the same results. The DISTINCT is a hash set of every focus node:
    at 100,000 entries, ``sh:targetSubjectsOf rdf:type`` made it 36 MB and half the
    time of the target.

    With ``path_targets``, ``known`` serves only a target that is one class without
    subclasses (``?this rdf:type C``); any other class target keeps the path. That is
    Oxigraph's fastest plan each way: it hash-joins the path's focus nodes with the
    constraint's pattern, where the hierarchy's form (a VALUES of classes, or a union
    beside the path) turns into a lookup per focus node, five times the cost of a row of a
    hash join; a small class is best looked up. Push-down leaves it off (Virtuoso 7.2).

    ``grouped``: each focus node once, by a GROUP BY, which pyoxigraph 0.5 evaluates
    before the query's filters; a DISTINCT it does not: it tests a filter on every
    binding of ``?this`` before dropping the repeats, and a test of a node with n values
    of a ``sh:targetSubjectsOf`` (a shape with n ``sh:property``) costs up to n each:
    n*n (SHACL-SHACL's ShapeShape, 16,000 property shapes: 68 s)."""
    pattern = focus_pattern(g, shape, known, path_targets)
    if pattern is None:
        return None
    if grouped:
        return "{ SELECT ?this WHERE { " + pattern + " } GROUP BY ?this }"
    head = "SELECT DISTINCT ?this" if distinct else "SELECT ?this"
    return "{ " + head + " WHERE { " + pattern + " } }"


def focus_pattern(
    g: Graph, shape: Node, known: Hierarchy | None = None, path_targets: bool = False
) -> str | None:
    """The pattern of ``focus_nodes``' subquery: a union binding ``?this`` to the focus
    nodes of ``shape`` (and ``?_ts``, ``?_to``, ``?_tc`` to what found them), or None
    when the shape has no target."""
    if g.has(shape, SH.target):
        raise Unsupported(f"sh:target on shape {shape.value} (SHACL-AF custom targets)")
    classes = g.objects(shape, SH.targetClass)
    if _is_class(g, shape):
        classes.append(shape)
    parts = [f"{{ VALUES ?this {{ {term(n)} }} }}" for n in g.objects(shape, SH.targetNode)]
    parts += [f"{{ ?this {term(p)} ?_ts . }}" for p in g.objects(shape, SH.targetSubjectsOf)]
    parts += [f"{{ ?_to {term(p)} ?this . }}" for p in g.objects(shape, SH.targetObjectsOf)]
    if path_targets and known is not None:
        one_class = not parts and len(classes) == 1 and len(known.get(classes[0], ())) <= 1
        known = known if one_class else None
    parts += [f"{{ {instance_of('?this', cls, known, '?_tc')} }}" for cls in classes]
    if not parts:
        return None
    return " UNION ".join(sorted(parts))


def every_typed_node(g: Graph, shape: Node) -> bool:
    """Whether the focus nodes of ``shape`` include every node that has a type
    (``sh:targetSubjectsOf rdf:type``): in most graphs nearly every subject."""
    return g.has(shape, SH.targetSubjectsOf, RDF.type)
