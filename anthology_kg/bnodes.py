"""Blank-node labels derived from content, so that output never depends on parse order.

A blank node's label is a hash of what it says (its outgoing triples, nested blank
nodes included) and of where it hangs (the subjects and predicates pointing at it).
Blank nodes the hash cannot tell apart (alike to ``_DEPTH``) get a suffix in the order
of their content and context refined to any depth (``_tie_order``), never in the order
of the labels a parser gave them, which are random per parse.

``first_degree_labels`` gives the labels of RDF Dataset Canonicalization (RDFC-1.0)
where its first step settles them all, the exports' common case.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from . import forking
from .cli_context import in_command
from .errors import CanonicalizationTooCostly

# rdflib only for ``stable_labels`` and ``relabel`` (rdflib graphs): the writers' RDFC-1.0
# labels work on text, and ``export`` runs without loading rdflib.
if TYPE_CHECKING:
    from rdflib import BNode, Graph
    from rdflib.term import Node

_DEPTH = 6
OxObject = ox.NamedNode | ox.BlankNode | ox.Literal


def stable_labels(graph: Graph) -> dict[Node, BNode]:
    """A new label for every blank node of ``graph``, from its content and context."""
    from rdflib import BNode

    labels = _content_labels(graph, lambda node: isinstance(node, BNode), lambda n: n.n3())
    return {node: BNode(label) for node, label in labels.items()}


_XSD = "http://www.w3.org/2001/XMLSchema#"
_INF_NAN_TYPES = {_XSD + "float", _XSD + "double", _XSD + "decimal"}


def rdflib_n3(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> str:
    """The text rdflib's ``n3()`` gives the same term (a pyoxigraph term here), which
    ``stable_labels`` hashes: the labels of a graph read by either library agree."""
    if isinstance(term, ox.NamedNode):
        return f"<{term.value}>"
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    lexical = term.value
    if "\n" in lexical:
        encoded = lexical.replace("\\", "\\\\")
        if '"""' in lexical:
            encoded = encoded.replace('"""', '\\"\\"\\"')
        if encoded[-1] == '"' and encoded[-2] != "\\":
            encoded = encoded[:-1] + "\\" + '"'
        encoded = encoded.replace("\r", "\\r")
        encoded = f'"""{encoded}"""'
    else:
        escaped = lexical.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")
        encoded = f'"{escaped}"'
    if term.language:
        return f"{encoded}@{term.language}"
    datatype = term.datatype.value
    if datatype == _XSD + "string":
        return encoded
    if datatype in _INF_NAN_TYPES:
        try:
            number = float(lexical)
        except ValueError:
            number = 0.0
        if math.isinf(number):
            encoded = encoded.replace("inf", "INF").replace("Infinity", "INF")
        if math.isnan(number):
            encoded = encoded.replace("nan", "NaN")
    return f"{encoded}^^<{datatype}>"


def ox_stable_labels(
    triples: Iterable[tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode, OxObject]],
) -> dict[ox.BlankNode, ox.BlankNode]:
    """``stable_labels`` for pyoxigraph triples: the same labels as rdflib's graph of
    the same triples gets."""
    labels = _content_labels(triples, lambda node: isinstance(node, ox.BlankNode), rdflib_n3)
    return {node: ox.BlankNode(label) for node, label in labels.items()}


def _content_labels(
    triples: Iterable[tuple[Any, Any, Any]],
    is_blank: Callable[[Any], bool],
    n3: Callable[[Any], str],
) -> dict[Any, str]:
    """A label for every blank node of ``triples``, from its content and context."""
    outgoing: dict[Any, list[tuple[Any, Any]]] = defaultdict(list)
    incoming: dict[Any, list[tuple[Any, Any]]] = defaultdict(list)
    for s, p, o in triples:
        if is_blank(s):
            outgoing[s].append((p, o))
        if is_blank(o):
            incoming[o].append((s, p))
    if not outgoing and not incoming:
        return {}

    @cache
    def content(node: Any, depth: int) -> str:
        if depth == 0:
            return "_"
        parts = sorted(
            f"{n3(p)} {content(o, depth - 1) if is_blank(o) else n3(o)}" for p, o in outgoing[node]
        )
        return "[" + ";".join(parts) + "]"

    @cache
    def context(node: Any, depth: int) -> str:
        if depth == 0:
            return "_"
        parts = sorted(
            f"{context(s, depth - 1) if is_blank(s) else n3(s)} {n3(p)}" for s, p in incoming[node]
        )
        return "<" + ";".join(parts) + ">"

    groups: dict[str, list[Any]] = defaultdict(list)
    for node in set(outgoing) | set(incoming):
        text = context(node, _DEPTH) + content(node, _DEPTH)
        groups[_digest(text)[:16]].append(node)
    labels: dict[Any, str] = {}
    tied: list[tuple[str, list[Any]]] = []
    for digest, nodes in groups.items():
        if len(nodes) == 1:
            labels[nodes[0]] = f"b{digest}"
        else:
            tied.append((digest, nodes))
    if tied:
        digests = {node: digest for digest, nodes in groups.items() for node in nodes}
        order = _tie_order(digests, outgoing, incoming, is_blank, n3)
        for digest, nodes in tied:
            for index, node in enumerate(sorted(nodes, key=order.__getitem__)):
                labels[node] = f"b{digest}x{index}"
    return labels


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _tie_order(
    colors: dict[Any, str],
    outgoing: dict[Any, list[tuple[Any, Any]]],
    incoming: dict[Any, list[tuple[Any, Any]]],
    is_blank: Callable[[Any], bool],
    n3: Callable[[Any], str],
) -> dict[Any, str]:
    """A key per blank node, from ``colors`` (the content hashes) refined by the whole
    graph, that orders blank nodes alike to ``_DEPTH`` without their parser labels.

    Colour refinement: a node's colour is rehashed with its neighbours' colours until no
    class splits, for at most ``EXACT_ROUNDS`` rounds; past them (a chain of blank nodes
    splits one class a round: quadratic) ``_equitable`` refines on to the same classes in
    near-linear time. Nodes it still cannot tell apart are split one at a time, the one
    chosen being the one whose marking gives the least canonical (RDFC-1.0) text of the
    coloured graph. Candidates with equal text are interchangeable (an automorphism maps
    one onto the other), so the labelled graph's text never depends on which is taken.
    A class of alike blocks (each candidate in a component or a hanging block of its
    own, ``_blocks``) is split at once, the first such class in colour order before any
    other (``_interchangeable_marks``): many alike blocks under one subject took a
    canonicalization per candidate and round, O(n) rounds."""
    terms: dict[Any, str] = {}

    def term(node: Any) -> str:
        if node not in terms:
            terms[node] = n3(node)
        return terms[node]

    # What a node's colour is rehashed with, split into the text that stays (its IRIs'
    # and literals') and the blank nodes whose colours change: the text is as if built
    # from ``outgoing`` and ``incoming`` each round, at a third of the cost.
    fixed_out: dict[Any, list[str]] = {}
    fixed_in: dict[Any, list[str]] = {}
    blank_out: dict[Any, list[tuple[str, Any]]] = {}
    blank_in: dict[Any, list[tuple[Any, str]]] = {}

    def refine(colors: dict[Any, str]) -> dict[Any, str]:
        for node in colors.keys() - fixed_out.keys():
            fixed_out[node] = [f"{term(p)} {term(o)}" for p, o in outgoing[node] if not is_blank(o)]
            blank_out[node] = [(f"{term(p)} ", o) for p, o in outgoing[node] if is_blank(o)]
            fixed_in[node] = [f"{term(s)} {term(p)}" for s, p in incoming[node] if not is_blank(s)]
            blank_in[node] = [(s, f" {term(p)}") for s, p in incoming[node] if is_blank(s)]
        classes = len(set(colors.values()))
        for _ in range(EXACT_ROUNDS):
            new = {}
            for node, color in colors.items():
                out = fixed_out[node] + [p + colors[o] for p, o in blank_out[node]]
                into = fixed_in[node] + [colors[s] + p for s, p in blank_in[node]]
                out.sort()
                into.sort()
                new[node] = _digest(color + "|" + ";".join(out) + "|" + ";".join(into))
            count = len(set(new.values()))
            if count == classes:
                return colors
            colors, classes = new, count
        return _equitable(colors, links)

    # Only the blank nodes linked (through blank nodes) to a tied one can change a tied
    # node's colour; each such component is marked on its own below: components meet
    # only at IRIs and literals, so equal marked texts of two components still mean an
    # automorphism of the whole graph (swap the two components).
    component = _components(colors, outgoing, is_blank)
    counts: dict[str, int] = defaultdict(int)
    for color in colors.values():
        counts[color] += 1
    kept = {component[node] for node, color in colors.items() if counts[color] > 1}
    colors = {node: color for node, color in colors.items() if component[node] in kept}
    edges: dict[Any, list[tuple[Any, str, Any]]] = defaultdict(list)
    for s, pairs in outgoing.items():
        if s in colors:
            edges[component[s]] += [(s, term(p), o) for p, o in pairs]
    for o, pairs in incoming.items():
        if o in colors:
            edges[component[o]] += [(s, term(p), o) for s, p in pairs if not is_blank(s)]
    # Each blank node's links to the others: (direction, predicate) and the node at the
    # other end, for ``_equitable``.
    links: dict[Any, list[tuple[tuple[str, str], Any]]] = defaultdict(list)
    for s, pairs in outgoing.items():
        if s in colors:
            for p, o in pairs:
                if is_blank(o):
                    links[s].append((("in", term(p)), o))
                    links[o].append((("out", term(p)), s))

    def interchangeable(candidates: list[Any]) -> dict[Any, str] | None:
        """Marks telling ``candidates`` apart at once (``_interchangeable_marks``) if
        they lie in blocks that can be swapped: each in a component of its own, or in a
        block of its own (``_blocks``), all alike with their candidate marked."""
        if len({component[node] for node in candidates}) == len(candidates):
            parts: dict[Any, list[tuple[Any, str, Any]]] | None = {
                node: edges[component[node]] for node in candidates
            }
        else:
            parts = _blocks(candidates, outgoing, incoming, is_blank, term)
        if parts is None:
            return None
        texts = {_marked_text(colors, node, parts[node], term, spent) for node in candidates}
        return _interchangeable_marks(candidates, colors, term) if len(texts) == 1 else None

    colors = refine(colors)
    spent = [0]  # the estimated work of the canonicalizations so far (``_marked_text``)
    while True:
        members: dict[str, list[Any]] = defaultdict(list)
        for node, color in colors.items():
            members[color].append(node)
        shared = sorted(color for color, nodes in members.items() if len(nodes) > 1)
        if not shared:
            return colors
        for color in shared:  # alike blocks (the first such class): marked at once
            marks = interchangeable(members[color])
            if marks is not None:
                break
        if marks is not None:
            colors = refine({**colors, **marks})
            continue
        # equal texts: any choice gives the same labelled text; the parser label only
        # keeps rdflib's and pyoxigraph's labels of the same parse the same
        chosen = min(
            members[shared[0]],
            key=lambda node: (
                _marked_text(colors, node, edges[component[node]], term, spent),
                term(node),
            ),
        )
        colors = refine({**colors, chosen: _digest(colors[chosen] + "!")})


def _blocks(
    candidates: list[Any],
    outgoing: dict[Any, list[tuple[Any, Any]]],
    incoming: dict[Any, list[tuple[Any, Any]]],
    is_blank: Callable[[Any], bool],
    term: Callable[[Any], str],
) -> dict[Any, list[tuple[Any, str, Any]]] | None:
    """Each candidate's block, the triples of the blank nodes its triples reach (itself
    included), when the blocks hang apart: no two share a blank node, and nothing
    outside a block points into it but at its candidate, from the same subjects and
    predicates for every candidate (alike blocks under one blank node, say); else None.
    Two such blocks that look alike with their candidates marked can then be swapped,
    an automorphism of the graph."""
    owner: dict[Any, Any] = {}
    blocks: dict[Any, list[tuple[Any, str, Any]]] = {}
    hung_from: list[Counter[tuple[Any, Any]]] = []
    for candidate in candidates:
        if candidate in owner:
            return None
        owner[candidate] = candidate
        nodes = [candidate]
        for node in nodes:
            for _, o in outgoing[node]:
                if not is_blank(o):
                    continue
                if o not in owner:
                    owner[o] = candidate
                    nodes.append(o)
                elif owner[o] != candidate:
                    return None
        outside: Counter[tuple[Any, Any]] = Counter()
        for node in nodes:
            for s, p in incoming[node]:
                if is_blank(s) and owner.get(s) == candidate:
                    continue
                if node != candidate:
                    return None
                outside[s, p] += 1
        if hung_from and outside != hung_from[0]:
            return None
        hung_from.append(outside)
        blocks[candidate] = [(node, term(p), o) for node in nodes for p, o in outgoing[node]]
    return blocks


def _interchangeable_marks(
    candidates: list[Any], colors: dict[Any, str], term: Callable[[Any], str]
) -> dict[Any, str]:
    """The marks of ``candidates`` (alike, each in a component of its own, their marked
    texts equal) that tell them all apart at once: swapping two of their components is
    an automorphism however many of the others are marked, so the order among them
    cannot change the labelled graph. They are the marks that marking one at a time
    (the first by parser label, ``_tie_order``'s choice among equal texts) gives when
    marking splits nothing else, as for blank nodes with no blank neighbour: the first
    marked ``len - 1`` times over, the last not at all. One at a time, each mark of a
    class took a canonicalization per member and marks collided (a mark's colour was
    the one an earlier mark of that class had got), so that 300 alike blocks under one
    subject took 45,000 canonicalizations."""
    ordered = sorted(candidates, key=term)
    marks: dict[Any, str] = {}
    color = colors[ordered[-1]]
    for node in reversed(ordered[:-1]):
        color = _digest(color + "!")
        marks[node] = color
    return marks


#: Rounds of colour refinement ``_tie_order`` runs before it hands over to
#: ``_equitable``: the labels these rounds settle are those rehashing to the end gave.
#: Blank nodes alike to ``_DEPTH`` links that differ within this many more take that
#: many; the bundled and generated anthologies have no blank nodes alike to ``_DEPTH``.
EXACT_ROUNDS = 8


def _equitable(
    colors: dict[Any, str], links: dict[Any, list[tuple[tuple[str, str], Any]]]
) -> dict[Any, str]:
    """The coarsest refinement of ``colors``' classes in which alike nodes have as many
    links of each direction and predicate (``links``) to each class, as colour
    refinement run to its end gives; a node's colour is its class's place in an order
    taken from the colours and the links alone, never from the parser's labels.

    Partition refinement with a queue of classes to split by (Hopcroft; as nauty's
    refinement): a class split while queued queues all its parts, one split while not
    all but its largest, so each node is in O(log n) of the classes split by, and the
    work is O(m log n) where rehashing every node until no class splits was O(n) rounds
    of O(m) on a chain."""
    by_color: dict[str, list[Any]] = defaultdict(list)
    for node, color in colors.items():
        by_color[color].append(node)
    members: dict[int, set[Any]] = {}  # each class by its place: its first position
    place: dict[Any, int] = {}
    start = 0
    for color in sorted(by_color):
        members[start] = set(by_color[color])
        place.update(dict.fromkeys(by_color[color], start))
        start += len(by_color[color])
    queue = deque(members)
    queued = set(members)
    while queue:
        splitter = queue.popleft()
        queued.discard(splitter)
        counts: dict[Any, Counter[tuple[str, str]]] = defaultdict(Counter)
        for node in members[splitter]:
            for key, other in links[node]:
                counts[other][key] += 1
        touched: dict[int, list[Any]] = defaultdict(list)
        for node in counts:
            touched[place[node]].append(node)
        for start in sorted(touched):
            whole = members[start]
            # the nodes by their links to the splitter: each kind of link, how many
            keyed: dict[tuple[tuple[tuple[str, str], int], ...], list[Any]] = defaultdict(list)
            for node in touched[start]:
                keyed[tuple(sorted(counts[node].items()))].append(node)
            rest = len(whole) - len(touched[start])  # no link to the splitter: first
            if not rest and len(keyed) == 1:
                continue
            parts = [(start, rest)] if rest else []
            whole.difference_update(touched[start])
            position = start + rest
            for signature in sorted(keyed):
                nodes = keyed[signature]
                members[position] = set(nodes)
                place.update(dict.fromkeys(nodes, position))
                parts.append((position, len(nodes)))
                position += len(nodes)
            if start not in queued:
                largest = max(parts, key=lambda part: part[1])  # the first of the largest
                parts.remove(largest)
            for part, _ in parts:
                if part not in queued:
                    queue.append(part)
                    queued.add(part)
    width = len(str(len(place)))
    return {node: f"{start:0{width}d}" for node, start in place.items()}


def _components(
    nodes: Iterable[Any],
    outgoing: dict[Any, list[tuple[Any, Any]]],
    is_blank: Callable[[Any], bool],
) -> dict[Any, Any]:
    """Each blank node's component (a representative node) of the graph of blank nodes
    linked by a triple, either way."""
    parent = {node: node for node in nodes}

    def root(node: Any) -> Any:
        while parent[node] is not node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for s, pairs in outgoing.items():
        for _, o in pairs:
            if is_blank(o):
                parent[root(o)] = root(s)
    return {node: root(node) for node in parent}


#: The work of canonicalizing one quad that ties nothing, in ``canonical_work``'s steps
#: (1.1e-7 s each): 7.8 to 8.7 us a quad measured (``_marked_text``, 82 to 802 quads).
QUAD_STEPS = 75

_COLOR = ox.NamedNode("urn:x-anthology-kg:color")
_MARK = ox.NamedNode("urn:x-anthology-kg:chosen")


def _marked_text(
    colors: dict[Any, str],
    chosen: Any,
    edges: list[tuple[Any, str, Any]],
    term: Callable[[Any], str],
    spent: list[int],
) -> str:
    """The RDFC-1.0 canonical N-Quads of one component's triples (``edges``), each blank node
    carrying its colour and ``chosen`` a mark; other terms are their colour too (a
    non-blank term's colour is its text), so equal texts mean an automorphism of the
    coloured graph that takes ``chosen`` onto the other candidate.

    ``spent[0]`` adds up the estimated work of these calls, one per candidate and round
    (``canonical_work``'s and ``QUAD_STEPS`` a quad): past the limit
    (``current_work_limit``) ``CanonicalizationTooCostly`` is raised before
    canonicalizing (a cycle of 500 alike blank nodes cost 500 canonicalizations of
    1.2e8 steps each, minutes of CPU; 60 alike blank nodes each pointing back at the one
    above them, 9,719 canonicalizations estimated at 0 steps, 22 s)."""
    members = {node for s, _, o in edges for node in (s, o) if node in colors} | {chosen}
    blank = {node: ox.BlankNode(f"n{index}") for index, node in enumerate(members)}

    def as_ox(node: Any) -> Any:
        if node in blank:
            return blank[node]
        return ox.NamedNode("urn:x-anthology-kg:term:" + _digest(term(node)))

    quads = [ox.Quad(blank[node], _COLOR, ox.Literal(colors[node])) for node in members]
    quads.append(ox.Quad(blank[chosen], _MARK, _MARK))
    quads += [
        ox.Quad(as_ox(s), ox.NamedNode("urn:x-anthology-kg:term:" + _digest(p)), as_ox(o))
        for s, p, o in edges
    ]
    work = canonical_work([(str(q.subject), str(q.predicate), str(q.object), "") for q in quads])
    spent[0] += work.steps + QUAD_STEPS * len(quads)
    limit = current_work_limit()[0]
    if limit is not None and spent[0] > limit:
        # the terms here are digests: no place or predicate to name
        largest = max(work.groups, key=lambda group: group.steps, default=None)
        if largest is not None and largest.size > 1:
            size, orders = largest.size, largest.orders
        else:  # no group costs: the canonicalizations of the alike candidates add up
            size, orders = sum(color == colors[chosen] for color in colors.values()), 1
        raise CanonicalizationTooCostly(size, orders, spent[0], limit)
    dataset = ox.Dataset(quads)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return "".join(sorted(str(quad) + "\n" for quad in dataset))


def relabel(graph: Graph) -> Graph:
    """A copy of ``graph`` (same namespaces) with stable blank-node labels."""
    from rdflib import Graph

    labels = stable_labels(graph)
    if not labels:
        return graph
    out = Graph(namespace_manager=graph.namespace_manager)
    for s, p, o in graph:
        out.add((labels.get(s, s), p, labels.get(o, o)))
    return out


#: A quad as the N-Quads text of its subject, predicate, object and graph name ("" for
#: the default graph).
QuadText = tuple[str, str, str, str]


def _first_degree_line(quad: QuadText, node: str) -> str:
    """One quad of ``node`` as RDFC-1.0's Hash First Degree Quads writes it: ``node`` as
    ``_:a``, any other blank node as ``_:z``."""
    s, p, o, g = quad
    if s[0] == "_":
        s = "_:a" if s == node else "_:z"
    if o[0] == "_":
        o = "_:a" if o == node else "_:z"
    return f"{s} {p} {o} {g} .\n" if g else f"{s} {p} {o} .\n"


#: Each blank node of some quads with its RDFC-1.0 first-degree hash.
Hashes = dict[str, str]


def first_degree_hashes(quads: Iterable[QuadText]) -> Hashes:
    """Each blank node's RDFC-1.0 first-degree hash (Hash First Degree Quads); the
    functions below take them so that one computation serves them all."""
    by_node: dict[str, list[QuadText]] = defaultdict(list)
    for quad in quads:
        s, _, o, _ = quad
        if s[0] == "_":
            by_node[s].append(quad)
        if o[0] == "_" and o != s:
            by_node[o].append(quad)
    return {
        node: _digest("".join(sorted([_first_degree_line(q, node) for q in found])))
        for node, found in by_node.items()
    }


def first_degree_labels(
    quads: Iterable[QuadText], hashes: Hashes | None = None
) -> dict[str, str] | None:
    """The RDFC-1.0 canonical labels (``_:c14nN``) of the blank nodes of ``quads`` when
    each has a first-degree hash of its own, else None.

    Written here because it is the common case and building a pyoxigraph ``Dataset`` to
    canonicalize costs more than the rest of an export: these are steps 1 to 4 of the
    Canonicalization Algorithm (https://www.w3.org/TR/rdf-canon/#canon-algo-algo), which
    issue every label when no two hashes are equal. When two are, step 5 (Hash N-Degree
    Quads) is needed and the caller asks pyoxigraph (``Dataset.canonicalize``). Terms
    are pyoxigraph's N-Triples text, the form the algorithm hashes; blank nodes only as
    subject or object (a triple term, a blank graph name: the caller's to refuse)."""
    by_node = first_degree_hashes(quads) if hashes is None else hashes
    nodes = {h: node for node, h in by_node.items()}
    if len(nodes) < len(by_node):  # two blank nodes share a hash
        return None
    return {nodes[h]: f"_:c14n{index}" for index, h in enumerate(sorted(nodes))}


#: ``canonical_work``'s estimate past which ``check_canonical_work`` refuses: about 13 s
#: of CPU for an rdf:List of equal values, a chain or a cycle of blank nodes (about 465
#: of them; 1.1 to 1.4e-7 s a step measured, benchmarks/bench_canonical.py). Alike
#: leaves under alike nodes cost less a step (1.2 to 1.5e-8), binary trees of alike
#: nodes more as they grow (1.8e-7 at 511 nodes: about the fourth power of their size).
#: The anthology's own graphs estimate at 0: every blank node has a first-degree hash
#: of its own.
CANONICAL_WORK_LIMIT = 100_000_000

#: The limit and the option that sets it, where ``canonical_work_limit`` set them.
_work_limit: ContextVar[tuple[int | None, str | None] | None] = ContextVar(
    "canonical_work_limit", default=None
)


@contextlib.contextmanager
def canonical_work_limit(limit: int | None, option: str | None = None) -> Iterator[None]:
    """Within the block, ``check_canonical_work`` refuses past ``limit`` steps (None:
    never) instead of ``CANONICAL_WORK_LIMIT``, and its error names ``option``, the
    command's option that sets the limit."""
    token = _work_limit.set((limit, option))
    try:
        yield
    finally:
        _work_limit.reset(token)


def current_work_limit() -> tuple[int | None, str | None]:
    """The limit ``check_canonical_work`` applies here (None: none) and the option
    that sets it (None: no option)."""
    return _work_limit.get() or (CANONICAL_WORK_LIMIT, None)


@dataclass(frozen=True)
class TiedGroup:
    """Blank nodes RDFC-1.0 can tell apart only by exploring paths (Hash N-Degree
    Quads): ``size`` nodes linked by quads, each sharing its first-degree hash with
    another; ``orders``, the most orderings of alike neighbours one of them has;
    ``steps``, the group's estimated work (``canonical_work``); ``members``, its nodes."""

    size: int
    orders: int
    steps: int
    members: frozenset[str]


@dataclass(frozen=True)
class CanonicalWork:
    """``canonical_work``'s estimate: ``steps`` in all, and the groups it counts."""

    steps: int
    groups: list[TiedGroup]


#: An alike-neighbour group past this size counts as this size: its orderings are far
#: past any limit already (25! is 1.6e25).
_MOST_ALIKE = 25


def canonical_work(quads: Sequence[QuadText], hashes: Hashes | None = None) -> CanonicalWork:
    """RDFC-1.0's work on ``quads`` estimated in linear time, without canonicalizing.

    Step 5 of the algorithm runs Hash N-Degree Quads from each blank node whose
    first-degree hash another shares (a tied node). The call recurses into every tied
    node linked to it, so through its whole group of tied nodes linked by quads, copying
    the issuer (which grows to the group's nodes) at each step, and tries every order
    of the neighbours that look alike (same position, predicate and first-degree hash).
    A group of ``m`` tied nodes, one of which has ``P`` such orders (the product of the
    factorials of its alike groups' sizes), is estimated at ``m**3 * P`` steps; nodes
    with a hash of their own cost nothing. Only first-degree hashes are used, so the
    estimate does not depend on the labels the parser gave."""
    if hashes is None:
        hashes = first_degree_hashes(quads)
    counts = Counter(hashes.values())
    tied = {node for node, h in hashes.items() if counts[h] > 1}
    if not tied:
        return CanonicalWork(0, [])
    parent = {node: node for node in tied}

    def root(node: str) -> str:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    alike: Counter[tuple[str, str, str, str]] = Counter()
    for s, p, o, _ in quads:
        if s in tied and o in tied and s != o:
            parent[root(o)] = root(s)
            alike[s, "s", p, hashes[o]] += 1
            alike[o, "o", p, hashes[s]] += 1
    orders = dict.fromkeys(tied, 1)
    for (node, *_), count in alike.items():
        orders[node] *= math.factorial(min(count, _MOST_ALIKE))
    members: dict[str, set[str]] = defaultdict(set)
    for node in tied:
        members[root(node)].add(node)
    groups = []
    for nodes in members.values():
        most = max(orders[node] for node in nodes)
        groups.append(TiedGroup(len(nodes), most, len(nodes) ** 3 * most, frozenset(nodes)))
    return CanonicalWork(sum(group.steps for group in groups), groups)


def _incoming(quads: Sequence[QuadText]) -> dict[str, list[tuple[str, str]]]:
    """The (subject, predicate) pairs pointing at each blank node of ``quads``."""
    incoming: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s, p, o, _ in quads:
        if o[0] == "_":
            incoming[o].append((s, p))
    return incoming


def anchor(
    incoming: dict[str, list[tuple[str, str]]], nodes: frozenset[str]
) -> tuple[str, str] | None:
    """Where the blank ``nodes`` hang: the least (subject, predicate) whose subject is
    an IRI nearest to them through blank nodes pointing at them (``incoming``:
    ``_incoming``'s), or None if no IRI points at them."""
    seen = set(nodes)
    layer = list(nodes)
    while layer:
        found = [(s, p) for node in layer for s, p in incoming[node] if s[0] != "_"]
        if found:
            return min(found)
        layer = [s for node in layer for s, _ in incoming[node] if s not in seen]
        seen.update(layer)
    return None


def check_canonical_work(quads: Sequence[QuadText], hashes: Hashes | None = None) -> int:
    """The estimated work of canonicalizing ``quads`` (``canonical_work``'s steps);
    ``CanonicalizationTooCostly`` when it passes the limit (``current_work_limit``),
    naming the costliest group of tied blank nodes and where it hangs. Called before
    ``Dataset.canonicalize``, which cannot be stopped once started."""
    limit, option = current_work_limit()
    work = canonical_work(quads, hashes)
    if limit is None or work.steps <= limit:
        return work.steps
    incoming = _incoming(quads)
    worst = max(group.steps for group in work.groups)
    placed = [
        (anchor(incoming, group.members) or ("", ""), group)
        for group in work.groups
        if group.steps == worst
    ]
    where, group = min(placed, key=lambda pair: (pair[0], pair[1].size))
    # Turtle nests a blank node used once as an object: no label needed if all are
    # (a tree hanging from an IRI; a cycle is never reached from one).
    nested = bool(where[0]) and all(len(incoming[node]) == 1 for node in group.members)
    members = group.members
    linked = sorted({p for s, p, o, _ in quads if s in members and o in members})
    raise CanonicalizationTooCostly(
        group.size,
        group.orders,
        work.steps,
        limit,
        where if where[0] else None,
        option,
        groups=len(work.groups),
        nested=nested,
        linked=tuple(linked),
    )


#: ``canonical_nquads`` canonicalizes in a child process from this many estimated steps
#: on (about 1 s of CPU): below it, a stop signal waits at most that long. The fork
#: costs with the process's size (wall, median of 20: 3 ms at 29 MB, 7 ms holding a
#: 10,000-entry export, 87 ms at 280 MB, 0.49 s at 1.3 GB), too much to pay for 0.1 s.
CHILD_PROCESS_STEPS = 10_000_000


def canonical_nquads(quads: Sequence[QuadText], hashes: Hashes | None = None) -> bytes:
    """The N-Quads of ``quads`` with their blank nodes labelled by RDFC-1.0 (pyoxigraph's
    ``Dataset.canonicalize``), once ``check_canonical_work`` allows it.

    pyoxigraph holds the interpreter's lock while it canonicalizes, so no signal
    handler runs until it returns: Ctrl-C and SIGTERM would wait for it. Within a
    command of the command line (``cli_context.in_command``), a canonicalization
    estimated at ``CHILD_PROCESS_STEPS`` or more therefore runs in a forked child
    process while this one waits on a pipe, where a stop signal acts at once: the child
    is killed and the signal's exception goes on (a file being written is removed as on
    any failure). A library call runs it here: forking a host process whose other
    threads may hold locks can deadlock the child. So does a system without fork."""
    steps = check_canonical_work(quads, hashes)
    text = "".join(f"{s} {p} {o} {g} .\n" if g else f"{s} {p} {o} .\n" for s, p, o, g in quads)
    if steps < CHILD_PROCESS_STEPS or not hasattr(os, "fork") or not in_command():
        return _canonicalized(text)
    return _in_child(_canonicalized, text)


def _canonicalized(text: str) -> bytes:
    """N-Quads ``text`` canonicalized by RDFC-1.0 and serialized as N-Quads."""
    dataset = ox.Dataset(ox.parse(text, format=ox.RdfFormat.N_QUADS))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return ox.serialize(dataset, format=ox.RdfFormat.N_QUADS) or b""


def _in_child(work: Callable[[str], bytes], text: str) -> bytes:
    """``work(text)`` computed in a forked child process (``forking.beside``): SIGINT and
    SIGTERM kill the child at once, and any exception here (a stop signal's) kills it
    first; a child that dies (killed for memory, say) is an AnthologyError saying how it
    ended, an exception it raised comes back as itself. The child ends with
    ``os._exit``: none of this process's clean-up (a temporary file it removes, say)
    runs twice, and it never returns into the caller's code."""
    child = forking.beside(
        lambda: work(text),
        "canonicalizing blank-node labels in a child process failed: {how}",
        killed_at_once=True,
    )
    return child.result()
