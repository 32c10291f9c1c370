"""What the site shows, read from the anthology in one pass over its data graph.

Every engine works: the data's triples come from the engine's ``quads``. Every later
lookup (labels, owners, what rests on what) is a dictionary access, so building ten
thousand pages stays linear.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import cast

from rdflib import RDF as _RDF
from rdflib import RDFS as _RDFS
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS as _DCTERMS
from rdflib.namespace import SKOS as _SKOS
from rdflib.term import Node

from ..bnodes import stable_labels
from ..loader import EntryIndex, Location, find_owner
from ..namespaces import AK as _AK
from ..terms import from_ox
from .output import slug


class Terms:
    """A namespace whose terms are each made once: rdflib builds a new URIRef on every
    attribute lookup, which dominates loops over a hundred thousand triples."""

    def __init__(self, namespace):
        self._namespace = namespace

    def __getattr__(self, name: str) -> URIRef:
        term = URIRef(str(getattr(self._namespace, name)))
        setattr(self, name, term)
        return term


AK, RDF, RDFS, DCTERMS, SKOS = (Terms(n) for n in (_AK, _RDF, _RDFS, _DCTERMS, _SKOS))

# What an entry, or a claim it makes, rests on: shown under "rests on" / "rested on by".
RESTS_ON = frozenset(
    (
        AK.restsOn,
        AK.releasedOn,
        AK.describedIn,
        AK.about,
        DCTERMS.references,
    )
)
NEIGHBOURS = RESTS_ON | {AK.addressedIn}  # what a neighbourhood picture draws
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
}
# Terms of other vocabularies the anthology uses, by the label a reader expects.
EXTERNAL_LABELS: dict[Node, str] = {
    DCTERMS.references: "mentions",
    DCTERMS.replaces: "replaces",
    DCTERMS.isReplacedBy: "is replaced by",
    DCTERMS.title: "title",
    DCTERMS.issued: "year",
    RDFS.comment: "comment",
    RDF.value: "text",
}
PROSE_MIN = 120  # a literal this long, or with a line break, is prose, not a fact


def data_triples(anthology: EntryIndex) -> Iterable[tuple[Node, Node, Node]]:
    """The data graph's triples, from whichever engine holds them."""
    made: dict[object, Node] = {}  # each term converted once: subjects, predicates, values repeat

    def term(t: object) -> Node:
        node = made.get(t)
        if node is None:
            node = made[t] = from_ox(t)
        return node

    return (
        (term(q.subject), term(q.predicate), term(q.object)) for q in anthology.quads(("data",))
    )


def _prefer(labels: dict[Node, tuple[int, str]], node: Node, rank: int, text: str) -> None:
    if node not in labels or (rank, text) < labels[node]:
        labels[node] = (rank, text)


def vocabulary_labels(ontology: Graph) -> dict[Node, str]:
    """The ontology's terms by their label: skos:prefLabel before rdfs:label, English
    (or untagged) before other languages, the smallest text on a tie."""
    labels: dict[Node, tuple[int, str]] = {}
    for rank, predicate in enumerate((SKOS.prefLabel, RDFS.label)):
        for node, value in ontology.subject_objects(predicate):
            language = getattr(value, "language", None)
            _prefer(labels, node, rank * 2 + (0 if language in (None, "en") else 1), str(value))
    return {node: text for node, (_, text) in labels.items()}


@dataclass
class Model:
    """The data graph as adjacency lists, the entries and their pages, and labels."""

    anthology: EntryIndex
    out: dict[Node, list[tuple[Node, Node]]] = field(default_factory=lambda: defaultdict(list))
    into: dict[Node, list[tuple[Node, Node]]] = field(default_factory=lambda: defaultdict(list))
    identifiers: dict[Node, str] = field(default_factory=dict)
    vocabulary: dict[Node, str] = field(default_factory=dict)
    pages: dict[Node, str] = field(default_factory=dict)
    labels: dict[Node, str] = field(default_factory=dict)
    by_predicate: dict[Node, dict[Node, list[Node]]] = field(default_factory=dict)
    _owners: dict[Node, Node | None] = field(default_factory=dict)

    @classmethod
    def read(cls, anthology: EntryIndex) -> Model:
        model = cls(anthology)
        labels: dict[Node, tuple[int, str]] = {}
        triples = list(data_triples(anthology))
        if any(isinstance(s, BNode) for s, _, _ in triples):
            # Blank-node labels from content, so that order never depends on the engine.
            stable = stable_labels(cast(Graph, triples))  # it only iterates its argument
            triples = [(stable.get(s, s), p, stable.get(o, o)) for s, p, o in triples]
        has_identifier, pref_label, label = DCTERMS.identifier, SKOS.prefLabel, RDFS.label
        for s, p, o in triples:
            model.out[s].append((p, o))
            model.into[o].append((p, s))
            if p == has_identifier and isinstance(o, Literal):
                if s not in model.identifiers or str(o) < model.identifiers[s]:
                    model.identifiers[s] = str(o)
            elif (p == pref_label or p == label) and isinstance(o, Literal):
                _prefer(labels, s, 0 if p == pref_label else 1, str(o))
        for adjacency in (model.out, model.into):
            for values in adjacency.values():
                values.sort(key=lambda po: (str(po[0]), _sort_key(po[1])))
        for subject, pairs in model.out.items():
            table: dict[Node, list[Node]] = {}
            for p, o in pairs:
                table.setdefault(p, []).append(o)
            model.by_predicate[subject] = table
        model.vocabulary = vocabulary_labels(anthology.ontology)
        model.labels = {node: text for node, (_, text) in labels.items()}
        used: set[str] = set()
        for node, identifier in sorted(model.identifiers.items(), key=lambda e: (e[1], str(e[0]))):
            if not isinstance(node, URIRef):
                continue
            name = slug(identifier)
            if name.lower() in used:  # the same identifier twice, or twice up to case
                name = slug(identifier + "\x00" + str(node))
            used.add(name.lower())
            model.pages[node] = f"entries/{name}.html"
        return model

    # -- lookups ----------------------------------------------------------------------------
    def value(self, node: Node, predicate: Node) -> Node | None:
        values = self.by_predicate.get(node, {}).get(predicate)
        return values[0] if values else None

    def values(self, node: Node, predicate: Node) -> list[Node]:
        return self.by_predicate.get(node, {}).get(predicate, [])

    def subjects(self, predicate: Node, node: Node) -> list[Node]:
        return [s for p, s in self.into.get(node, ()) if p == predicate]

    def types(self, node: Node) -> list[Node]:
        return self.values(node, RDF.type)

    def is_a(self, node: Node, cls: Node) -> bool:
        return cls in self.types(node)

    def owner(self, node: Node) -> Node | None:
        """The entry ``node`` belongs to (see ``EntryIndex.owner``), from the adjacency."""
        if node not in self._owners:
            self._owners[node] = find_owner(
                node,
                self.identifiers.get,
                lambda n: {s for _, s in self.into.get(n, ())},
            )
        return self._owners[node]

    def page_of(self, node: Node) -> str | None:
        """The page describing ``node``: its entry's page; vocabulary terms have none."""
        if isinstance(node, Literal) or node not in self.out:
            return None
        owner = self.owner(node)
        return self.pages.get(owner) if owner is not None else None

    def location(self, node: Node) -> Location | None:
        locate = getattr(self.anthology, "location", None)
        return locate(node) if locate is not None else None

    # -- names ------------------------------------------------------------------------------
    def label(self, node: Node) -> str:
        """What a reader calls ``node``: an entry's identifier, a term's label, a literal's
        text; an IRI nothing labels as a prefixed name."""
        if isinstance(node, Literal):
            return str(node)
        if node in self.identifiers:
            return self.identifiers[node]
        if node in self.labels:
            return self.labels[node]
        if node in self.vocabulary:
            return self.vocabulary[node]
        if isinstance(node, BNode):
            kinds = [self.vocabulary.get(t) for t in self.types(node)]
            return next((k for k in kinds if k), "(unnamed)")
        if node in EXTERNAL_LABELS:
            return EXTERNAL_LABELS[node]
        local = re.split(r"[#/]", str(node).rstrip("#/"))[-1]
        if re.fullmatch(r"[a-z]+(?:[A-Z][a-z0-9]*)+", local):  # wasAttributedTo
            return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", local).lower()
        return self.anthology.normalize(node)  # type: ignore[attr-defined]

    def describe(self, node: Node) -> str:
        """An unlabelled blank node by what it says: ``minimum value 1.53; unit ×``."""
        parts = [
            f"{self.label(p)} {self.label(o)}" for p, o in self.out.get(node, ()) if p != RDF.type
        ]
        return "; ".join(sorted(parts))

    def title(self, node: Node) -> str | None:
        """The title of an entry, else its label (when its identifier is its name)."""
        title = self.value(node, DCTERMS.title)
        if title is not None:
            return str(title)
        return self.labels.get(node)

    def picture_name(self, node: Node) -> str:
        """A codebase by its name (verl), anything else by its label."""
        if self.is_a(node, AK.Codebase) and node in self.labels:
            return self.labels[node]
        return self.label(node)

    def kind(self, node: Node) -> str:
        """The label of ``node``'s most specific type (the smallest label on a tie)."""
        names = sorted(self.vocabulary.get(t, self.label(t)) for t in self.types(node))
        return names[0] if names else "entry"

    def ordered(self, node: Node, predicate: Node, text: Node) -> list[str]:
        """The ``text`` of each ``predicate`` value of ``node``, in ``ak:position`` order."""
        items = []
        for item in self.values(node, predicate):
            value = self.value(item, text)
            position = self.value(item, AK.position)
            if value is not None:
                items.append((_int(position), str(value)))
        return [value for _, value in sorted(items)]

    def owned(self, entry: Node) -> list[Node]:
        """``entry`` and the nodes that belong to it (its claims, arms, takeaways...)."""
        found, todo = [entry], [entry]
        seen = {entry}
        while todo:
            node = todo.pop()
            for _, o in self.out.get(node, ()):
                if o not in seen and not isinstance(o, Literal) and o in self.out:
                    if self.owner(o) == entry:
                        seen.add(o)
                        found.append(o)
                        todo.append(o)
        return found


def _int(node: Node | None) -> int:
    try:
        return int(str(node)) if node is not None else 0
    except ValueError:
        return 0


def _sort_key(node: Node) -> tuple[int, str]:
    return (0 if isinstance(node, URIRef) else 1 if isinstance(node, BNode) else 2, str(node))


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


def entries_by_identifier(model: Model) -> Iterator[tuple[URIRef, str]]:
    """The entries that have a page, sorted by identifier."""
    for node, identifier in sorted(model.identifiers.items(), key=lambda e: (e[1], str(e[0]))):
        if node in model.pages:
            yield node, identifier  # type: ignore[misc]
