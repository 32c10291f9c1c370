"""What the site shows, read from the anthology's data files in one pass.

A term is held as its N-Triples text (``<iri>``, ``_:b``, ``"text"@en``), which
pyoxigraph writes for every file it parses: plain strings hash and compare at C speed,
so the dictionaries below (adjacency, labels, owners) stay cheap at a hundred thousand
triples, and every later lookup is a dictionary access, so building ten thousand pages
stays linear. The data is read from the files as written (a literal keeps its lexical
form, ``6.0`` stays ``6.0``), the same for every engine; blank nodes are ordered by
where they are first written, so the same files give the same pages.
"""

from __future__ import annotations

import os
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import pyoxigraph as ox
from rdflib import RDF as _RDF
from rdflib import RDFS as _RDFS
from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS as _DCTERMS
from rdflib.namespace import SKOS as _SKOS
from rdflib.term import Node

from ..loader import EntryIndex, Location
from ..namespaces import AK as _AK
from ..namespaces import bind_prefixes
from ..sources import read_source, turtle_errors
from ..terms import nt_term
from .output import unique_slug

if TYPE_CHECKING:
    from ..ruleset import Triple

Term = str  # a term in N-Triples syntax
Pair = tuple[Term, Term]


class Terms:
    """A namespace whose terms are IRIs in N-Triples syntax (``<...>``)."""

    def __init__(self, namespace):
        self._namespace = str(namespace)

    def __getattr__(self, name: str) -> Term:
        term = f"<{self._namespace}{name}>"
        setattr(self, name, term)
        return term


AK, RDF, RDFS, DCTERMS, SKOS = (Terms(n) for n in (_AK, _RDF, _RDFS, _DCTERMS, _SKOS))

# The dependency terms of the vocabulary contract: the subject (a claim, an arm, an entry
# or a codebase) rests on the object. Shown under "Rests on" / "Rested on by", followed
# through what rests on what as the stored query depends-on follows it, and drawn in the
# neighbourhood pictures.
RESTS_ON = frozenset(
    (
        AK.restsOn,
        AK.releasedOn,
        AK.describedIn,
        AK.checkpointsFrom,
        AK.trainedWith,
    )
)
# What a blank node's description names first (a figure, a stated unknown), in this order.
DESCRIBED_FIRST = (
    AK.measures,
    AK.value,
    AK.minValue,
    AK.maxValue,
    AK.unit,
    AK.algorithm,
    AK.baseline,
    AK.unknownProperty,
    AK.statedAs,
)
MENTIONS = DCTERMS.references  # a mention: no dependency, shown under "Mentions"
CITO = Terms("http://purl.org/spar/cito/")
_AK_PREFIX = f"<{_AK}"
_OX_PREF_LABEL, _OX_LABEL = ox.NamedNode(str(_SKOS.prefLabel)), ox.NamedNode(str(_RDFS.label))
# Shown in the page's header or its own section rather than among the facts.
SHOWN_APART = {
    RDF.type,
    DCTERMS.identifier,
    DCTERMS.title,
    DCTERMS.issued,
    RDFS.label,
    AK.authors,
    AK.category,
    AK.readingStatus,
    AK.takeaway,
    AK.carriesPractice,
    AK.makesClaim,
    AK.arm,
    MENTIONS,
}
# Terms of other vocabularies the anthology uses, by the label a reader expects.
EXTERNAL_LABELS: dict[Term, str] = {
    DCTERMS.references: "mentions",
    DCTERMS.replaces: "replaces",
    DCTERMS.isReplacedBy: "is replaced by",
    DCTERMS.title: "title",
    DCTERMS.issued: "year",
    RDFS.comment: "comment",
    RDF.value: "text",
}
LONG = 16  # values of a subject and predicate beyond which a set finds those written twice
PROSE_MIN = 120  # a literal this long, or with a line break, is prose, not a fact
_CAMEL = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+")
_PLAIN_LOCAL = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.DOTALL)
_ESCAPED = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f"}


def is_iri(term: Term) -> bool:
    return term[0] == "<"


def is_blank(term: Term) -> bool:
    return term[0] == "_"


def is_literal(term: Term) -> bool:
    return term[0] == '"'


def _unescape(match: re.Match) -> str:
    short, long, char = match.groups()
    if short or long:
        return chr(int(short or long, 16))
    return _ESCAPED.get(char, char)


def text(term: Term) -> str:
    """A literal's lexical form, an IRI, a blank node's label: the term without syntax."""
    if term[0] == "<":
        return term[1:-1]
    if term[0] == "_":
        return term[2:]
    lexical = term[1 : term.rindex('"')]  # a language tag or datatype IRI has no '"'
    return _ESCAPE.sub(_unescape, lexical) if "\\" in lexical else lexical


def as_term(node: Node) -> Term:
    """An rdflib term (a query's answer, the ontology) in the model's syntax."""
    return nt_term(node)


# A base directive, Turtle's (@base <...>) or SPARQL's (BASE <...>, any case), white space
# or comments before its IRI (a comment matched whole, to its line's end: no text of '#'s
# is tried in more than one way), sought in the lower-cased text: a false alarm ("database <")
# only costs a document of its own, whereas the word alone ("baseline") is in most
# entries' prose.
_BASE = re.compile(rb"base(?:[\t\n\r ]|#[^\n\r]*[\n\r])*<")


def turtle_documents(texts: list[bytes]) -> list[tuple[int, str]]:
    """The data files as few Turtle documents as hold the same graph, each with the
    index of its first file: a run of files that name no blank node (``_:``) and set no
    base is one document, joined by newlines (each file declares the prefixes it uses,
    or the loader refused it); any other file is a document of its own. The texts are
    ``sources.read_source``'s, a leading byte-order mark already left out. Parsing, and
    the browser's engine, go much faster on one large document than on ten thousand
    small ones."""
    documents: list[tuple[int, str]] = []
    run: list[bytes] = []  # joined, then decoded once: no text per file
    start = 0
    for number, data in enumerate(texts):
        if b"_:" in data or _BASE.search(data.lower()):
            if run:
                documents.append((start, b"\n".join(run).decode("utf-8")))
                run = []
            documents.append((number, data.decode("utf-8")))
        else:
            if not run:
                start = number
            run.append(data)
    if run:
        documents.append((start, b"\n".join(run).decode("utf-8")))
    return documents


class _Lines:
    """A binary file for pyoxigraph's N-Triples writer that hands what it is written,
    as lines without their final " .", to ``take``, a batch at a time: the text of
    the whole graph is never held at once. Each line ends in " .\n" and a literal
    holds no "\n" (it may hold U+2028 or U+0085, which ``str.splitlines`` would break
    a line at)."""

    BATCH = 1 << 20

    def __init__(self, take: Callable[[list[str]], None]):
        self.take = take
        self.pending = bytearray()

    def write(self, data: bytes) -> int:
        self.pending += data
        if len(self.pending) >= self.BATCH:
            cut = self.pending.rfind(b" .\n") + 3
            if cut > 2:
                self._hand(cut)
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self._hand(len(self.pending))

    def _hand(self, cut: int) -> None:
        lines = self.pending[:cut].decode("utf-8").split(" .\n")
        del self.pending[:cut]
        lines.pop()  # after the last " .\n"
        self.take(lines)


def data_triples(anthology: EntryIndex, take: Callable[[list[str]], None]) -> list[str]:
    """Give ``take`` the data graph's triples as N-Triples lines without their final
    `` .``, in the order they are written (files by name), a batch at a time; return
    the files as Turtle documents (``turtle_documents``). A triple written twice (in
    two files, say) comes twice.

    The data files are parsed again (the store keeps numbers in canonical form, the
    site shows them as written; from the bytes the engine read when it kept them, else
    read again) and written as N-Triples, both by pyoxigraph and with
    no Python object per triple. An anthology with no files (a remote store) gives its
    engine's quads, blank nodes labelled by RDFC-1.0 so that their order does not
    depend on the store."""
    documents: list[str] = []
    files = anthology.data_files
    if files:
        # What the engine read, when it kept it (``OxigraphEngine.sources``).
        sources = getattr(anthology, "sources", None)
        kept = sources() if sources is not None else None
        # Paths as text: a Path object per file costs more than reading it.
        names = getattr(files, "names", None)
        folder = getattr(files, "folder", None)
        if kept is not None and len(kept) == len(files):
            texts = kept
        elif names and folder:
            # A file the folder's listing calls regular is not looked at before it is
            # opened (as the engine reads it; read_source checks it once open).
            regular = getattr(files, "listed_regular", lambda name: False)
            texts = [read_source(os.path.join(folder, n), listed_regular=regular(n)) for n in names]
        else:
            texts = [read_source(path) for path in files]
        for number, document in turtle_documents(texts):
            documents.append(document)
            # The engine read these files already; an error would name the first.
            with turtle_errors(files[number], anthology.base):
                quads = ox.parse(
                    document,
                    format=ox.RdfFormat.TURTLE,
                    base_iri=anthology.base,
                    rename_blank_nodes=True,
                )
                sink = _Lines(take)
                ox.serialize(quads, sink, format=ox.RdfFormat.N_TRIPLES)  # type: ignore[arg-type]
                sink.close()
    else:
        dataset = ox.Dataset(
            ox.Quad(q.subject, q.predicate, q.object) for q in anthology.quads(("data",))
        )
        dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
        written = ox.serialize((q.triple for q in dataset), format=ox.RdfFormat.N_TRIPLES) or b""
        lines = written.decode("utf-8").split(" .\n")
        lines.pop()
        take(sorted(lines))
    return documents


def _prefer(labels: dict, node, rank: int, text: str) -> None:
    if node not in labels or (rank, text) < labels[node]:
        labels[node] = (rank, text)


def vocabulary_labels(ontology: Iterable[Triple]) -> dict[Term, str]:
    """The ontology's terms by their label: skos:prefLabel before rdfs:label, English
    (or untagged) before other languages, the smallest text on a tie. ``ontology``: its
    pyoxigraph triples (``Rules.ontology_triples``: no rdflib graph is made for them)."""
    labels: dict[Term, tuple[int, str]] = {}
    ranks = {_OX_PREF_LABEL: 0, _OX_LABEL: 2}
    for s, p, o in ontology:
        rank = ranks.get(p)
        if rank is not None:
            language = getattr(o, "language", None)
            _prefer(labels, str(s), rank + (0 if language in (None, "en") else 1), o.value)
    return {node: text for node, (_, text) in labels.items()}


@dataclass
class Model:
    """The data graph as adjacency lists, the entries and their pages, and labels."""

    anthology: EntryIndex
    out: dict[Term, list[Pair]] = field(default_factory=lambda: defaultdict(list))
    # What points at each node (at an IRI or blank node: nothing asks of a literal).
    into: dict[Term, list[Pair]] = field(default_factory=lambda: defaultdict(list))
    identifiers: dict[Term, str] = field(default_factory=dict)
    vocabulary: dict[Term, str] = field(default_factory=dict)
    pages: dict[Term, str] = field(default_factory=dict)
    labels: dict[Term, str] = field(default_factory=dict)
    by_predicate: dict[Term, dict[Term, list[Term]]] = field(default_factory=dict)
    order: dict[Term, str] = field(default_factory=dict)  # blank node: where first written
    documents: list[str] = field(default_factory=list)  # the data files, as Turtle
    # The vocabulary's IRIs (the ontology's subjects): no entry owns one.
    terms: frozenset[Term] = frozenset()
    _owners: dict[Term, Term | None] = field(default_factory=dict)
    _labels: dict[Term, str] = field(default_factory=dict)
    _owned: dict[Term, list[Term]] = field(default_factory=dict)
    _dependencies: dict[tuple[Term, bool], list[Dependency]] = field(default_factory=dict)
    _prefixes: dict[str, str] | None = None

    @classmethod
    def read(cls, anthology: EntryIndex) -> Model:
        model = cls(anthology)
        labels: dict[Term, tuple[int, str]] = {}
        has_identifier, pref_label, label = DCTERMS.identifier, SKOS.prefLabel, RDFS.label
        out, into, identifiers = model.out, model.into, model.identifiers
        by_predicate = model.by_predicate
        many: dict[tuple[Term, Term], set[Term]] = {}  # the values of a long list
        intern = sys.intern  # a term's text once, however often it is used

        # The subject of the last line, as written and interned, its table and its pairs:
        # a subject's lines mostly come one after the other (three in a row on average).
        last, s = "", ""
        table: dict[Term, list[Term]] = {}
        pairs: list[Pair] = []

        def take(lines: list[str]) -> None:
            nonlocal last, s, table, pairs
            # No sorting: the files' order is the same for every engine and every run.
            for line in lines:
                subject, p, o = line.split(" ", 2)
                if subject != last:
                    last = s = intern(subject)
                    known = by_predicate.get(s)
                    if known is None:
                        known = by_predicate[s] = {}
                    table = known
                    pairs = out[s]  # a new subject's first line is never written twice
                p = intern(p)
                literal = o[0] == '"'
                if not literal:  # nothing asks what points at a literal
                    o = intern(o)
                values = table.get(p)
                if values is None:
                    table[p] = [o]
                elif len(values) < LONG:
                    if o in values:
                        continue  # written twice: the first stays
                    values.append(o)
                else:
                    seen = many.get((s, p))
                    if seen is None:
                        seen = many[(s, p)] = set(values)
                    if o in seen:
                        continue
                    seen.add(o)
                    values.append(o)
                pairs.append((p, o))
                if not literal:
                    into[o].append((p, s))
                elif p == has_identifier:
                    value = text(o)
                    if s not in identifiers or value < identifiers[s]:
                        identifiers[s] = value
                elif p == pref_label or p == label:
                    _prefer(labels, s, 0 if p == pref_label else 1, text(o))

        model.documents = data_triples(anthology, take)
        order = model.order
        for node in (*out, *into):
            if node[0] == "_" and node not in order:
                order[node] = f"{len(order):09d}"
        ontology = anthology.rules.ontology_triples
        model.vocabulary = vocabulary_labels(ontology)
        model.terms = frozenset(str(s) for s, _, _ in ontology if isinstance(s, ox.NamedNode))
        model.labels = {node: value for node, (_, value) in labels.items()}
        used: set[str] = set()
        key = model.sort_key
        for node, identifier in sorted(identifiers.items(), key=lambda e: (e[1], key(e[0]))):
            if node[0] != "<":
                continue
            # The same identifier twice, or twice up to case: the later one's name is hashed.
            model.pages[node] = f"entries/{unique_slug(identifier, used, node[1:-1])}.html"
        return model

    def sort_key(self, node: Term) -> tuple[int, str]:
        """IRIs, then blank nodes (by where they are first written), then literals."""
        first = node[0]
        if first == "<":
            return (0, node)
        if first == "_":
            return (1, self.order.get(node, node))
        return (2, node)

    # -- lookups ----------------------------------------------------------------------------
    # A page asks these a hundred thousand times: no default dict or list made per call.
    def value(self, node: Term, predicate: Term) -> Term | None:
        table = self.by_predicate.get(node)
        values = table.get(predicate) if table is not None else None
        return values[0] if values else None

    def text(self, node: Term, predicate: Term) -> str | None:
        """The text of ``node``'s first ``predicate`` value, if any."""
        table = self.by_predicate.get(node)
        values = table.get(predicate) if table is not None else None
        return text(values[0]) if values else None

    def values(self, node: Term, predicate: Term) -> list[Term]:
        table = self.by_predicate.get(node)
        values = table.get(predicate) if table is not None else None
        return values if values is not None else []

    def subjects(self, predicate: Term, node: Term) -> list[Term]:
        return [s for p, s in self.into.get(node, ()) if p == predicate]

    def types(self, node: Term) -> list[Term]:
        return self.values(node, RDF.type)

    def is_a(self, node: Term, cls: Term) -> bool:
        return cls in self.types(node)

    def owner(self, node: Term) -> Term | None:
        """The entry ``node`` belongs to: itself when it has an identifier, else the
        nearest node pointing at it (breadth first, ties to the first in order) that
        has one (as ``loader.find_owner``). A term of the vocabulary belongs to no
        entry, and the walk does not pass through one: data may say something of a term
        (``ak:trainedWith ak:declaredBy id:ADR-032``) that an entry also uses."""
        owners = self._owners
        if node in owners:
            return owners[node]
        found = None
        if node[0] != '"' and not self.is_term(node):
            seen, todo = {node}, [node]
            while todo and found is None:
                following = []
                for current in todo:
                    if current in self.identifiers:
                        found = current
                        break
                    referrers = {s for _, s in self.into.get(current, ())}
                    for subject in sorted(referrers, key=self.sort_key):
                        if subject not in seen and not self.is_term(subject):
                            seen.add(subject)
                            following.append(subject)
                todo = following
        owners[node] = found
        return found

    def is_term(self, node: Term) -> bool:
        """Whether ``node`` is a term of the vocabulary: the ontology says something of
        it, or it is in the ontology's namespace; an entry with an identifier is not."""
        return (
            node[0] == "<"
            and node not in self.identifiers
            and (node in self.terms or node.startswith(_AK_PREFIX))
        )

    def page_of(self, node: Term) -> str | None:
        """The page describing ``node``: its entry's page; vocabulary terms have none."""
        if node[0] == '"' or node not in self.out:
            return None
        owner = self.owner(node)
        return self.pages.get(owner) if owner is not None else None

    def location(self, node: Term) -> Location | None:
        locate = getattr(self.anthology, "location", None)
        if locate is None or node[0] != "<":
            return None
        return locate(URIRef(text(node)))

    # -- names ------------------------------------------------------------------------------
    def label(self, node: Term) -> str:
        """What a reader calls ``node``: an entry's identifier, a term's label, a literal's
        text; an IRI nothing labels as a prefixed name."""
        known = self._labels.get(node)
        if known is None:
            known = self._labels[node] = self._label(node)
        return known

    def _label(self, node: Term) -> str:
        if node[0] == '"':
            return text(node)
        if node in self.identifiers:
            return self.identifiers[node]
        if node in self.labels:
            return self.labels[node]
        if node in self.vocabulary:
            return self.vocabulary[node]
        if node[0] == "_":
            kinds = [self.vocabulary.get(t) for t in self.types(node)]
            return next((k for k in kinds if k), "(unnamed)")
        if node in EXTERNAL_LABELS:
            return EXTERNAL_LABELS[node]
        iri = text(node)
        local = re.split(r"[#/]", iri.rstrip("#/"))[-1]
        if _CAMEL.fullmatch(local):  # wasAttributedTo
            return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", local).lower()
        return self.prefixed(iri)

    def prefixed(self, iri: str) -> str:
        """``iri`` as the anthology's ``normalize`` writes it (``id:X-claim``): a plain
        local name after a bound namespace is looked up here, anything else asked of
        the anthology (rdflib's namespace manager, a hundred times slower)."""
        if self._prefixes is None:
            names = bind_prefixes(Graph(), self.anthology.base).namespaces()
            self._prefixes = {str(namespace): prefix for prefix, namespace in names}
        cut = max(iri.rfind("#"), iri.rfind("/")) + 1
        prefix = self._prefixes.get(iri[:cut])
        if prefix is not None and _PLAIN_LOCAL.fullmatch(iri[cut:]):
            return f"{prefix}:{iri[cut:]}"
        return self.anthology.normalize(URIRef(iri))  # type: ignore[attr-defined]

    def describe(self, node: Term) -> str:
        """An unlabelled blank node by what it says, in the order a reader expects
        (``DESCRIBED_FIRST``, then by label): ``measures throughput; minimum value 1.53;
        maximum value 20.57; unit ×``. The values of one predicate are joined, each once;
        a stated unknown is named by what is unknown and the record's words for it."""
        values: dict[Term, list[str]] = {}
        for p, o in self.out.get(node, ()):
            if p != RDF.type:
                shown = self._described_value(o)
                listed = values.setdefault(p, [])
                if shown not in listed:
                    listed.append(shown)
        first = {p: i for i, p in enumerate(DESCRIBED_FIRST)}
        order = sorted(values, key=lambda p: (first.get(p, len(first)), self.label(p), p))
        return "; ".join(f"{self.label(p)} {', '.join(values[p])}" for p in order)

    def _described_value(self, node: Term) -> str:
        unknown = self.value(node, AK.unknownProperty) if node[0] == "_" else None
        if unknown is None:
            return self.label(node)
        words = self.text(node, AK.statedAs)
        return f"{self.label(unknown)} (stated as “{words}”)" if words else self.label(unknown)

    def title(self, node: Term | None) -> str | None:
        """The title of an entry, else its label (when its identifier is its name)."""
        if node is None:
            return None
        title = self.text(node, DCTERMS.title)
        return title if title is not None else self.labels.get(node)

    def picture_name(self, node: Term) -> str:
        """A codebase by its name (verl), anything else by its label."""
        if node in self.labels and self.is_a(node, AK.Codebase):
            return self.labels[node]
        return self.label(node)

    def kind(self, node: Term) -> str:
        """The label of ``node``'s most specific type (the smallest label on a tie)."""
        names = sorted(self.vocabulary.get(t) or self.label(t) for t in self.types(node))
        return names[0] if names else "entry"

    def ordered(self, node: Term, predicate: Term, text_predicate: Term) -> list[str]:
        """The text of each ``predicate`` value of ``node``, in ``ak:position`` order."""
        items = []
        for item in self.values(node, predicate):
            value = self.text(item, text_predicate)
            if value is not None:
                items.append((_int(self.text(item, AK.position)), value))
        return [value for _, value in sorted(items)]

    def owned(self, entry: Term) -> list[Term]:
        """``entry`` and the nodes that belong to it (its claims, arms, takeaways...)."""
        found = self._owned.get(entry)
        if found is None:
            found = self._owned[entry] = self._find_owned(entry)
        return found

    def _find_owned(self, entry: Term) -> list[Term]:
        found, todo = [entry], [entry]
        seen = {entry}
        out = self.out
        while todo:
            node = todo.pop()
            for _, o in out.get(node, ()):
                if o not in seen and o in out:
                    seen.add(o)
                    if self.owner(o) == entry:
                        found.append(o)
                        todo.append(o)
        return found

    def dependencies(self, entry: Term, *, dependents: bool) -> list[Dependency]:
        """What ``entry`` or a part of it rests on, and what that rests on in turn; with
        ``dependents``, what rests on ``entry`` or a part of it, directly or through what
        rests on it (as the stored query depends-on follows the chain). Each link of the
        dependency terms (``RESTS_ON``) once, nearest first, links inside the entry left
        out; a dependency is followed from the node it reaches, not from its entry
        (the picture and the page of an entry both ask: found once)."""
        found = self._dependencies.get((entry, dependents))
        if found is None:
            found = self._dependencies[(entry, dependents)] = self._find_dependencies(
                entry, dependents
            )
        return found

    def _find_dependencies(self, entry: Term, dependents: bool) -> list[Dependency]:
        parts = self.owned(entry)
        inside = set(parts)
        seen = set(parts)
        links = self.into if dependents else self.out
        found: list[Dependency] = []
        frontier, depth = list(parts), 0
        while frontier:
            following = []
            for node in frontier:
                for p, other in links.get(node, ()):
                    if p not in RESTS_ON or other[0] == '"' or other in inside:
                        continue
                    found.append(
                        Dependency(other, p, node, depth)
                        if dependents
                        else Dependency(node, p, other, depth)
                    )
                    if other not in seen:
                        seen.add(other)
                        following.append(other)
            frontier, depth = following, depth + 1
        return found

    def support(self, entry: Term, *, cited: bool) -> list[tuple[Term, Term]]:
        """The CiTO citations by which ``entry`` obtains support from another entry
        (``cito:obtainsSupportFrom``), as (citation, cited entry); with ``cited``, those
        by which another obtains support from ``entry``, as (citation, citing entry)."""
        mine, theirs = (
            (CITO.hasCitedEntity, CITO.hasCitingEntity)
            if cited
            else (CITO.hasCitingEntity, CITO.hasCitedEntity)
        )
        found: list[tuple[Term, Term]] = []
        for citation in self.subjects(mine, entry):
            if self.is_a(citation, CITO.Citation) and CITO.obtainsSupportFrom in self.values(
                citation, CITO.hasCitationCharacterization
            ):
                found.extend((citation, other) for other in self.values(citation, theirs))
        return found


class Dependency(NamedTuple):
    """``dependent`` rests on ``on`` by ``relation`` (a term of ``RESTS_ON``); ``depth``
    is 0 when one end is the entry asked about or a part of it, else the number of links
    between them."""

    dependent: Term
    relation: Term
    on: Term
    depth: int


def _int(value: str | None) -> int:
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0


def paragraphs(text: str) -> list[str]:
    """Prose as paragraphs: a blank line starts one; so does a line after a short line that
    ends a sentence, or after a line much longer than the wrapping (one paragraph per line,
    as the record's format allows). A single newline inside a paragraph is a space."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    wrapped = [len(line) for line in lines if 0 < len(line) <= 100]
    width = max(wrapped, default=100)
    result: list[str] = []
    current: list[str] = []
    for line in lines:
        if not line:
            if current:
                result.append(" ".join(current))
                current = []
            continue
        current.append(line)
        ends_sentence = bool(re.search(r"[.!?…:][\"'’”)]*$", line))
        if len(line) > 100 or (ends_sentence and len(line) < 0.85 * width):
            result.append(" ".join(current))
            current = []
    if current:
        result.append(" ".join(current))
    return result


def entries_by_identifier(model: Model) -> Iterator[tuple[Term, str]]:
    """The entries that have a page, sorted by identifier."""
    for node, identifier in sorted(
        model.identifiers.items(), key=lambda e: (e[1], model.sort_key(e[0]))
    ):
        if node in model.pages:
            yield node, identifier
