"""The semantic difference between two states of an anthology, by entry.

``diff_states(old, new)`` parses each state's data files with pyoxigraph and compares the
two graphs as sets of triples. Blank nodes are matched by content: a blank node that is
part of a tree (the ``[ ... ]`` nesting the anthology's Turtle uses) is keyed by what it
says, its outgoing triples with nested blank nodes keyed the same way (a Merkle key), and
by its copy number among the blank nodes that say the same under the same subject and
predicate (so a block written twice is two blank nodes, as in RDF). A group of blank
nodes that points at itself in a cycle, or holds a blank node that more than one triple
points at, is keyed through RDF Dataset Canonicalization (RDFC-1.0, pyoxigraph's) of that
group alone, and numbered among the groups of a file that canonicalize alike.
A file's copies are numbered within the file (its facts are cached by its bytes); when
two files of a state hold the same block under the same subject and predicate, or at
their top, the state's union numbers the later file's copies on (``StateGraph.facts``).

Why not canonicalize each whole state: RDFC-1.0 numbers blank nodes in the order of their
hashes across the dataset, so one new blank node anywhere renumbers others, and every
renumbered node would show as a change (pyoxigraph's documentation warns of exactly
that). A key that depends only on the node's own content makes a moved, reordered or
reformatted blank node no change, and a changed takeaway one removed and one added.

Changes are grouped by the entry that owns each fact (the nearest node with a
``dcterms:identifier``, as validation reports name a focus entry). A fact about a blank
node is shown inside the fact that points at it, so a changed takeaway reads as one
takeaway removed and one added. An entry whose identifier disappears while another
appears with the same content is reported as renamed, its facts removed under the old
IRI and added under the new.

Files whose bytes are the same in both states are parsed once: their triples are the same.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import pyoxigraph as ox
from rdflib import URIRef

from .bnodes import canonical_nquads
from .errors import AnthologyError
from .loader import find_owner
from .namespaces import DCTERMS, DEFAULT_BASE, PREFIXES, RDF, RDFS, XSD
from .revisions import State
from .sourcemap import (
    Positions,
    Written,
    is_blank_written,
    refuse_rdf12_terms,
    value_key,
    written_key,
    written_triples,
)
from .sources import parse_quads

IDENTIFIER = ox.NamedNode(str(DCTERMS.identifier))
RDF_TYPE = ox.NamedNode(str(RDF.type))
#: Predicates whose literal names a node for people, best first.
LABEL_PREDICATES = (ox.NamedNode(str(DCTERMS.title)), ox.NamedNode(str(RDFS.label)))
_PLAIN_DATATYPES = {str(XSD.integer), str(XSD.decimal), str(XSD.double), str(XSD.boolean)}


# -- blank nodes keyed by content -----------------------------------------------------------


class Blank:
    """A blank node keyed by its content; ``label`` is stable across runs and machines."""

    label: str

    def __str__(self) -> str:
        return f"_:{self.label}"


@dataclass(frozen=True, eq=True)
class TreeBlank(Blank):
    """A blank node of a tree: equal to any blank node that says the same things and is the
    same copy (``copy``: how many blank nodes saying the same come before it under the
    same subject and predicate, or at the top of the same file)."""

    content: frozenset[tuple[Term, Term]]
    copy: int = 0

    @cached_property
    def label(self) -> str:  # type: ignore[override]
        text = "\n".join(sorted(f"{p} {o}" for p, o in self.content))
        if self.copy:
            text += f"\ncopy {self.copy}"
        return "b" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]

    def outgoing(self) -> list[tuple[Term, Term]]:
        return sorted(
            self.content, key=lambda pair: (pair[0] != RDF_TYPE, str(pair[0]), str(pair[1]))
        )


@dataclass(frozen=True, eq=True)
class CanonicalBlank(Blank):
    """A blank node of a cycle, labelled by RDFC-1.0 within its group of blank nodes."""

    label: str


Term = ox.NamedNode | ox.Literal | Blank
Fact = tuple[Term, Term, Term]


@dataclass(frozen=True)
class ParsedFile:
    """The facts of one data file, blank nodes keyed by content, and what names its nodes."""

    facts: frozenset[Fact]
    identifiers: dict[ox.NamedNode, str]
    #: The title (or else the smallest rdfs:label) of a node, ranked: (0, title), (1, label).
    labels: dict[ox.NamedNode, tuple[int, str]]
    #: The blank nodes of trees that hang from no blank node: their slot (the subject and
    #: predicate pointing at them; None, None at the top of the file) and key.
    roots: tuple[tuple[Term | None, Term | None, TreeBlank], ...] = ()


def parse_data(content: bytes, source: str | None = None, base: str = DEFAULT_BASE) -> ParsedFile:
    """Parse one Turtle file's bytes; ``source`` names it in errors (``REV:data/X.ttl``).

    Raises AnthologyError with the file and line when the Turtle does not parse.
    """
    quads = parse_quads(content, source, base)  # the loaders' strict parser and messages
    refuse_rdf12_terms(content, source, base, quads)
    facts: set[Fact] = set()
    with_blanks: list[tuple] = []
    identifiers: dict[ox.NamedNode, str] = {}
    labels: dict[ox.NamedNode, tuple[int, str]] = {}
    for s, p, o, _ in quads:
        if isinstance(s, ox.BlankNode) or isinstance(o, ox.BlankNode):
            with_blanks.append((s, p, o))
            continue
        facts.add((s, p, o))
        if isinstance(o, ox.Literal):
            if p == IDENTIFIER:
                identifiers[s] = o.value
            elif p in LABEL_PREDICATES:
                name = (LABEL_PREDICATES.index(p), o.value)
                labels[s] = min(name, labels.get(s, name))
    roots: list[tuple[Term | None, Term | None, TreeBlank]] = []
    if with_blanks:
        keyed, tops = _blank_facts(with_blanks)
        facts.update(keyed)
        roots = [(None, None, top) for top in tops]
        roots += [
            (s, p, o)
            for s, p, o in keyed
            if isinstance(o, TreeBlank) and not isinstance(s, TreeBlank)
        ]
    return ParsedFile(frozenset(facts), identifiers, labels, tuple(roots))


class _NotATree(Exception):
    """A cycle, or a blank node that more than one triple points at."""


def _blank_facts(triples: list[tuple]) -> tuple[set[Fact], set[TreeBlank]]:
    """One file's ``triples`` that hold a blank node, each blank node replaced by its key;
    and the keys of the tree blank nodes that no triple points at."""
    outgoing: dict[ox.BlankNode, list] = defaultdict(list)
    nodes: set[ox.BlankNode] = set()
    slots: dict[ox.BlankNode, tuple | None] = {}  # the (subject, predicate) pointing at it
    shared: set[ox.BlankNode] = set()  # the blank nodes more than one triple points at
    for s, p, o in triples:
        if isinstance(s, ox.BlankNode):
            outgoing[s].append((p, o))
            nodes.add(s)
        if isinstance(o, ox.BlankNode):
            nodes.add(o)
            if o in slots:
                shared.add(o)
            slots[o] = (s, p)
    if not shared:
        try:
            keys = _tree_keys(outgoing, sorted(nodes, key=str), slots, defaultdict(int))
            tops = {key for node, key in keys.items() if node not in slots}
            return {(keys.get(s, s), p, keys.get(o, o)) for s, p, o in triples}, tops
        except _NotATree:
            pass
    facts: set[Fact] = set()
    keyed: dict = {}
    copies: dict = defaultdict(int)
    for group in _groups(triples, nodes):
        mine = [t for t in triples if t[0] in group or t[2] in group]
        try:
            if not shared.isdisjoint(group):
                raise _NotATree
            keyed.update(_tree_keys(outgoing, sorted(group, key=str), slots, copies))
        except _NotATree:
            facts.update(_canonical_facts(mine, copies))
            continue
        facts.update((keyed.get(s, s), p, keyed.get(o, o)) for s, p, o in mine)
    return facts, {key for node, key in keyed.items() if node not in slots}


def _tree_keys(outgoing: dict, nodes: list, slots: dict, copies: dict) -> dict:
    """Merkle keys, children before parents (iteratively: an RDF list may be long); each
    key numbered by ``copies``, the count so far of each (slot, content)."""
    keys: dict = {}
    for start in nodes:
        if start in keys:
            continue
        on_path: set = set()
        stack = [(start, False)]
        while stack:
            node, done = stack.pop()
            if done:
                on_path.discard(node)
                content = frozenset(
                    (p, keys[o] if isinstance(o, ox.BlankNode) else o)
                    for p, o in outgoing.get(node, ())
                )
                # Blank nodes alike under one slot can be swapped: any numbering is the same.
                seen = (slots.get(node), content)
                keys[node] = TreeBlank(content, copies[seen])
                copies[seen] += 1
                continue
            if node in keys:
                continue
            on_path.add(node)
            stack.append((node, True))
            for _, o in outgoing.get(node, ()):
                if isinstance(o, ox.BlankNode) and o not in keys:
                    if o in on_path:
                        raise _NotATree
                    stack.append((o, False))
    return keys


def _groups(triples: list[tuple], nodes: set) -> list[set]:
    """The blank nodes joined by triples between two blank nodes (union-find)."""
    parent = {n: n for n in nodes}

    def find(n):
        while parent[n] is not n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for s, _, o in triples:
        if isinstance(s, ox.BlankNode) and isinstance(o, ox.BlankNode):
            parent[find(s)] = find(o)
    groups: dict = defaultdict(set)
    for n in nodes:
        groups[find(n)].add(n)
    return list(groups.values())


def _canonical_facts(triples: list[tuple], copies: dict) -> set[Fact]:
    """A group of blank nodes that is not a tree, canonicalized alone with RDFC-1.0; each
    label is prefixed by a digest of the group's canonical form, so equal groups get equal
    keys and different groups never share one, and numbered by ``copies`` when the file
    holds the same group more than once."""
    text = canonical_nquads([(str(s), str(p), str(o), "") for s, p, o in triples])
    dataset = ox.Dataset(ox.parse(text, format=ox.RdfFormat.N_QUADS))
    canonical = sorted(str(q) for q in dataset)
    digest = hashlib.sha256("\n".join(canonical).encode("utf-8")).hexdigest()[:16]
    copy = copies[digest]
    copies[digest] += 1
    suffix = f"n{copy}" if copy else ""

    def key(term):
        if isinstance(term, ox.BlankNode):
            return CanonicalBlank(f"c{digest}{term.value}{suffix}")
        return term

    return {(key(q.subject), q.predicate, key(q.object)) for q in dataset}


# -- one state's graph ------------------------------------------------------------------------


@dataclass
class StateGraph:
    """A state's data files parsed: its facts, and what names and owns its nodes."""

    state: State
    base: str
    files: dict[str, ParsedFile]
    _owners: dict = field(default_factory=dict, repr=False)
    _lines: dict = field(default_factory=dict, repr=False)

    @property
    def facts(self) -> set[Fact]:
        """The union of the files' facts, as RDF merges graphs: a copy of a block that an
        earlier file (by name) holds in the same slot takes the next copy number."""
        return self._merged[0]

    @property
    def renumbered(self) -> dict[tuple, tuple[str, TreeBlank]]:
        """Each copy the union numbered on, as (subject, predicate, key), or (None, None,
        key) at the top of a file: the file, and the key the copy has there."""
        return self._merged[1]

    @cached_property
    def _merged(self) -> tuple[set[Fact], dict[tuple, tuple[str, TreeBlank]]]:
        union: set[Fact] = set()
        renumbered: dict[tuple, tuple[str, TreeBlank]] = {}
        copies: dict[tuple, int] = defaultdict(int)  # (slot, content): copies so far
        for relative, parsed in sorted(self.files.items()):
            extra: set[Fact] = set()
            mine: dict[tuple, int] = defaultdict(int)
            for s, p, key in parsed.roots:
                slot = (s, p, key.content)
                mine[slot] += 1
                if not copies[slot]:
                    continue
                renamed = TreeBlank(key.content, key.copy + copies[slot])
                renumbered[s, p, renamed] = (relative, key)
                if s is not None:
                    extra.add((s, p, renamed))  # type: ignore[arg-type]
                extra.update((renamed, q, o) for q, o in key.content)
            for slot, count in mine.items():
                copies[slot] += count
            union.update(parsed.facts)  # the renumbered copies' own facts are there already
            union.update(extra)
        return union, renumbered

    @cached_property
    def identifiers(self) -> dict[ox.NamedNode, str]:
        merged: dict[ox.NamedNode, str] = {}
        for parsed in self.files.values():
            merged.update(parsed.identifiers)
        return merged

    @cached_property
    def labels(self) -> dict[ox.NamedNode, str]:
        ranked: dict[ox.NamedNode, tuple[int, str]] = {}
        for parsed in self.files.values():
            for node, name in parsed.labels.items():
                ranked[node] = min(name, ranked.get(node, name))
        return {node: name for node, (_, name) in ranked.items()}

    @cached_property
    def referrers(self) -> dict[Term, list[Term]]:
        """For each node, the subjects of the facts that point at it."""
        found: dict[Term, list[Term]] = defaultdict(list)
        for s, _, o in self.facts:
            if not isinstance(o, ox.Literal):
                found[o].append(s)
        return found

    def owner(self, node: Term) -> Term | None:
        """The entry ``node`` belongs to: itself when it has an identifier, else the
        nearest entry pointing at it (the rule validation reports use)."""
        if node not in self._owners:
            self._owners[node] = find_owner(
                node,
                self.identifiers.get,
                lambda n: self.referrers.get(n, ()),
            )
        return self._owners[node]

    def text(self, relative: str) -> str:
        return self.state.files[relative].decode("utf-8")

    def positions(self, relative: str) -> Positions:
        """Where each triple of a file is written (sourcemap's reading of the text)."""
        return self.written(relative).positions

    def written(self, relative: str) -> WrittenIndex:
        """The triples of a file as written, indexed (read once)."""
        if relative not in self._lines:
            positions = written_triples(self.text(relative), self.base)
            self._lines[relative] = WrittenIndex(positions, self.files[relative].facts)
        return self._lines[relative]

    def subject_line(self, relative: str, node: Term) -> int | None:
        """The line where ``node`` first starts a statement in the file, if it does."""
        if isinstance(node, ox.NamedNode):
            place = self.positions(relative).subjects.get(URIRef(node.value))
            return place[0] if place else None
        return None

    def holders(self, candidates: Iterable[str]) -> dict[Fact, str]:
        """Each fact of the files ``candidates`` (relative paths) and the first of them
        that holds it (``file_of``'s index, made once: testing each fact against each
        file made a diff quadratic in the files it changed)."""
        found: dict[Fact, str] = {}
        for relative in reversed(list(candidates)):
            found.update(dict.fromkeys(self.files[relative].facts, relative))
        return found

    def file_of(self, fact: Fact, holders: dict[Fact, str]) -> str | None:
        """The first file of the candidates ``holders`` indexes (``holders``) that holds
        ``fact``, else the file of the block it is a renumbered copy in."""
        relative = holders.get(fact)
        if relative is not None:
            return relative
        for slot in (fact, (None, None, fact[0])):
            if slot in self.renumbered:
                return self.renumbered[slot][0]
        return None

    @cached_property
    def _entry_files(self) -> dict[ox.NamedNode, str]:
        found: dict[ox.NamedNode, str] = {}
        for relative, parsed in sorted(self.files.items(), reverse=True):
            found.update(dict.fromkeys(parsed.identifiers, relative))
        return found

    def entry_place(self, node: Term) -> tuple[str, int | None] | None:
        """The file (and line) where an entry is written: the first file, by name, that
        gives its identifier."""
        relative = self._entry_files.get(node)  # type: ignore[arg-type]
        return (relative, self.subject_line(relative, node)) if relative else None


def load_state(
    state: State, base: str = DEFAULT_BASE, cache: dict[bytes, ParsedFile] | None = None
) -> StateGraph:
    """Parse every data file of ``state``; files already in ``cache`` (same bytes) are
    not parsed again."""
    cache = {} if cache is None else cache
    files: dict[str, ParsedFile] = {}
    for relative in state.data_files():
        content = state.files[relative]
        if content not in cache:
            try:
                cache[content] = parse_data(content, None, base)
            except AnthologyError as exc:  # named here: a path costs a lookup per file
                raise AnthologyError(exc.message, state.source(relative), exc.line) from None
        files[relative] = cache[content]
    return StateGraph(state=state, base=base, files=files)


# -- terms in words ---------------------------------------------------------------------------

_LOCAL = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?$")


class Namer:
    """Terms as a reviewer reads them: an entry by its identifier, another IRI as a
    prefixed name, a literal as Turtle writes it, a blank node inline as ``[ ... ]``."""

    def __init__(self, identifiers: dict[ox.NamedNode, str], base: str = DEFAULT_BASE):
        self.identifiers = identifiers
        namespaces = {prefix: base if prefix == "id" else iri for prefix, iri in PREFIXES.items()}
        self.namespaces = sorted(namespaces.items(), key=lambda item: (-len(item[1]), item[0]))

    def iri(self, node: ox.NamedNode) -> str:
        for prefix, namespace in self.namespaces:
            local = node.value[len(namespace) :]
            if node.value.startswith(namespace) and (not local or _LOCAL.match(local)):
                return f"{prefix}:{local}"
        return f"<{node.value}>"

    def predicate(self, node: Term) -> str:
        return "a" if node == RDF_TYPE else self.term(node)

    def term(self, node: Term) -> str:
        if isinstance(node, ox.NamedNode):
            return self.identifiers.get(node) or self.iri(node)
        if isinstance(node, ox.Literal):
            return self.literal(node)
        if isinstance(node, TreeBlank):
            parts = [f"{self.predicate(p)} {self.term(o)}" for p, o in node.outgoing()]
            return "[ " + " ; ".join(parts) + " ]" if parts else "[]"
        return str(node)

    def literal(self, node: ox.Literal) -> str:
        escaped = node.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        if node.language:
            return f'"{escaped}"@{node.language}'
        datatype = node.datatype.value
        if datatype in _PLAIN_DATATYPES:
            return node.value
        if datatype == str(XSD.string):
            return f'"{escaped}"'
        return f'"{escaped}"^^{self.iri(node.datatype)}'


# -- the difference -------------------------------------------------------------------------


@dataclass(frozen=True)
class FactChange:
    """A fact added or removed; an added one with the file and line where it now stands."""

    subject: Term
    predicate: Term
    object: Term
    file: str | None = None
    line: int | None = None

    @property
    def fact(self) -> Fact:
        return (self.subject, self.predicate, self.object)


@dataclass
class EntryChange:
    """What changed about one entry (``iri`` None: facts no entry owns)."""

    iri: Term | None
    identifier: str | None
    status: str  # "added", "removed", "changed" or "renamed"
    label: str | None = None
    previous: str | None = None  # the identifier a renamed entry had
    file: str | None = None
    line: int | None = None
    added: list[FactChange] = field(default_factory=list)
    removed: list[FactChange] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.identifier or "(facts of no entry)"


@dataclass
class AnthologyDiff:
    """The difference of two states: by entry, and as the sets of triples added and removed
    (blank nodes keyed by content; inner facts of blank nodes included)."""

    old: str
    new: str
    entries: list[EntryChange]
    added: set[Fact]
    removed: set[Fact]
    namer: Namer
    #: The state's other files (its own shapes, queries, waivers) that differ, with
    #: "added", "removed" or "changed": they are not the graph, but rules and questions.
    rule_files: list[tuple[str, str]] = field(default_factory=list)

    @property
    def equal(self) -> bool:
        """Whether the two graphs are the same (the rule files are not compared here)."""
        return not self.added and not self.removed

    def counts(self) -> dict[str, int]:
        tally = {status: 0 for status in ("added", "removed", "renamed", "changed")}
        for entry in self.entries:
            if entry.iri is not None:
                tally[entry.status] += 1
        tally["factsAdded"] = sum(len(e.added) for e in self.entries)
        tally["factsRemoved"] = sum(len(e.removed) for e in self.entries)
        return tally


def diff_states(old: State, new: State, base: str = DEFAULT_BASE) -> AnthologyDiff:
    """The semantic difference from ``old`` to ``new`` (see the module docstring).

    >>> from dataclasses import replace
    >>> from anthology_kg.resources import bundled_dir
    >>> from anthology_kg.revisions import read_folder
    >>> old = read_folder(bundled_dir(), "before")
    >>> text = old.files["data/LIT-168.ttl"].replace(b'label "DAPO"', b'label "DAPO (2025)"')
    >>> new = replace(old, name="after", files={**old.files, "data/LIT-168.ttl": text})
    >>> [(entry.identifier, entry.status) for entry in diff_states(old, new).entries]
    [('LIT-168', 'changed')]
    >>> [fact.object.value for fact in diff_states(old, new).entries[0].added]
    ['DAPO (2025)']
    >>> diff_states(old, old).entries  # the same files: no change to the graph
    []
    """
    cache: dict[bytes, ParsedFile] = {}
    before = load_state(old, base, cache)
    after = load_state(new, base, cache)
    kept = {id(parsed) for parsed in before.files.values()}
    new_files = [r for r, parsed in sorted(after.files.items()) if id(parsed) not in kept]
    kept = {id(parsed) for parsed in after.files.values()}
    old_files = [r for r, parsed in sorted(before.files.items()) if id(parsed) not in kept]
    # A fact can only be added by a file whose bytes the old state lacks, and removed by
    # one the new state lacks: other files hold the same facts in both. Unless the union
    # numbered copies on: then a file's copy is another in the other state.
    if before.renumbered or after.renumbered:
        added, removed = after.facts - before.facts, before.facts - after.facts
        new_files = sorted(after.files)
    else:
        added = {f for r in new_files for f in after.files[r].facts if f not in before.facts}
        removed = {f for r in old_files for f in before.files[r].facts if f not in after.facts}
    namer = Namer({**before.identifiers, **after.identifiers}, base)
    entries = _by_entry(before, after, added, removed, new_files)
    return AnthologyDiff(
        old.name, new.name, entries, added, removed, namer, rule_files=_rule_files(old, new)
    )


def _rule_files(old: State, new: State) -> list[tuple[str, str]]:
    """The files besides ``data/`` that differ between the states, and how."""
    changed = []
    for path in sorted(
        (set(old.files) | set(new.files)) - set(old.data_files() + new.data_files())
    ):
        before, after = old.files.get(path), new.files.get(path)
        if before != after:
            changed.append(
                (path, "added" if before is None else "removed" if after is None else "changed")
            )
    return changed


def _roots(facts: set[Fact]) -> list[Fact]:
    """The facts a reviewer reads: those about a named node, or about a blank node that no
    other fact of ``facts`` points at; the facts inside a blank node are shown within it.

    A blank node keyed by content that an unchanged fact points at has the same content
    in both states, so its inner facts did not change: looking within ``facts`` suffices.
    """
    inside = {o for _, _, o in facts if isinstance(o, TreeBlank)}
    return [f for f in facts if not isinstance(f[0], TreeBlank) or f[0] not in inside]


def _by_entry(
    before: StateGraph,
    after: StateGraph,
    added: set[Fact],
    removed: set[Fact],
    new_files: list[str],
) -> list[EntryChange]:
    groups: dict[Term | None, tuple[list[FactChange], list[FactChange]]] = defaultdict(
        lambda: ([], [])
    )
    holders = after.holders(new_files) if added else {}
    for fact in _roots(added):
        groups[after.owner(fact[0])][0].append(_located(after, fact, holders))
    for fact in _roots(removed):
        groups[before.owner(fact[0])][1].append(FactChange(*fact))
    entries: list[EntryChange] = []
    for iri, (plus, minus) in groups.items():
        in_old, in_new = iri in before.identifiers, iri in after.identifiers
        status = "changed" if in_old == in_new else ("added" if in_new else "removed")
        graph = after if in_new else before
        place = graph.entry_place(iri) if iri is not None else None
        entries.append(
            EntryChange(
                iri=iri,
                identifier=graph.identifiers.get(iri) if iri is not None else None,  # type: ignore[arg-type]
                status=status,
                label=graph.labels.get(iri) if iri is not None else None,  # type: ignore[arg-type]
                file=graph.state.display(place[0]) if place else None,
                line=place[1] if place else None,
                added=sorted(plus, key=_fact_order),
                removed=sorted(minus, key=_fact_order),
            )
        )
    entries = _renames(entries)
    return sorted(entries, key=lambda e: (e.iri is None, e.identifier or "", str(e.iri)))


def _fact_order(change: FactChange) -> tuple:
    return (
        str(change.subject),
        change.predicate != RDF_TYPE,
        str(change.predicate),
        str(change.object),
    )


def _signature(entry: EntryChange, facts: list[FactChange]) -> frozenset:
    """An entry's facts with its own IRI and identifier left out: equal for a rename."""

    def plain(term: Term) -> object:
        if term == entry.iri:
            return "SELF"
        if isinstance(term, ox.Literal) and term.value == entry.identifier:
            return "SELF-ID"
        return term

    return frozenset((plain(c.subject), c.predicate, plain(c.object)) for c in facts)


def _renames(entries: list[EntryChange]) -> list[EntryChange]:
    """Pair each removed entry with an added one of the same content: a rename, with the
    facts the graph lost and gained, those of the old IRI removed and those of the new
    added (its identifier's among them), as the N-Quads patch holds them."""
    gone = {_signature(e, e.removed): e for e in entries if e.status == "removed"}
    out: list[EntryChange] = []
    paired: set[int] = set()
    for entry in sorted(entries, key=lambda e: e.identifier or ""):
        if entry.status != "added":
            continue
        old = gone.pop(_signature(entry, entry.added), None)
        if old is not None:
            paired.add(id(old))
            paired.add(id(entry))
            out.append(
                EntryChange(
                    iri=entry.iri,
                    identifier=entry.identifier,
                    status="renamed",
                    label=entry.label,
                    previous=old.identifier,
                    file=entry.file,
                    line=entry.line,
                    added=entry.added,
                    removed=old.removed,
                )
            )
    return out + [e for e in entries if id(e) not in paired]


def _located(graph: StateGraph, fact: Fact, holders: dict[Fact, str]) -> FactChange:
    """An added fact with the file and line where it stands in the new state (the first
    of the files ``holders`` indexes that holds it)."""
    relative = graph.file_of(fact, holders)
    if relative is None:
        return FactChange(*fact)
    return FactChange(*fact, file=graph.state.display(relative), line=_line(graph, relative, fact))


def _line(graph: StateGraph, relative: str, fact: Fact) -> int | None:
    """The line where the file writes ``fact`` (its predicate's line, or its object's in
    an object list). A blank-node object is told from its siblings by its content, and
    from blocks alike by its copy number; a blank-node subject the same way, or, in a
    cycle, by the facts about it whose object is not a blank node. The line of the
    subject's statement when the fact is not found as written."""
    written = graph.written(relative)
    subject, predicate, obj = fact
    obj = graph.renumbered.get(fact, (relative, obj))[1]
    skip = obj.copy if isinstance(obj, TreeBlank) else 0
    if isinstance(subject, ox.NamedNode):
        candidates = [w for w in written.like(predicate, obj) if w.subject == URIRef(subject.value)]
    elif isinstance(subject, Blank):
        if isinstance(subject, TreeBlank):
            shape = graph.renumbered.get((None, None, subject), (relative, subject))[1]
            skip = shape.copy
        else:
            shape = TreeBlank(frozenset(written.about.get(subject, ())))
        candidates = [
            w
            for node in written.subjects_like(shape)
            for w in written.by_subject[node]
            if w.predicate == URIRef(predicate.value) and written.holds(written_key(w), obj)  # type: ignore[union-attr]
        ]
    else:
        return None
    if skip < len(candidates):
        return candidates[skip].line
    return graph.subject_line(relative, subject)


def _form(term: Term) -> object:
    """A named node as sourcemap writes it, a literal as ``written_key`` keys a written
    one, by its text, datatype and language: ``"3"``, ``3`` and ``"3"@en`` are three
    facts, written apart (None for a blank node)."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        return value_key(term)
    return None


class WrittenIndex:
    """A file's triples as written (sourcemap's ``Positions``), indexed to find where a
    fact is written without a scan of the file per fact."""

    def __init__(self, positions: Positions, facts: frozenset[Fact]):
        self.positions = positions
        self.by_subject: dict[object, list[Written]] = defaultdict(list)
        self.by_predicate: dict[object, list[Written]] = defaultdict(list)
        self.by_pair: dict[tuple, list[Written]] = defaultdict(list)
        for w in positions.triples:
            self.by_subject[w.subject].append(w)
            self.by_predicate[w.predicate].append(w)
            if not is_blank_written(w.object):
                self.by_pair[w.predicate, written_key(w)].append(w)
        self._like: dict[TreeBlank, list[object]] = {}
        #: For each blank node of a cycle, its facts whose object is not a blank node.
        self.about: dict[Term, list[tuple[Term, Term]]] = defaultdict(list)
        for s, p, o in facts:
            if isinstance(s, CanonicalBlank) and not isinstance(o, Blank):
                self.about[s].append((p, o))

    def like(self, predicate: Term, term: Term) -> list[Written]:
        """The written triples of ``predicate`` whose object is ``term``, in file order."""
        form = _form(term)
        named = URIRef(predicate.value)  # type: ignore[union-attr]
        if form is None:
            by_predicate = self.by_predicate.get(named, [])
            return [w for w in by_predicate if self.holds(written_key(w), term)]
        return self.by_pair.get((named, form), [])

    def subjects_like(self, shape: TreeBlank) -> list[object]:
        """The written blank subjects that say at least what ``shape`` says, in file order;
        looked for among those of its rarest written fact."""
        if shape not in self._like:
            buckets = [self.like(p, o) for p, o in shape.content if _form(o) is not None]
            if buckets:
                nodes = [w.subject for w in min(buckets, key=len)]
            else:
                nodes = list(self.by_subject)
            self._like[shape] = [
                node
                for node in dict.fromkeys(nodes)
                if is_blank_written(node) and self.holds(node, shape)
            ]
        return self._like[shape]

    def holds(self, written: object, term: Term) -> bool:
        """Whether ``written`` (sourcemap's form of a term) is ``term``."""
        form = _form(term)
        if form is not None:
            return written == form
        if not is_blank_written(written):
            return False
        if isinstance(term, CanonicalBlank):  # (a blank node of a cycle: any one may be it)
            return True
        inside = self.by_subject.get(written, [])
        return all(
            any(w.predicate == URIRef(p.value) and self.holds(written_key(w), o) for w in inside)
            for p, o in term.content  # type: ignore[union-attr]
        )
