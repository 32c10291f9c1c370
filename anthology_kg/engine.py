"""The engine seam: one interface every command reads an anthology through.

An engine holds an anthology (its data, and the rules: ontology, shapes, waivers,
stored queries) and answers what the commands ask: entries and where they are written,
SHACL results as plain rows, SPARQL queries, and the triples for serialization. Three
engines implement it: the Oxigraph engine (``fast``, the default: a pyoxigraph store,
shapes compiled to SPARQL), the reference engine (rdflib and pySHACL) and the remote
engine (a SPARQL 1.1 store). ``open_engine`` is the one place that picks among them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol

from . import resources
from .choices import DATA_GRAPH, DEFAULT_BASE, INFERENCE_CHOICES
from .choices import ENGINES as ENGINES
from .errors import AnthologyError, InferenceUnsupported
from .parts import PARTS
from .sources import check_base

# No engine and no RDF library is imported here: ``open_engine`` imports the engine it
# opens, and the types below are for the type checker.
if TYPE_CHECKING:
    import pyoxigraph as ox
    from rdflib import Graph, URIRef
    from rdflib.term import Node

    from .endpoint import Connection
    from .entries import Location
    from .fast import OxigraphEngine
    from .kinds import Term
    from .layout import LayoutWarning
    from .parts import OxTerm
    from .query_result import QueryResult
    from .ruleset import Rules
    from .shacl import ResultRow

#: The engine names ``--engine`` takes; the first is the default.


class Engine(Protocol):
    """What a command may ask of an anthology, whichever engine holds it.

    The lookups of a node (``identifier``, ``referrers``, ``owner``, ``location``) take
    a term of either library (``kinds.Term``): validation asks with its rows' terms,
    pyoxigraph's on the Oxigraph engine and rdflib's on the others, and with the rules'
    terms, which pyoxigraph reads."""

    name: ClassVar[str]
    #: Whether validation and queries may run beside other work (``EntryIndex``).
    answers_beside: ClassVar[bool]
    root: Path
    base: str
    #: The ontology, shapes, waivers and stored-query folders (``loader.load_rules``).
    rules: Rules
    data_files: Sequence[Path]
    locations: dict[Node, Location]

    @property
    def ontology(self) -> Graph:
        """``rules.ontology``."""
        ...

    @property
    def shapes(self) -> Graph:
        """``rules.shapes``: the SHACL shapes, bundled and the anthology's own."""
        ...

    @property
    def waivers(self) -> Graph:
        """``rules.waivers``."""
        ...

    @property
    def shape_files(self) -> list[Path]:
        """``rules.shape_files``."""
        ...

    @property
    def query_dirs(self) -> list[Path]:
        """``rules.query_dirs``."""
        ...

    def identifier(self, node: Term) -> str | None:
        """The ``dcterms:identifier`` of ``node`` in the data, if it has one."""
        ...

    def identified(self, text: str) -> Iterator[Node]:
        """The nodes whose identifier is ``text``."""
        ...

    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        """Every (node, identifier) of the data, in no set order."""
        ...

    def referrers(self, node: Term) -> Set[Term]:
        """The subjects of the data's triples whose object is ``node``."""
        ...

    def objects(self, node: Term) -> Set[Term]:
        """The objects of the data's triples whose subject is ``node``."""
        ...

    def entries(self) -> Iterator[tuple[Node, str]]:
        """Every node that has an identifier, with it, sorted by identifier."""
        ...

    def owner(self, node: Term) -> Term | None:
        """The entry ``node`` belongs to (itself, or the nearest entry pointing at it)."""
        ...

    def resolve_entry(self, text: str) -> URIRef:
        """The entry named by an identifier or a full IRI; AnthologyError if none."""
        ...

    def location(self, node: Term) -> Location | None:
        """The file and line where ``node`` (or its owner) is written, if known."""
        ...

    def written_in(self, node: Term) -> list[Location]:
        """Every data file that writes the IRI ``node`` as a subject, with its first
        line there, in the order of the files."""
        ...

    def normalize(self, node: str) -> str:
        """An IRI as a prefixed name where a bound prefix fits, else ``<iri>``."""
        ...

    def query(
        self,
        text: str,
        bindings: Mapping[str, Node] | None = None,
        source: str | Path | None = None,
        parts: Sequence[str] = PARTS,
        *,
        allow_service: bool = False,
    ) -> QueryResult:
        """Run SPARQL ``text`` with ``bindings`` bound as RDF terms; its default graph
        is the union of ``parts`` (data, ontology, shapes). Errors name ``source``. On
        a local engine a query calling a remote endpoint (SERVICE) is an AnthologyError
        unless ``allow_service``: a local query reaches the network only when asked (the
        remote engine's store runs the query, SERVICE and all)."""
        ...

    def select(self, text: str, parts: Sequence[str] = PARTS) -> list[tuple[OxTerm | None, ...]]:
        """The rows of SELECT ``text`` on the union of ``parts``, each a tuple of
        pyoxigraph terms (None: unbound) in the order of its variables: for callers that
        count or print values and need no rdflib terms (``stats``). SERVICE is refused
        on a local engine, as by ``query``."""
        ...

    def triple_count(self, parts: Sequence[str] = ("data",)) -> int:
        """The number SPARQL's ``COUNT(*)`` of ``?s ?p ?o`` on the union of ``parts``
        answers (``stats`` counts the data's triples with it)."""
        ...

    def shacl_rows(self, inference: str = "none") -> list[ResultRow]:
        """The SHACL results of the data against the shapes, as plain rows."""
        ...

    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        """The triples of ``parts`` as pyoxigraph quads, each in its part's graph
        (``terms.GRAPHS``), for writers and for copying into a store."""
        ...

    def graph(self, part: str) -> Graph:
        """One part as an rdflib graph (blank nodes labelled from their content)."""
        ...

    def describe(self, node: Node) -> Graph:
        """What the data says of ``node``: its triples and its blank nodes' (nested),
        the triples that point at it, and the identifier of every IRI these name."""
        ...

    def layout_warnings(self) -> list[LayoutWarning]:
        """The data files that break the layout rule: a file not named by its entry's
        identifier, an entry described in two files (``layout.layout_warnings``)."""
        ...

    def folder_warnings(self) -> list[LayoutWarning]:
        """What the listings of the data and shapes folders show that is almost surely
        a mistake (``layout.folder_warnings``), without reading a file."""
        ...


def _warn(message: str) -> None:
    warnings.warn(message, stacklevel=3)


def open_engine(
    kind: str = ENGINES[0],
    *,
    root: Path | str | None = None,
    base: str = DEFAULT_BASE,
    extra_shapes: Sequence[Path] = (),
    inference: str = "none",
    validates: bool = False,
    endpoint: str | None = None,
    data_graph: str = DATA_GRAPH,
    graphs: Sequence[str] = (),
    warn: Callable[[str], None] = _warn,
    connection: Connection | None = None,
    layout: bool = False,
    deferred: bool = False,
) -> Engine:
    """The anthology at ``root`` in the engine that can answer the request.

    ``kind`` is ``fast`` (Oxigraph) or ``reference`` (rdflib, pySHACL). With an
    ``endpoint`` the remote engine answers, with the local rules; the fast kind then
    validates in the store (compiled shapes pushed down), the reference kind locally. With
    ``inference`` (rdfs, owlrl) the engine holds the closure of the data and ontology: the
    fast one computes it in its store (inference.py), the reference one with owlrl; the
    store at an ``endpoint`` holds none, so there ``inference`` is an AnthologyError
    unless the caller ``validates`` (validation then infers on the data read back). When
    the caller ``validates`` and the compiler refuses a shape, or the fast rules cannot
    infer owlrl's closure of this graph, or a literal the store would hold in another form
    than written is read as written by a shape (``literal_terms``), the reference engine
    is used and ``warn`` says why.
    With ``layout`` the caller will ask for ``layout_warnings``: a local engine's loader
    scans each file's text as it reads it (else they read the files again). With
    ``deferred`` the caller will parse the data files again (the site): the Oxigraph
    engine reads them now, keeps their bytes for ``sources`` and parses them into its
    store on first use (``load_fast``), which may be in a forked child.
    """
    if kind not in ENGINES:
        raise AnthologyError(f"unknown engine {kind!r}: use one of {', '.join(ENGINES)}")
    if inference not in INFERENCE_CHOICES:
        choices = ", ".join(INFERENCE_CHOICES)
        raise AnthologyError(f"unknown inference {inference!r}: use one of {choices}")
    if endpoint and inference != "none" and not validates:
        raise AnthologyError(
            f"inference ({inference}) applies to the local anthology, not to an endpoint: "
            "the store's queries see no closure"
        )
    check_base(base)  # entries are base + identifier, which a base like …/id# breaks
    folder = (Path(root) if root is not None else resources.find_root()).resolve()
    if endpoint:
        from .remote import open_remote  # httpx and the HTTP client: only for a store

        remote = open_remote(
            endpoint,
            folder,
            base=base,
            extra_shapes=extra_shapes,
            data_graph=data_graph,
            graphs=graphs,
            connection=connection,
            warn=warn,
        )
        if validates and kind == "fast" and inference == "none":
            from .fast import compile_shapes
            from .shacl import Unsupported

            try:
                compile_shapes(remote.shapes)
                remote.pushdown = True
            except Unsupported as exc:
                from .ruleset import where_shape_written

                where = where_shape_written(remote.rules, exc.shape)
                warn(
                    f"{where + ': ' if where else ''}the fast engine cannot run these shapes "
                    f"({exc}); reading the graph back for the reference engine"
                )
        return remote
    if kind == "fast":
        from .fast import load_fast
        from .ruleset import load_rules

        rules = load_rules(folder, base, extra_shapes) if validates else None
        # (the shapes first: a refused shape needs no store loaded)
        why = _shapes_departure(rules, base) if rules is not None else None
        if why is not None:
            warn(f"{why}; using the reference engine")
        else:
            try:
                fast = load_fast(
                    folder,
                    base=base,
                    extra_shapes=extra_shapes,
                    rules=rules,
                    inference=inference,
                    layout=layout,
                    deferred=deferred,
                )
            except InferenceUnsupported as exc:
                warn(f"{exc}; using the reference engine (owlrl)")
            else:
                if rules is None:
                    return fast
                why = _data_departure(fast)
                if why is None:
                    fast.validates_as_written = True
                    return fast
                warn(f"{why}; using the reference engine")
    from .loader import load_anthology  # rdflib's graphs: the reference engine only

    anthology = load_anthology(folder, base=base, extra_shapes=extra_shapes, layout=layout)
    anthology.inference = inference
    return anthology


def _shapes_departure(rules: Rules, base: str) -> str | None:
    """Why the fast engine cannot validate with ``rules``, whatever the data: a shape its
    compiler refuses, or a constant of the shapes its store holds in another form than
    written that a shape reads as written (``literal_terms``); None when none is so."""
    from .fast import compile_shapes
    from .literal_terms import shapes_constant
    from .shacl import Unsupported  # the compiler: loaded only to validate

    try:
        # Compiled here only to learn whether the compiler takes these shapes:
        # validation compiles them again for the loaded store's class hierarchy.
        compile_shapes(rules.shapes_view)
    except Unsupported as exc:
        from .ruleset import where_shape_written

        where = where_shape_written(rules, exc.shape)
        return f"{where + ': ' if where else ''}the fast engine cannot run these shapes ({exc})"
    constant = shapes_constant(rules.shape_triples, rules.shape_files, base)
    return None if constant is None else constant.notice()


def _data_departure(fast: OxigraphEngine) -> str | None:
    """Why the fast engine cannot validate the data it holds: a literal its store holds
    in another form than written that a shape reads as written; None when none is so."""
    from .literal_terms import own_queries, rewritten_literal, watched

    # SHACL compares terms as written, the store holds some as values.
    rules = fast.rules
    queries = own_queries(rules.shape_files, resources.bundled_shapes_dir(), fast.base)
    rewritten = rewritten_literal(fast, watched(rules.shapes_view, queries))
    return None if rewritten is None else rewritten.notice()


def validating_engine(anthology: Engine, warn: Callable[[str], None] = _warn) -> Engine:
    """The engine that validates ``anthology`` as SHACL reads its shapes and data: itself,
    or, for a fast engine not opened to validate (``open_engine(validates=True)`` checks
    this once), the reference engine of the same anthology where the fast one cannot
    (the reasons ``open_engine`` gives), ``warn`` saying why."""
    if anthology.name != "fast":
        return anthology
    from .fast import OxigraphEngine

    if not isinstance(anthology, OxigraphEngine) or anthology.validates_as_written:
        return anthology
    why = _shapes_departure(anthology.rules, anthology.base) or _data_departure(anthology)
    if why is None:
        anthology.validates_as_written = True
        return anthology
    warn(f"{why}; using the reference engine")
    from .loader import load_anthology

    reference = load_anthology(anthology.root, base=anthology.base, rules=anthology.rules)
    reference.inference = anthology.inference
    return reference
