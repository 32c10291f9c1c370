"""Run compiled shapes on a pyoxigraph store: the results as plain rows."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox

from ..errors import AnthologyError
from ..guards import clear_frames
from ..kinds import text
from ..progress import track
from .compiler import CompiledConstraint, Compiler
from .graph import ShapesGraph
from .sparql_based import SPARQL_CONSTRAINT, TEMPLATE_PLACEHOLDER

if TYPE_CHECKING:
    from rdflib import Graph

    from ..kinds import Term
    from ..parts import OxTerm


@dataclass(frozen=True)
class ResultRow:
    """One SHACL validation result (SHACL 3.6.2): ``path`` is the result path (a node
    of the shapes graph, or the predicate of a closed shape's triple), ``value`` the
    value node, ``source_constraint`` the SPARQL-based constraint where there is one
    (SHACL 5.3.2 names it there; 3.6.2 makes sh:sourceConstraint a "may", and a
    component's validator is given none, pySHACL's choice followed), ``messages`` the result
    messages. Its terms are pyoxigraph's on the Oxigraph engine's own path, rdflib's
    where a caller gave rdflib's (its shapes graph, its executor's solutions)."""

    focus: Term
    path: Term | None
    value: Term | None
    source_shape: Term
    source_constraint_component: Term
    severity: Term
    messages: tuple[Term, ...] = ()
    source_constraint: Term | None = None


def _same(term: OxTerm) -> Term:
    return term


class ValidationError(AnthologyError):
    """A compiled query the store refused (a SPARQL constraint's own syntax, say)."""


# A SPARQL SELECT executor: query text to its solutions, each a mapping from variable
# name to term (an unbound variable absent or None). A pyoxigraph store and a remote
# SPARQL endpoint are two.
Select = Callable[[str], Iterable[Mapping[str, "Term | None"]]]

#: A blank node's text in a filled message template (``run_compiled``'s ``blank_text``).
BlankText = Callable[[ox.BlankNode], str]

#: A graph name of a pyoxigraph store, as its queries' ``default_graph`` takes them.
GraphName = ox.NamedNode | ox.BlankNode | ox.DefaultGraph


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


#: Threads that run a store's compiled queries at once: one per core this process may
#: use, at most four (the anthology's shapes give a few long queries and many short ones).
STORE_WORKERS = min(4, _cores())


def store_select(
    store: ox.Store, default_graph: Sequence[GraphName], ox_terms: bool = False
) -> Select:
    """The executor of ``store`` with the graphs ``default_graph`` as the data graph;
    its solutions hold rdflib's terms, or with ``ox_terms`` pyoxigraph's own."""
    graphs: list[GraphName] = list(default_graph)
    convert: Callable[[OxTerm], Term] = _same
    if not ox_terms:
        from ..terms import from_ox as convert

    def select(text: str) -> Iterator[dict[str, Term | None]]:
        try:
            solutions = store.query(text, default_graph=graphs)
            assert isinstance(solutions, ox.QuerySolutions)
            names = [v.value for v in solutions.variables]
            for solution in solutions:
                yield {n: convert(t) for n in names if (t := solution[n]) is not None}
        except SyntaxError as exc:
            raise ValidationError(f"bad SPARQL: {exc}") from None
        except RuntimeError as exc:  # pyoxigraph's evaluation error (an unknown function)
            raise ValidationError(f"the query failed: {exc}") from None

    return select


def run_compiled(
    select: Select,
    compiled: Sequence[CompiledConstraint],
    workers: int = 1,
    blank_text: BlankText | None = None,
) -> list[ResultRow]:
    """Run ``compiled`` with ``select``; the distinct results, in the order of the
    constraints. With ``workers`` > 1 the queries run on that many threads at once: only
    for a ``select`` that may be called from several threads (a pyoxigraph store's is:
    it releases the GIL while it evaluates). ``blank_text`` writes a (pyoxigraph) blank
    node a message template names (default: its label in the store); called from those
    threads, and only for such a message."""
    if workers <= 1 or len(compiled) <= 1:
        return [row for c in track(compiled, "checking") for row in _results(select, c, blank_text)]
    return [row for rows in _in_threads(select, compiled, workers, blank_text) for row in rows]


def _in_threads(
    select: Select,
    compiled: Sequence[CompiledConstraint],
    workers: int,
    blank_text: BlankText | None = None,
) -> Iterator[list[ResultRow]]:
    """The results of each constraint, in order, its query run by one of ``workers``
    daemon threads. Daemon threads, not a ThreadPoolExecutor: the executor's threads
    are joined at exit, so a validation given up on at its --timeout (guards.bounded)
    would keep the process alive until its query ends. Once the caller stops (an error,
    or a query that failed), the threads take no new query. An error is handed over with
    the locals of its frames dropped (``guards.clear_frames``): pyoxigraph refuses to
    drop a query's solutions on another thread than the one that made them."""
    # SPARQL constraints first, the longest text first: written by hand, they tend to be
    # the costliest queries, and a costly one started last would keep one thread busy
    # after the others have finished. (Rule 9's, its focus nodes those of 29 predicates,
    # is the longest and half the queries' CPU at 10,000 entries: started first, the
    # queries' wall time on two threads went 0.44-0.46 -> 0.39-0.41 s.)
    order = iter(
        sorted(
            range(len(compiled)),
            key=lambda i: (compiled[i].source_constraint is None, -len(compiled[i].sparql)),
        )
    )
    outcomes: list[list[ResultRow] | BaseException | None] = [None] * len(compiled)
    done = [threading.Event() for _ in compiled]
    lock, stop = threading.Lock(), threading.Event()

    def work() -> None:
        while not stop.is_set():
            with lock:
                index = next(order, None)
            if index is None:
                return
            try:
                outcomes[index] = _results(select, compiled[index], blank_text)
            except BaseException as exc:  # handed to the caller, in constraint order
                clear_frames(exc)  # (its frames' query solutions released in their thread)
                outcomes[index] = exc
            done[index].set()

    for _ in range(workers):
        threading.Thread(target=work, name="anthology-kg checking", daemon=True).start()
    try:
        for index in track(range(len(compiled)), "checking"):
            done[index].wait()
            outcome = outcomes[index]
            if isinstance(outcome, BaseException):
                raise outcome
            assert outcome is not None
            yield outcome
    finally:
        stop.set()


def _results(
    select: Select, constraint: CompiledConstraint, blank_text: BlankText | None = None
) -> list[ResultRow]:
    """The distinct results of one compiled constraint (``blank_text``: ``run_compiled``'s)."""
    rows: list[ResultRow] = []
    seen: set[frozenset[tuple[str, Term]]] = set()
    # Only a SPARQL-based constraint's message is a template (SHACL 5.3.2, 6.2.2).
    templated = constraint.source_constraint is not None and any(
        TEMPLATE_PLACEHOLDER.search(text(m)) for m in constraint.messages
    )
    # sh:sourceConstraint is a SPARQL-based constraint's (SHACL 5.3.2, the 2017 change
    # log: "Limited sh:sourceConstraint to SPARQL-based constraints"). 3.6.2 makes it a
    # "may" and forbids none: a validator is given none by choice, as pySHACL gives none,
    # so that the report graphs are one.
    source = constraint.source_constraint
    if text(constraint.component) != text(SPARQL_CONSTRAINT.iri):
        source = None
    try:
        for solution in select(constraint.sparql):
            focus = solution.get("this")
            if focus is None:
                continue
            value = solution.get("value")
            if value is None and constraint.value_is_focus:
                value = focus
            key = frozenset((k, v) for k, v in solution.items() if v is not None)
            if key in seen:
                continue
            seen.add(key)
            path = solution.get("path") or constraint.path
            messages = constraint.messages
            if templated:
                # {?path} only where the solution binds it: SHACL 5.3.2 fills in the
                # SELECT's result variables (and a component's parameters), and an ASK
                # validator's solution binds only $this and $value (6.3); not the shape's
                # path, which the result's sh:resultPath gives all the same.
                bound = {**dict(constraint.message_terms), **solution}
                bound.update(this=focus, value=value)
                messages = tuple(_filled(m, bound, blank_text) for m in messages)
            rows.append(
                ResultRow(
                    focus=focus,
                    path=path,
                    value=value,
                    source_shape=constraint.shape,
                    source_constraint_component=constraint.component,
                    severity=constraint.severity,
                    messages=messages,
                    source_constraint=source,
                )
            )
    except ValidationError as exc:
        raise ValidationError(f"compiled shape {constraint.shape}: {exc.message}") from None
    return rows


def _filled(
    message: Term, bound: Mapping[str, Term | None], blank_text: BlankText | None = None
) -> Term:
    """A SPARQL-based constraint's message with each placeholder ({$name}, {?name}) of
    a bound variable or parameter replaced by its text: a literal's lexical form, an
    IRI, a blank node's label (``blank_text``'s for a pyoxigraph one, if given), as the
    reference engine (pySHACL) writes them. Its language tag or datatype is kept; a
    placeholder of nothing bound stays as written."""

    def value(match: re.Match[str]) -> str:
        term = bound.get(match[1])
        if term is None:
            return match[0]
        if blank_text is not None and isinstance(term, ox.BlankNode):
            return blank_text(term)
        return text(term)

    filled = TEMPLATE_PLACEHOLDER.sub(value, text(message))
    if isinstance(message, ox.Literal):
        if message.language:
            return ox.Literal(filled, language=message.language)
        return ox.Literal(filled, datatype=message.datatype)
    from rdflib import Literal

    assert isinstance(message, Literal)
    return Literal(
        filled, lang=message.language, datatype=None if message.language else message.datatype
    )


def validate_store(
    store: ox.Store,
    shapes: Graph | ShapesGraph,
    default_graph: Sequence[GraphName],
    shapes_graph: str | None = None,
) -> list[ResultRow]:
    """Validate the data graph(s) ``default_graph`` of ``store`` against the shapes
    graph ``shapes`` (also in the store as ``shapes_graph``, for $shapesGraph): rows on
    rdflib's terms for rdflib's shapes graph, on pyoxigraph's for a ``ShapesGraph``."""
    select = store_select(store, default_graph, isinstance(shapes, ShapesGraph))
    compiled = Compiler.for_store(shapes, shapes_graph, select).compile()
    return run_compiled(select, compiled, STORE_WORKERS)
