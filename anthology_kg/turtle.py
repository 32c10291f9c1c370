"""Canonical Turtle: the one way the tool writes Turtle, byte-stable for the same graph.

The writer reads pyoxigraph quads (``turtle_of_quads``; ``canonical_turtle`` adapts an
rdflib graph). pyoxigraph serializes them to N-Quads in one call and the writer works on
the text of each term: building Python objects for every term of a large graph costs
more than all the rest of the writing.

Prefixes are the tool's fixed set, those used, sorted by name. Subjects are sorted by
IRI; ``rdf:type`` comes first, then predicates sorted by IRI, objects sorted by kind and
value (numbers by value). A blank node used once as an object is written nested as an
indented ``[ ... ]`` (a well-formed list as ``( ... )``); nested blank nodes with an
``ak:position`` (takeaways, practices) come in position order. Any other blank node is
written with the label RDF Dataset Canonicalization (RDFC-1.0, pyoxigraph's
``Dataset.canonicalize``) gives it, so no hash seed or parse order changes the output.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from itertools import chain, groupby, islice, repeat
from operator import attrgetter, eq, itemgetter, methodcaller
from typing import TYPE_CHECKING, Any, TypeVar, cast

import pyoxigraph as ox

from .bnodes import QuadText, canonical_nquads, first_degree_hashes, first_degree_labels
from .choices import DEFAULT_BASE
from .errors import CanonicalizationTooCostly
from .prefixes import PREFIXES

# rdflib only for the callers that hold rdflib graphs (``canonical_turtle``): the
# writer itself works on text, and ``export`` runs without loading rdflib.
if TYPE_CHECKING:
    from rdflib import Graph

INDENT = "    "
_NEXT_PREDICATE = " ;\n" + INDENT
#: A triple as the N-Triples text of its subject, predicate and object.
Statement = tuple[str, str, str]
SortKey = tuple[Any, ...]
Row = TypeVar("Row", bound=Sequence[str])  # a statement's terms, as a tuple or a list
Item = TypeVar("Item")  # what ``_in_key_order`` sorts
#: A piece of a term's Turtle: text, or a blank node to write nested and its depth.
Piece = str | tuple[str, int]

#: A local name the writer writes after a prefix.
_LOCAL = r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?"
#: Whether ``text[start:end]`` is one (``_LOCAL_NAME(text, start, end)``).
_LOCAL_NAME = re.compile(_LOCAL).fullmatch
_RDF, _XSD = PREFIXES["rdf"], PREFIXES["xsd"]
_SHORTHAND = {
    _XSD + "integer": re.compile(r"^[+-]?[0-9]+$"),
    _XSD + "decimal": re.compile(r"^[+-]?[0-9]*\.[0-9]+$"),
    _XSD + "boolean": re.compile(r"^(true|false)$"),
}
_SHORTHAND_TOKEN = {f"<{datatype}>": pattern for datatype, pattern in _SHORTHAND.items()}
_NUMERIC = {_XSD + "integer", _XSD + "decimal", _XSD + "double", _XSD + "float"}
_TYPE = f"<{_RDF}type>"
_FIRST = f"<{_RDF}first>"
_REST = f"<{_RDF}rest>"
_NIL = f"<{_RDF}nil>"
_POSITION = f"<{PREFIXES['ak']}position>"
_GROUP = "urn:anthology-kg:statements:"
#: Statements serialized at a time by ``statement_lines``: a few dozen kB of text, which
#: stays in the CPU's cache (measured at 10,000 entries: 128 to 512 are as fast as one
#: call for the whole graph, 16,384 is 8% slower; the whole graph at once held its text
#: three times, 26 MiB more at the peak).
_CHUNK = 1 << 8
_NT = ox.RdfFormat.N_TRIPLES
_first = itemgetter(0)
_split_row = methodcaller("split", " ", 2)
_as_triple = attrgetter("triple")
_second = itemgetter(1)
_third = itemgetter(2)


def _rooted(once: set[str], parents: dict[str, str]) -> set[str]:
    """The blank nodes of ``once`` (each used once, ``parents`` naming its referrer)
    whose chain of referrers reaches a subject written on its own; a cycle of blank
    nodes, and what hangs from one, has no way in. Each node is walked once: the answer
    found at the end of a walk is kept for every node on it (a list of n members, a
    chain nested n deep, is n steps, not n²/2)."""
    answer: dict[str, bool] = {}
    for start in once:
        if start in answer:
            continue
        node = parents[start]
        if node not in once:  # its referrer is written on its own: the most, by far
            answer[start] = True
            continue
        walked, on_walk = [start], {start}
        while node in once and node not in answer and node not in on_walk:
            walked.append(node)
            on_walk.add(node)
            node = parents[node]
        # Out of ``once``: rooted; a node answered before: its answer; back on this
        # walk: a cycle.
        rooted = answer[node] if node in answer else node not in once
        answer.update(dict.fromkeys(walked, rooted))
    return {node for node, rooted in answer.items() if rooted}


def _by_iri(row: Sequence[str]) -> tuple[str, str, str]:
    """Subject, predicate IRI (``<a>`` sorts after ``<a2>``, ``a`` before ``a2``), object."""
    return row[0], row[1][1:-1], row[2]


#: An IRI token's text without ``<>`` (a key function that runs in C: sorting the
#: subjects of 10,000 entries calls it 18,000 times).
_bare = itemgetter(slice(1, -1))


#: Whether an N-Triples line may hold a blank node ("_:" may also be in an IRI or a
#: literal: the split terms say); a filter that runs in C.
_HAS_BLANK = re.compile("_:").search
_ECHAR = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.DOTALL)
_ECHARS = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


# -- statements: N-Triples text of pyoxigraph quads ------------------------------------------


def _lines(quads: Iterable[ox.Quad] | Iterable[ox.Triple], fmt: ox.RdfFormat) -> list[str]:
    """pyoxigraph's serialization of ``quads``, one string a statement (no `` .``)."""
    lines = (ox.serialize(quads, format=fmt) or b"").decode("utf-8").split(" .\n")
    lines.pop()  # after the last statement
    return lines


def _triple_lines(given: Sequence[Any]) -> list[str]:
    """``statement_lines`` of a list of quads or triples."""
    try:  # quads in the default graph are written as triples: no Triple object made
        return _lines(given, ox.RdfFormat.N_TRIPLES)
    except ValueError:  # some quads are in a named graph
        return _lines([_as_triple(q) if isinstance(q, ox.Quad) else q for q in given], _NT)


def statement_lines(quads: Iterable[ox.Quad] | Iterable[ox.Triple]) -> list[str]:
    """The triples of ``quads`` (graph names dropped, a triple in two graphs repeated),
    each as one N-Triples line without its `` .`` (pyoxigraph's serialization). An
    iterator is consumed as it comes (each quad written out and dropped: holding the
    Python objects of a large graph costs more than parsing it)."""
    if not isinstance(quads, Iterator):
        return _triple_lines(quads if isinstance(quads, Sequence) else list(quads))
    # A chunk at a time: the text of the whole graph, as bytes and as one string,
    # would be held beside its lines (and grown by doubling) for nothing (``_CHUNK``).
    lines: list[str] = []
    while chunk := list(islice(quads, _CHUNK)):
        lines += _triple_lines(chunk)
    return lines


def split_lines(lines: Iterable[str]) -> list[Statement]:
    """N-Triples lines (``statement_lines``) as (subject, predicate, object) text."""
    # map() keeps the split and the tuple in C: this runs once per triple.
    return list(map(tuple, map(methodcaller("split", " ", 2), lines)))


def statements(quads: Iterable[ox.Quad] | Iterable[ox.Triple]) -> list[Statement]:
    """The triples of ``quads`` (see ``statement_lines``) in N-Triples text."""
    return split_lines(statement_lines(quads))


def canonical_groups(groups: Sequence[Iterable[Statement]]) -> list[list[Statement]]:
    """The statements of each group (a graph of one dataset) with their blank nodes
    relabelled by RDFC-1.0, the label a blank node gets being the same in every group.
    Only statements with a blank node take part: the others cannot change a label."""
    out: list[list[Statement]] = []
    blanks: list[dict[QuadText, None]] = []  # each group's, distinct, in the order given
    for index, group in enumerate(groups):
        kept: list[Statement] = []
        blank: dict[QuadText, None] = {}
        graph = f"<{_GROUP}{index}>"
        keep = kept.append
        for st in group:
            s, p, o = st
            # A blank node as subject or object, or inside a triple term object.
            if s[0] == "_" or o[0] == "_" or (o[:2] == "<<" and "_:" in o):
                blank[s, p, o, graph] = None
            else:
                keep(st)
        out.append(kept)
        blanks.append(blank)
    quads = list(chain.from_iterable(blanks))
    if not quads:
        return out
    # A triple term (``<<( ... )>>``) may hold a blank node: pyoxigraph labels those.
    nested = any(q[2].startswith("<<") for q in quads)
    hashes = None if nested else first_degree_hashes(quads)
    labels = None if hashes is None else first_degree_labels(quads, hashes)
    if labels is not None:
        label = labels.get
        for kept, blank in zip(out, blanks, strict=True):
            kept.extend([(label(s, s), p, label(o, o)) for s, p, o, _ in blank])
        return out
    lines = canonical_nquads(quads, hashes).decode("utf-8").split(" .\n")
    lines.pop()  # after the last statement
    for line in lines:
        s, p, rest = line.split(" ", 2)
        o, graph = rest.rsplit(" ", 1)  # the graph name is ours: no space in it
        out[int(graph[len(_GROUP) + 1 : -1])].append((s, p, o))
    return out


def canonical_line_groups(groups: Sequence[list[str]]) -> list[list[str]]:
    """``canonical_groups`` of N-Triples lines (``statement_lines``): only the lines
    that may hold a blank node are split into terms and relabelled."""
    kept: list[list[str]] = []
    blank: list[list[Statement]] = []
    for group in groups:
        # "_:" may also be in an IRI or a literal: canonical_groups looks at the terms.
        maybe = [line for line in group if "_:" in line]
        kept.append([line for line in group if "_:" not in line] if maybe else list(group))
        blank.append(split_lines(maybe))
    if not any(blank):
        return kept
    for lines, relabelled in zip(kept, canonical_groups(blank), strict=True):
        lines.extend(map(" ".join, relabelled))
    return kept


def graph_quads(graph: Graph, graph_name: ox.NamedNode | None = None) -> list[ox.Quad]:
    """The triples of an rdflib graph as pyoxigraph quads (in ``graph_name``, else the
    default graph)."""
    from .terms import to_ox  # rdflib's terms: only for a caller holding an rdflib graph

    name = graph_name if graph_name is not None else ox.DefaultGraph()
    return [ox.Quad(to_ox(s), to_ox(p), to_ox(o), name) for s, p, o in graph]


# -- terms -----------------------------------------------------------------------------------


def _unescape(text: str) -> str:
    """The string an N-Triples quoted literal body stands for."""
    if "\\" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        if match.group(3) is not None:
            return _ECHARS.get(match.group(3), match.group(0))
        return chr(int(match.group(1) or match.group(2), 16))

    return _ECHAR.sub(one, text)


def _escape_short(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )


def _escape_long(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")


def literal_parts(term: str) -> tuple[str, str, str]:
    """An N-Triples literal as (lexical form, datatype IRI or "", language or "")."""
    end = term.rindex('"')
    lexical = _unescape(term[1:end])
    suffix = term[end + 1 :]
    if suffix.startswith("@"):
        return lexical, "", suffix[1:]
    if suffix.startswith("^^<"):
        return lexical, suffix[3:-1], ""
    return lexical, "", ""


def _number(lexical: str, datatype: str) -> Decimal | int:
    if datatype not in _NUMERIC:
        return 0
    try:
        value = Decimal(lexical)
    except InvalidOperation:
        return 0
    return value if value.is_finite() else 0


# -- the writer ------------------------------------------------------------------------------


def _sorted_lines(lines: Iterable[str]) -> list[str]:
    """Distinct N-Triples lines sorted as text: by subject, predicate, object, as the
    statements' tuples sort (a space sorts before any character that can follow a term
    that is another's beginning)."""
    ordered = sorted(lines)
    if any(map(eq, ordered, islice(ordered, 1, None))):  # a triple given twice
        ordered = list(dict.fromkeys(ordered))
    return ordered


def _blank_rows(lines: list[str]) -> list[Statement]:
    """The statements of ``lines`` whose subject or object is a blank node."""
    rows = split_lines(filter(_HAS_BLANK, lines))
    return [row for row in rows if row[0][0] == "_" or row[2][0] == "_"]


def _blank_terms(lines: list[str]) -> set[str]:
    """The blank nodes ``lines`` name, as subject or object."""
    return {t for row in _blank_rows(lines) for t in (row[0], row[2]) if t[0] == "_"}


def _in_iri_order(rows: list[Row]) -> list[Row]:
    """``rows`` sorted as text, in predicate IRI order: the same unless a predicate IRI
    is another's beginning followed by a character before ">" (``ex:p`` and ``ex:p2``)."""
    predicates = sorted(set(map(_second, rows)))
    if predicates != sorted(predicates, key=_bare):
        return sorted(rows, key=_by_iri)
    return rows


@functools.lru_cache(maxsize=8)
def _longest_first(base: str) -> list[tuple[str, str]]:
    """The tool's prefixes (``prefixes_for``), longest namespace first; of two alike, the
    first bound (the one ``_prefixed_name`` picks)."""
    return sorted(prefixes_for(base).items(), key=lambda item: -len(item[1]))


@functools.lru_cache(maxsize=1 << 10)
def _fitting(stem: str, base: str) -> list[tuple[str, str, int]]:
    """The prefixes whose namespace may hold a local name after ``stem``, each with
    where that local name starts in an IRI token (after ``<`` and the namespace)."""
    return [(p, ns, len(ns) + 1) for p, ns in _longest_first(base) if ns.startswith(stem)]


def _prefix_name(token: str, base: str) -> tuple[str, str]:
    """An IRI (``<...>``) as (prefixed name, its prefix) where one of the tool's prefixes
    fits (the longest; ``id:`` is ``base``), else as (``token``, "")."""
    # A local name has no "/" nor "#": a namespace that fits starts with the IRI's text
    # up to its last one (its stem), so only those are tried. The token is read in
    # place (offsets, not slices of its text).
    stem = token[1 : max(token.rfind("/"), token.rfind("#")) + 1]
    end = len(token) - 1  # the closing ">"
    for prefix, namespace, start in _fitting(stem, base):
        if token.startswith(namespace, 1) and _LOCAL_NAME(token, start, end):
            return f"{prefix}:{token[start:end]}", prefix
    return token, ""


#: ``_prefix_name`` cached across writers: fmt writes thousands of small graphs naming
#: the same IRIs. 1,024 names: the vocabulary's stay, an entry's own IRIs pass through
#: (16,384 held 6 MB more at the peak of fmt at 10,000 entries for no time saved).
_prefixed_name = functools.lru_cache(maxsize=1 << 10)(_prefix_name)


@functools.lru_cache(maxsize=8)
def _own_name(base: str) -> Callable[[str], re.Match[str] | None] | None:
    """The full match of an IRI token that ``_prefix_name`` writes as ``id:`` and a
    local name (its group 1) read straight from the token, the name of most subjects
    (half the cost); None when another prefix could fit such a token too."""
    if base[-1:] not in ("/", "#") or _fitting(base, base) != [("id", base, len(base) + 1)]:
        return None
    return re.compile(f"<{re.escape(base)}({_LOCAL})>").fullmatch


#: Keys of nested blank nodes at most this many levels deep are compared by Python's
#: own tuple comparison (fast, in C), which recurses three levels a nested level and
#: stops at Python's limit on recursion (1,000); deeper ones by ``_compared``.
_COMPARED_IN_C = 100


def _in_key_order(
    items: Iterable[Item], height: int, key: Callable[[Item], SortKey] | None = None
) -> list[Item]:
    """``items`` sorted by ``key`` (the items themselves if None), keys that nest
    blank nodes ``height`` levels deep compared as Python compares tuples, by
    ``_compared`` past ``_COMPARED_IN_C`` levels."""
    if height <= _COMPARED_IN_C:
        return sorted(items, key=key)  # type: ignore[arg-type, type-var]
    by_key = functools.cmp_to_key(_compared)
    return sorted(items, key=lambda item: by_key(key(item) if key else item))


def _compared(first: Any, second: Any) -> int:
    """-1, 0 or 1 as tuple ``first`` is less than, equal to or greater than ``second``,
    as Python compares tuples (element by element, a shorter one first where it is the
    other's beginning), the tuples nested in them walked by a stack, not by a call a
    level."""
    pairs = [(first, second)]
    at = [0]
    while pairs:
        left, right = pairs[-1]
        i = at[-1]
        if i == len(left) or i == len(right):
            if len(left) != len(right):
                return -1 if len(left) < len(right) else 1
            pairs.pop()
            at.pop()
            if at:
                at[-1] += 1
            continue
        a, b = left[i], right[i]
        if a is not b:
            if type(a) is tuple and type(b) is tuple:
                pairs.append((a, b))
                at.append(0)
                continue
            if a != b:
                return -1 if a < b else 1
        at[-1] += 1
    return 0


class _Writer:
    """The Turtle statements of one graph, from its distinct N-Triples lines sorted as
    text (``_sorted_lines``); ``keep_labels`` are blank nodes never nested (they are
    named elsewhere, as in the inferred section of an export).

    The statements of IRI subjects (those before the first ``_:`` subject) are split
    and written one subject at a time as ``blocks`` reads them: only the blank nodes'
    statements are held as terms (``edges``), for nesting them where they are used."""

    def __init__(self, lines: list[str], base: str, keep_labels: Collection[str] = ()):
        self.base = base
        first_blank = bisect_left(lines, "_")  # "<" sorts before "_"
        self.named_lines = lines[:first_blank]
        # Split as lists, not made tuples: rows the writer only reads.
        blank_subjects = _in_iri_order(list(map(_split_row, lines[first_blank:])))
        self.edges: dict[str, list[list[str]]] = {
            subject: list(group) for subject, group in groupby(blank_subjects, _first)
        }
        # An IRI subject's lines: those whose object is a blank node.
        maybe = map(_split_row, filter(_HAS_BLANK, self.named_lines))
        blank_rows = [row for row in maybe if row[2][0] == "_"]
        blank_rows += [row for row in blank_subjects if row[2][0] == "_"]
        inbound = Counter(map(_third, blank_rows))
        self.blank_objects = list(inbound)
        once = {n for n, count in inbound.items() if count == 1 and n not in keep_labels}
        parents = {o: s for s, _, o in blank_rows}
        self.nestable = _rooted(once, parents)
        self.used: set[str] = set()
        self._own_name = _own_name(base)
        self._text: dict[str, str] = {}  # an IRI's or a literal's Turtle, by its N-Triples
        self._heads: dict[str, str] = {}  # ``_head``
        self._named_heads: dict[str, str] = {}  # ``_named_head``
        self._keys: dict[str, SortKey] = {}
        self._heights: dict[str, int] = {}  # a nested blank node's: 1 + its deepest's
        # Predicates of IRI subjects seen so far, and those of them that are another's
        # beginning or have one (a subject with one is put in IRI order: ``_named_statement``).
        self._predicates: set[str] = set()
        self._bare_predicates: list[str] = []  # the same without <>, sorted
        self._lengths: set[int] = set()  # of the bare predicates
        self._prefixed: set[str] = set()

    def labelled(self) -> bool:
        """Whether any blank node is written with a label."""
        return not self.nestable.issuperset(chain(self.edges, self.blank_objects))

    # -- terms ---------------------------------------------------------------------------
    def iri(self, token: str) -> str:
        """An IRI (``<...>``) as a prefixed name where a prefix fits (the longest)."""
        return self._text.get(token) or self._name(token, _prefixed_name)

    def _name(self, token: str, prefixed: Callable[[str, str], tuple[str, str]]) -> str:
        """``iri`` of a token not in ``_text`` yet, kept there: ``_own_name``'s, else
        ``prefixed``'s (``_prefix_name``, or the same cached)."""
        own = self._own_name and self._own_name(token)
        if own:
            written, prefix = "id:" + own[1], "id"
        else:
            written, prefix = prefixed(token, self.base)
        if prefix:
            self.used.add(prefix)
        self._text[token] = written
        return written

    def _literal(self, token: str) -> str:
        if "\\" not in token:
            # Nothing escaped in N-Triples, so nothing a Turtle string escapes either
            # (pyoxigraph escapes every control character): the quoted form is kept.
            end = token.rindex('"')
            if end == len(token) - 1 or token[end + 1] == "@":
                return token
            datatype = token[end + 3 :]  # ``"..."^^<datatype>``
            pattern = _SHORTHAND_TOKEN.get(datatype)
            if pattern and pattern.match(lexical := token[1:end]):
                return lexical
            return token[: end + 1] + "^^" + (self._text.get(datatype) or self.iri(datatype))
        lexical, datatype, language = literal_parts(token)
        if language:
            return f'"{_escape_short(lexical)}"@{language}'
        pattern = _SHORTHAND.get(datatype)
        if pattern and pattern.match(lexical):
            return lexical
        if "\n" in lexical:
            quoted = f'"""{_escape_long(lexical)}"""'
        else:
            quoted = f'"{_escape_short(lexical)}"'
        if not datatype:
            return quoted
        return f"{quoted}^^{self.iri(f'<{datatype}>')}"

    def as_list(self, node: str) -> list[str] | None:
        """The members of a well-formed RDF list starting at ``node``, else None."""
        edges = self.edges.get(node, ())
        if node[0] == "_" and (len(edges) != 2 or edges[0][1] != _FIRST):  # most: no list
            return None
        members: list[str] = []
        current, seen = node, set()
        while current != _NIL:
            if current in seen or current[0] != "_":
                return None
            seen.add(current)
            edges = self.edges.get(current, ())
            # Exactly rdf:first and rdf:rest, in this order (the edges are sorted).
            if len(edges) != 2 or edges[0][1] != _FIRST or edges[1][1] != _REST:
                return None
            if current != node and current not in self.nestable:
                return None
            members.append(edges[0][2])
            current = edges[1][2]
        return members

    def term(self, node: str, depth: int) -> str:
        """The Turtle of a term; the caller has looked in ``_text`` already."""
        kind = node[0]
        if kind == "<":
            return self.iri(node)
        if kind == '"':
            written = self._text[node] = self._literal(node)
            return written
        if node in self.nestable:
            return self._written(self._pieces(node, depth))
        return node

    def _written(self, pieces: list[Piece]) -> str:
        """The text of ``pieces``, each blank node among them written nested (``_pieces``).

        The nodes nested in one another are written from a stack of the pieces begun,
        not by a call a level: a chain nested thousands deep needs no Python frame a
        level (Python's limit is 1,000), and its text is joined once, where each node's
        text was copied into its referrer's (a chain n deep: some 4n³/3 characters
        copied, 10¹⁰ at 2,000 levels)."""
        try:  # no blank node among them, the most: joined in C
            return "".join(cast(list[str], pieces))
        except TypeError:  # (a blank node's pair)
            pass
        out: list[str] = []
        stack = [iter(pieces)]
        while stack:
            for piece in stack[-1]:
                if isinstance(piece, str):
                    out.append(piece)
                else:
                    stack.append(iter(self._pieces(*piece)))
                    break
            else:
                stack.pop()
        return "".join(out)

    def _pieces(self, node: str, depth: int) -> list[Piece]:
        """The pieces of a blank node written nested at ``depth``: ``( ... )`` for a
        well-formed list, else ``[ ... ]`` with its predicate lines one level deeper."""
        members = self.as_list(node)
        if members is not None:
            pieces: list[Piece] = ["( "]
            for member in members:
                pieces += (self._object(member, depth + 1), " ")
            pieces[-1] = " )"
            return pieces
        edges = self.edges.get(node, ())
        if not edges:
            return ["[]"]
        pad = INDENT * (depth + 2)
        pieces = ["[\n" + pad]
        between = " ;\n" + pad
        for line in self._line_pieces(edges, depth + 1):
            if isinstance(line, str):
                pieces.append(line)
            else:
                pieces += line
            pieces.append(between)
        pieces[-1] = "\n" + pad[4:] + "]"
        return pieces

    def _object(self, node: str, depth: int) -> Piece:
        """An object's Turtle, or (``node``, ``depth``) for a blank node written nested."""
        if node in self.nestable:
            return node, depth
        return self._text.get(node) or self.term(node, depth)

    # -- ordering ------------------------------------------------------------------------
    def sort_key(self, node: str) -> SortKey:
        """The key objects are sorted by (``_in_key_order``): IRIs, then blank nodes,
        then literals (numbers by value); a nested blank node by its position, if it
        has one, then by its predicates and objects."""
        key = self._keys.get(node)
        if key is None:
            kind = node[0]
            if kind == "<":
                key = (0, node[1:-1])
            elif kind == '"':
                lexical, datatype, language = literal_parts(node)
                key = (2, datatype, _number(lexical, datatype), lexical, (language,))
            elif node not in self.nestable:
                key = (1, node[2:])
            else:
                self._key_nested(node)
                return self._keys[node]
            self._keys[node] = key
        return key

    def _key_nested(self, top: str) -> None:
        """Put the ``sort_key`` of ``top``, a nested blank node, and of each one nested
        in it in ``_keys``, each after those nested in it: by a stack, not by a call a
        level (a chain nested thousands deep)."""
        keys, heights, nestable = self._keys, self._heights, self.nestable
        stack = [top]
        while stack:
            node = stack[-1]
            edges = self.edges.get(node, [])
            waiting = [o for _, _, o in edges if o in nestable and o not in keys]
            if waiting:
                stack += waiting
                continue
            stack.pop()
            pairs = [(p[1:-1], self.sort_key(o)) for _, p, o in edges]
            height = 1 + max((heights[o] for _, _, o in edges if o in nestable), default=0)
            inner = tuple(_in_key_order(pairs, height - 1))
            positions = [keys[o][2] for _, p, o in edges if p == _POSITION and o[0] == '"']
            # Takeaways and practices come in the order of their positions.
            rank = (0, min(positions)) if positions else (1, 0)
            keys[node] = (1, "", rank, inner)
            heights[node] = height

    def _sorted_objects(self, objects: list[str]) -> list[str]:
        """``objects`` in ``sort_key`` order."""
        keys = list(map(self.sort_key, objects))
        height = max(map(self._heights.get, objects, repeat(0)))
        return [objects[i] for i in _in_key_order(range(len(objects)), height, keys.__getitem__)]

    def predicate_lines(self, edges: Sequence[Sequence[str]], depth: int) -> list[str]:
        """``predicate objects`` lines of a subject's ``edges`` (sorted), rdf:type first
        (as ``a``), then by predicate IRI, as the edges come (``_line_pieces``)."""
        return [
            line if isinstance(line, str) else self._written(line)
            for line in self._line_pieces(edges, depth)
        ]

    def _line_pieces(self, edges: Sequence[Sequence[str]], depth: int) -> list[str | list[Piece]]:
        """``predicate_lines``' lines, in pieces (``_object``) where a blank node is
        written nested in one. A predicate's objects come in the order of ``sort_key``
        (numbers by value, takeaways by position)."""
        heads, piece = self._heads, self._object
        lines: list[str | list[Piece]] = []
        count = len(edges)
        index = 0
        while index < count:
            _, predicate, node = edges[index]
            index += 1
            head = "a " if predicate == _TYPE else heads.get(predicate) or self._head(predicate)
            line: str | list[Piece]
            if index < count and edges[index][1] == predicate:
                objects = [node]
                while index < count and edges[index][1] == predicate:
                    objects.append(edges[index][2])
                    index += 1
                line = [head]
                for each in self._sorted_objects(objects):
                    line += (piece(each, depth), ", ")
                line.pop()
            elif node[-1] == '"' and node[0] == '"' and "\\" not in node:
                line = head + node  # a plain string, nothing escaped: as written (``_literal``)
            else:
                written = piece(node, depth)
                line = head + written if isinstance(written, str) else [head, written]
            if predicate == _TYPE:
                lines.insert(0, line)
            else:
                lines.append(line)
        return lines

    def _head(self, predicate: str) -> str:
        """A predicate's Turtle and the space after it (kept: a few predicates, each
        written on thousands of lines)."""
        head = self._heads[predicate] = self.iri(predicate) + " "
        return head

    def statement(self, subject: str, edges: Sequence[Sequence[str]]) -> str:
        """The Turtle statement of ``subject`` and its ``edges`` (sorted)."""
        head = self.iri(subject) if subject[0] == "<" else subject
        return head + " " + _NEXT_PREDICATE.join(self.predicate_lines(edges, 0)) + " .\n"

    def _see(self, predicate: str) -> None:
        """Note a predicate of an IRI subject, and whether it or another seen is the
        other's beginning (then their subjects' edges may be out of IRI order)."""
        bare = predicate[1:-1]
        seen = self._bare_predicates
        # Found by bisection, not by a test of every pair: a predicate per member of an
        # rdf:Seq (rdf:_1, rdf:_2...) made that quadratic (5,000 members: 15 s).
        # Those that begin with ``bare`` follow it in sorted order.
        at = bisect_left(seen, bare)
        after = at
        while after < len(seen) and seen[after].startswith(bare):
            after += 1
        partners = seen[at:after]
        # Those ``bare`` begins with: of the lengths seen (a few), not every length.
        partners += [
            bare[:n] for n in self._lengths if n < len(bare) and f"<{bare[:n]}>" in self._predicates
        ]
        if partners:
            self._prefixed.add(predicate)
            self._prefixed.update(f"<{other}>" for other in partners)
        seen.insert(at, bare)
        self._predicates.add(predicate)
        self._lengths.add(len(bare))

    def _named_statements(self) -> dict[str, str]:
        """The statement of every IRI subject, by subject: its lines split and written
        one subject at a time (no Python object per term held for the whole graph).

        One loop writes the lines as they are split (``predicate_lines``, inlined: it is
        the writer's hot path). A subject that gives a predicate several objects, or
        whose predicates need IRI order (``_see``), is written again from its rows."""
        statements: dict[str, str] = {}
        text, term, heads = self._text, self.term, self._named_heads
        subject = ""
        rows: list[list[str]] = []
        lines: list[str] = []
        previous = ""
        grouped = False
        for line in self.named_lines:
            row = line.split(" ", 2)
            _, predicate, node = row
            if row[0] != subject:
                if rows:
                    statements[subject] = self._named_statement(subject, rows, lines, grouped)
                subject = row[0]
                rows = [row]
                lines = []
                previous = ""
                grouped = False
            else:
                rows.append(row)
            head = heads.get(predicate) or self._named_head(predicate)
            if grouped:
                continue
            if predicate == previous:
                grouped = True
                continue
            previous = predicate
            if node[-1] == '"' and node[0] == '"' and "\\" not in node:
                rendered = node  # a plain string, nothing escaped: as written (``_literal``)
            else:
                rendered = text.get(node) or term(node, 0)
            if predicate == _TYPE:
                lines.insert(0, head + rendered)
            else:
                lines.append(head + rendered)
        if rows:
            statements[subject] = self._named_statement(subject, rows, lines, grouped)
        return statements

    def _named_head(self, predicate: str) -> str:
        """A predicate of an IRI subject, seen for the first time (``_see``): its Turtle
        and the space after it (``_head``)."""
        self._see(predicate)
        if predicate == _TYPE:
            head = "a "  # no rdf: prefix for it
        else:
            head = self._heads.get(predicate) or self._head(predicate)
        self._named_heads[predicate] = head
        return head

    def _named_statement(
        self, subject: str, rows: list[list[str]], lines: list[str], grouped: bool
    ) -> str:
        """The statement of an IRI subject from its ``rows`` (sorted as text) and the
        ``lines`` written of them in that order, unless ``grouped`` (a predicate has
        several objects: written from the rows)."""
        prefixed = self._prefixed
        if prefixed and not prefixed.isdisjoint(map(_second, rows)):
            rows.sort(key=_by_iri)
            grouped = True
        if grouped:
            lines = self.predicate_lines(rows, 0)
        # Kept in ``_text``: it may be an object too. Not named through the shared cache
        # (``_prefixed_name``): each subject is written once, and would only turn the
        # vocabulary's names out of it.
        written = self._text.get(subject) or self._name(subject, _prefix_name)
        return written + " " + _NEXT_PREDICATE.join(lines) + " .\n"

    def blocks(self, comments: Mapping[str, str]) -> list[str]:
        """Every statement, IRI subjects sorted, then the blank nodes that could not be
        nested (shared or cyclic), each after its comment lines."""
        named = self._named_statements()
        subjects = sorted(named, key=_bare)
        ordered = list(map(named.__getitem__, subjects))
        ordered += [
            self.statement(subject, self.edges[subject])
            for subject in sorted(self.edges.keys() - self.nestable)
        ]
        if not comments:
            return ordered
        notes = [comments.get(subject[1:-1], "") for subject in subjects]
        notes += [""] * (len(ordered) - len(notes))
        return [
            (note.rstrip("\n") + "\n" if note else "") + block
            for note, block in zip(notes, ordered, strict=True)
        ]


def prefixes_for(base: str) -> dict[str, str]:
    """The tool's fixed prefixes, ``id:`` bound to ``base``."""
    return {p: (base if p == "id" else ns) for p, ns in PREFIXES.items()}


def labels_refused_in_turtle(error: CanonicalizationTooCostly) -> CanonicalizationTooCostly:
    """``error`` (labelling blank nodes by RDFC-1.0 would cost too much) as the Turtle
    writer words it. It labels the blank nodes of a document only where some must be
    written with a label, and then all of them: the advice to write Turtle is none;
    where the alike nodes would be written nested, it says what spares them labels."""
    refusal = CanonicalizationTooCostly(
        error.size,
        error.orders,
        error.steps,
        error.limit,
        error.where,
        error.option,
        groups=error.groups,
        linked=error.linked,
    )
    if error.nested:
        refusal.message += (
            " They are labelled only because other blank nodes are written with a label (a "
            "subject no triple uses, or one used twice or in a cycle): with IRIs for those, "
            "these would be written nested, without labels."
        )
        refusal.args = (refusal.message,)
    refusal.path, refusal.line = error.path, error.line
    return refusal


def turtle_sections(
    sections: Sequence[tuple[str, Iterable[str]]],
    *,
    base: str = DEFAULT_BASE,
    comments: Mapping[str, str] | None = None,
    header: str = "",
    labelled: bool = False,
) -> str:
    """Canonical Turtle of sections, each (a comment line or "", its statements as
    N-Triples lines, ``statement_lines``). One prefix block heads the document;
    ``comments`` (``# ...`` lines, keyed by subject IRI) come before their statements,
    ``header`` before everything. Blank nodes are relabelled by RDFC-1.0 when any is
    written with a label, unless ``labelled`` says that the lines carry those labels
    already (``canonical_line_groups``'s); one that two sections name is never nested,
    so that reading the document back joins them."""
    pieces = turtle_section_pieces(
        sections, base=base, comments=comments, header=header, labelled=labelled
    )
    return "".join(pieces)


def turtle_section_pieces(
    sections: Sequence[tuple[str, Iterable[str]]],
    *,
    base: str = DEFAULT_BASE,
    comments: Mapping[str, str] | None = None,
    header: str = "",
    labelled: bool = False,
) -> list[str]:
    """``turtle_sections``'s document in pieces, in order (a writer writes them one by
    one, with no joined copy of the whole text in memory)."""
    groups = [list(lines) for _, lines in sections]
    prefixes = prefixes_for(base)

    def writers() -> list[_Writer]:
        ordered = [_sorted_lines(group) for group in groups]
        if len(ordered) == 1:
            return [_Writer(ordered[0], base)]
        blanks = [_blank_terms(lines) for lines in ordered]
        return [
            _Writer(lines, base, set().union(*blanks[:i], *blanks[i + 1 :]))
            for i, lines in enumerate(ordered)
        ]

    written = writers()
    if not labelled and any(writer.labelled() for writer in written):
        try:
            groups = canonical_line_groups(groups)
        except CanonicalizationTooCostly as error:
            raise labels_refused_in_turtle(error) from None
        written = writers()
    body = []
    for (title, _), writer in zip(sections, written, strict=True):
        blocks = writer.blocks(comments or {})
        if title and blocks:
            body.append(title.rstrip("\n") + "\n")
        body.extend(blocks)
    used = set().union(*(writer.used for writer in written))
    prefix_lines = "".join(f"@prefix {p}: <{prefixes[p]}> .\n" for p in sorted(used))
    parts = [header.rstrip("\n") + "\n\n" if header else "", prefix_lines]
    # Each block after an empty line (the header ends in one), paired in C.
    empty_lines = ["\n"] * len(body)
    if body and not prefix_lines:
        empty_lines[0] = ""
    parts += chain.from_iterable(zip(empty_lines, body, strict=True))
    return parts


def turtle_of_quads(
    quads: Iterable[ox.Quad] | Iterable[ox.Triple],
    *,
    base: str = DEFAULT_BASE,
    comments: Mapping[str, str] | None = None,
    header: str = "",
) -> str:
    """The canonical Turtle of the triples of ``quads`` (graph names dropped);
    ``comments`` (``# ...`` lines, keyed by subject IRI text) are written before the
    statement of their subject, ``header`` before everything else."""
    lines = statement_lines(quads)
    return turtle_sections([("", lines)], base=base, comments=comments, header=header)


def canonical_turtle(
    graph: Graph,
    *,
    base: str = DEFAULT_BASE,
    comments: Mapping[str, str] | None = None,
    header: str = "",
) -> str:
    """The canonical Turtle of an rdflib ``graph`` (see ``turtle_of_quads``)."""
    return turtle_of_quads(graph_quads(graph), base=base, comments=comments, header=header)
