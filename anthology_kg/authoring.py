"""``new``: a data file for a new entry, from a template of the fields its class needs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS

from .config import did_you_mean
from .errors import AnthologyError, clipped
from .files import write_new_file
from .namespaces import AK, bind_prefixes
from .records import entry_class
from .sources import utf8_text
from .turtle import canonical_turtle

if TYPE_CHECKING:
    from .engine import Engine

KINDS = {
    "reference": AK.Reference,
    "lit": AK.LiteratureRecord,
    "adr": AK.DecisionRecord,
    "sota": AK.SotaRecord,
    "note": AK.Note,
}
CATEGORIES = ("method", "evaluation", "infrastructure")


def new_entry_graph(
    anthology: Engine,
    kind: str,
    identifier: str,
    title: str | None = None,
    authors: str | None = None,
    category: str | None = None,
) -> Graph:
    """The triples of a new entry; an identifier of the wrong form for ``kind``, one the
    anthology already has, a category on a kind that takes none, or one the anthology
    does not admit (``admitted_categories``: rule 1's; ``""`` included), and a title or
    authors that are empty, blank or hold a line break, are an AnthologyError."""
    for value, what in ((identifier, "the identifier"), (title, "--title"), (authors, "--authors")):
        if value is not None:
            utf8_text(value, what)
    for value, what in ((title, "--title"), (authors, "--authors")):
        # The authors head the printed record, one line; a title is one line too.
        if value is not None and ("\n" in value or "\r" in value):
            raise AnthologyError(f"{what} {clipped(value)} holds a line break: give it on one line")
        if value is not None and not value.strip():
            raise AnthologyError(f"{what} {clipped(value)} is {'empty' if not value else 'blank'}")
    cls = KINDS[kind]
    if entry_class(identifier) != cls:
        raise AnthologyError(
            f"{clipped(identifier)} is not an identifier for {_a(kind)} entry "
            "(reference: ARXIV-nnnn.nnnnn, lit: LIT-nnn, adr: ADR-nnn, sota: SOTA-nnn, "
            "note: NOTE-nnn)"
        )
    if next(iter(anthology.identified(identifier)), None) is not None:
        raise AnthologyError(f"the anthology already has an entry {clipped(identifier)}")
    if category is not None and cls not in (AK.Reference, AK.LiteratureRecord):
        raise AnthologyError(f"{_a(kind)} entry has no category")
    if category is not None:
        admitted = admitted_categories(anthology)
        if not admitted:
            raise AnthologyError(
                f"--category {clipped(category)} is not a category the anthology admits: no "
                "decision record in force admits one (rule 1): write one first (anthology-kg "
                f"new adr ADR-001), give it ak:admitsCategory ak:{_category_word(category)} "
                "and ak:status ak:accepted (a proposed, superseded or deprecated record "
                "admits nothing), or leave --category out"
            )
        if category not in admitted:
            raise AnthologyError(
                f"--category {clipped(category)} is not a category the anthology admits"
                f"{did_you_mean(category, admitted)} (admitted: {', '.join(admitted)})"
            )
    entry = URIRef(anthology.base + identifier)
    graph = bind_prefixes(Graph(), anthology.base)
    graph.add((entry, RDF.type, cls))
    graph.add((entry, DCTERMS.identifier, Literal(identifier)))
    if title is not None:
        graph.add((entry, DCTERMS.title if cls == AK.Reference else RDFS.label, Literal(title)))
    if authors is not None:
        graph.add((entry, AK.authors, Literal(authors)))
    if category is not None:
        graph.add((entry, AK.category, AK[category]))
    for prop, value, _ in template_values(kind):
        graph.add((entry, prop, value))
    return graph


def template_values(kind: str) -> list[tuple[URIRef, URIRef, str]]:
    """The values ``new_entry_graph`` gives an entry of ``kind`` that no option stated:
    each property, its value and why, for ``new`` to say them (the record's author, not
    the tool, states what the entry is; a value the template chose must be seen)."""
    cls = KINDS[kind]
    if cls in (AK.Reference, AK.LiteratureRecord):
        why = "a new entry is unread; once read, ak:read with a note on it, as rule 5 asks"
        return [(AK.readingStatus, AK.unread, why)]
    if cls == AK.DecisionRecord:
        why = "a proposed record admits no category for rule 1; once accepted, ak:accepted"
        return [(AK.status, AK.proposed, why)]
    return []


#: The categories rule 1 admits, as the query of aks:Rule1AdmittedCategory reads them
#: (ontology/shapes/adr-032.ttl; tests/test_new_category.py holds the two alike): the
#: values of ak:admitsCategory, or of ak:admits/ak:admittedCategory, of a node typed
#: ak:DecisionRecord (as stated) in force, with no ak:status proposed, superseded or
#: deprecated.
ADMITTED_CATEGORIES = f"""
PREFIX ak: <{AK}>
SELECT DISTINCT ?category WHERE {{
    ?adr ak:admitsCategory|ak:admits/ak:admittedCategory ?category ;
        a ak:DecisionRecord .
    FILTER NOT EXISTS {{
        ?adr ak:status ?status .
        FILTER (?status IN (ak:proposed, ak:superseded, ak:deprecated))
    }}
}}
"""


def admitted_categories(anthology: Engine) -> list[str]:
    """The category words (``method`` for ak:method) rule 1 admits in ``anthology``'s
    data (``ADMITTED_CATEGORIES``), sorted: none in a new anthology."""
    words = set()
    for (category,) in anthology.select(ADMITTED_CATEGORIES, parts=("data",)):
        value = getattr(category, "value", "")
        if isinstance(value, str) and value.startswith(str(AK)):
            words.add(value[len(str(AK)) :])
    return sorted(words)


def _category_word(category: str) -> str:
    """``category`` as it would follow ``ak:`` in Turtle, else ``method`` (an example)."""
    return category if category.isidentifier() else "method"


def refuse_unusable_rules(anthology: Engine, allow_service: bool) -> None:
    """Raise AnthologyError for what the check after writing a new entry would refuse,
    before anything is written: a shape calling SERVICE (unless ``allow_service``), a
    waivers.ttl that does not parse."""
    from .guards import refuse_service_in_shapes

    refuse_service_in_shapes(anthology.rules.shapes_view, allow_service)
    anthology.rules.waivers_view  # noqa: B018 - parsed on first read: its error is raised


def write_new_entry(anthology: Engine, graph: Graph, identifier: str) -> Path:
    """Write ``data/ID.ttl`` in the canonical format; a file there, even one made while
    it writes, is refused (an AnthologyError) and left as it is."""
    path = anthology.root / "data" / f"{identifier}.ttl"
    write_new_file(path, canonical_turtle(graph, base=anthology.base))
    return path


def _a(kind: str) -> str:
    """``kind`` with its article, as it is read aloud ("an adr", "a lit")."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
