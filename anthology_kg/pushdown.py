"""SHACL validation pushed down to a SPARQL store: the compiled shapes are sent as
SELECT queries to the store's endpoint, so the data is validated where it lives and
only result rows travel (no CONSTRUCT of the data).

The queries read the named data graph and the published ontology graph as their
default graph (``default-graph-uri``): the ontology's rdf:type and rdfs:subClassOf
triples let sh:class and sh:targetClass see subclass instances, as the vocabulary
graph does locally. For the report's wording, a query whose answer holds a blank focus
node or value is asked again with the entries that hold them (a blank node can only be
followed in the query that found it), and one more query asks for the identifiers and
holders of the results' IRIs; they make a small local graph, never the data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rdflib import BNode, Graph, URIRef
from rdflib.namespace import DCTERMS, RDFS
from rdflib.term import Node

from .choices import ONTOLOGY_GRAPH, SHAPES_GRAPH
from .endpoint import Connection, run_remote
from .shacl import Compiler, ResultRow, run_compiled
from .shacl.targets import hierarchy
from .terms import nt_term
from .triplestore import query_url, require_graph

# Links an entry to a blank node it holds in the small local graph of the report.
HOLDS = URIRef("urn:anthology-kg:holds")
_ID = f"<{DCTERMS.identifier}>"
OWNER_DEPTH = 3  # entries hold their parts at most this deep (arms, claims, ranges)
_LEVELS = range(1, OWNER_DEPTH + 1)
_BATCH = 500
# The variables a compiled query projects (``SELECT DISTINCT ?this ?value ?path WHERE``).
_PROJECTION = re.compile(r"SELECT\s+(?:DISTINCT\s+|REDUCED\s+)?((?:\?\w+\s+)+)WHERE\b", re.I)
_PROLOGUE = re.compile(r"(?:\s*(?:PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>))*\s*", re.I)


def _referrers(var: str, child: str, level: int = 1, blank: bool = False) -> str:
    """Nested OPTIONALs binding the referrers of ``child`` (``?ak_var_1``), theirs
    (``?ak_var_2``) and so on up to OWNER_DEPTH, each with its identifier if it has
    one: the walk ``loader.find_owner`` makes, stopped at a node with an identifier.
    With ``blank``, only a blank ``child`` is followed."""
    if level > OWNER_DEPTH:
        return ""
    node = f"?ak_{var}_{level}"
    walk = f"isBlank({child})" if blank else f"!isLiteral({child})"
    return (
        f" OPTIONAL {{ FILTER ({walk} && NOT EXISTS {{ {child} {_ID} ?ak_x }}) "
        f"{node} ?ak_{var}_p{level} {child} . OPTIONAL {{ {node} {_ID} ?ak_{var}_id{level} }}"
        f"{_referrers(var, node, level + 1)} }}"
    )


def _with_owners(text: str) -> str:
    """The compiled query, with the referrers of a focus node that lacks an identifier
    and of a blank value (for the report's wording, ``[] of ENTRY`` as a local run
    says it: a blank node can only be followed in the same query). Only the variables
    read are projected: the answer's head lists each, in every one of the ~30 answers."""
    # ?value is unbound in some solutions (sh:minCount has no value): an OPTIONAL that
    # named it would bind it to every blank node of the data. ?ak_v is bound in every
    # solution, to the value or to an IRI, which no blank node equals (not projected).
    value = f" BIND (COALESCE(?value, {nt_term(HOLDS)}) AS ?ak_v)"
    owners = _referrers("this", "?this") + value + _referrers("value", "?ak_v", blank=True)
    prologue = _PROLOGUE.match(text)
    head = prologue.group(0) if prologue else ""
    body = text[len(head) :]
    projected = _PROJECTION.match(body)
    chain = [f"?ak_{v}_{k}{n}" for v in ("this", "value") for n in _LEVELS for k in ("", "id")]
    keep = " ".join([projected.group(1).strip(), *chain]) if projected else "*"
    return f"{head}SELECT {keep} WHERE {{ {{ {body} }}{owners} }}"


def _holds_blank(variables: list[str], rows: list[tuple[Node | None, ...]]) -> bool:
    """Whether a solution binds ``?this`` or ``?value`` to a blank node."""
    columns = [i for i, name in enumerate(variables) if name in ("this", "value")]
    return any(isinstance(row[i], BNode) for row in rows for i in columns)


def _keep_owners(found: dict[str, Node | None], var: str, local: Graph) -> None:
    """Add the referrer chain of ``?var`` in the solution ``found`` to ``local``."""
    child = found.get(var)
    for level in _LEVELS:
        parent = found.get(f"ak_{var}_{level}")
        if parent is None or child is None:
            return
        local.add((parent, HOLDS, child))
        identifier = found.get(f"ak_{var}_id{level}")
        if identifier is not None:
            local.add((parent, DCTERMS.identifier, identifier))
        child = parent


def remote_rows(
    shapes: Graph, endpoint: str, graph: str, connection: Connection | None = None
) -> tuple[list[ResultRow], Graph]:
    """The results of ``shapes`` on the named graph ``graph`` of the store at
    ``endpoint``, computed by the store; and the small graph that names the entries
    holding their focus nodes and values (identifiers and referrer chains)."""
    url = query_url(endpoint, [graph, ONTOLOGY_GRAPH])
    require_graph(endpoint, graph, connection)
    local = Graph()

    def select(text: str) -> Iterator[dict[str, Node | None]]:
        # The walk to the holders is asked for only where an answer needs it: most hold no
        # blank node, and a store may join the walk by reading every triple (Virtuoso 7.2:
        # ~0.1 s a query at 300 entries, where the query alone takes a few ms).
        result = run_remote(url, text, kind="select", connection=connection)
        if _holds_blank(result.variables, result.rows):
            result = run_remote(url, _with_owners(text), kind="select", connection=connection)
        for row in result.rows:
            found = dict(zip(result.variables, row, strict=True))
            _keep_owners(found, "this", local)
            _keep_owners(found, "value", local)
            yield {k: v for k, v in found.items() if not k.startswith("ak_")}

    pairs = run_remote(
        url,
        f"SELECT DISTINCT ?sub ?super WHERE {{ ?sub <{RDFS.subClassOf}> ?super }}",
        kind="select",
        connection=connection,
    ).rows
    known = hierarchy((sub, sup) for sub, sup in pairs if sub is not None and sup is not None)
    rows = run_compiled(select, Compiler(shapes, SHAPES_GRAPH, known).compile())
    # A focus node is named by its nearest entry (its referrers, up to OWNER_DEPTH); a
    # value IRI by its own identifier only (the report never walks a value's referrers:
    # ak:method, say, is the object of every method entry).
    focus = {r.focus for r in rows if isinstance(r.focus, URIRef)}
    values = {r.value for r in rows if isinstance(r.value, URIRef)} - focus
    for nodes, owners in ((sorted(focus), True), (sorted(values), False)):
        for start in range(0, len(nodes), _BATCH):
            listed = " ".join(nt_term(n) for n in nodes[start : start + _BATCH])
            text = (
                f"SELECT * WHERE {{ VALUES ?n {{ {listed} }} OPTIONAL {{ ?n {_ID} ?ak_id }}"
                f"{_referrers('n', '?n') if owners else ''} }}"
            )
            result = run_remote(url, text, kind="select", connection=connection)
            for row in result.rows:
                found = dict(zip(result.variables, row, strict=True))
                node, identifier = found.get("n"), found.get("ak_id")
                if node is not None and identifier is not None:
                    local.add((node, DCTERMS.identifier, identifier))
                _keep_owners(found, "n", local)
    return rows, local
