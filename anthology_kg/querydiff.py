"""A stored query's answer in two states of an anthology: the rows that appeared and
the rows that disappeared.

``diff_query(old, new, name)`` runs the stored query NAME on each state (each state's
own ``queries/`` first, as the catalog reads them) with the engine ``open_engine``
picks (Oxigraph), and compares the two answers as multisets of rows of RDF terms: a
row that is in NEW more often than in OLD appeared. Two IRIs, or two literals, are the
same when they are the same term (an IRI and a string of the same text are not; an entry
that lost its identifier is still its IRI); a blank node, whose label is the store's
own, is compared by what it shows (``[] of ENTRY``). Row order is not compared (a query
that says ORDER BY sorts both answers alike).

The rows are shown in the words a reviewer reads (entries by identifier, other IRIs as
prefixed names, a blank node as ``[] of ENTRY``), except where a row that appeared and
one that disappeared would read alike: their cells that hold other terms are shown as
Turtle terms (``id:SOTA-154`` and ``"SOTA-154"``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox
from rdflib.namespace import XSD
from rdflib.term import Node

from .engine import open_engine
from .errors import AnthologyError
from .guards import bounded
from .kinds import is_blank, is_literal, text
from .layout import printable
from .local_query import run_local
from .namespaces import DEFAULT_BASE
from .queries import bind_params, find_query
from .revisions import State, materialized
from .validation import literal_shown, short

Row = tuple[str, ...]
#: A term as rows are compared: ("iri", IRI), ("literal", lexical form, datatype IRI,
#: language tag), ("blank", its words), or () where the variable is unbound.
TermKey = tuple[str, ...]
Key = tuple[TermKey, ...]


@dataclass(frozen=True)
class Answer:
    """A query's answer: its columns, and its rows in the order the query gives, each as
    its terms' keys (compared), its words (shown) and its terms in Turtle (shown where
    words alone would hide a change)."""

    variables: list[str]
    keys: list[Key]
    rows: list[Row]
    turtle: list[Row]


@dataclass(frozen=True)
class QueryDiff:
    """The rows of stored query ``name`` that appeared and disappeared from OLD to NEW."""

    name: str
    old: str
    new: str
    variables: list[str]
    appeared: list[Row]
    disappeared: list[Row]

    @property
    def equal(self) -> bool:
        return not self.appeared and not self.disappeared


def answer(
    folder: Path,
    name: str,
    params: dict[str, str],
    base: str = DEFAULT_BASE,
    *,
    allow_service: bool = False,
) -> Answer:
    """Run stored query ``name`` on the anthology in ``folder`` (SELECT or ASK); one
    calling a remote endpoint (SERVICE) is refused unless ``allow_service``."""
    anthology = open_engine(root=folder, base=base)
    stored = find_query(anthology, name)
    bindings = bind_params(anthology, stored, params)
    result = run_local(anthology, stored.text, bindings, stored.path, allow_service=allow_service)
    if result.kind == "ask":
        word = "yes" if result.boolean else "no"
        return Answer(["answer"], [(("boolean", word),)], [(word,)], [(word,)])
    if result.kind != "select":
        raise AnthologyError(
            f"query {name!r} gives a graph: diff --query compares rows", stored.path
        )

    def words(node: Node | None) -> str:
        # One line, control characters escaped, as the query table shows data
        # (layout.printable): a row of the diff cannot restyle a terminal or a CI log.
        return printable(short(anthology, node) or "")

    def key(node: Node | None) -> TermKey:
        if node is None:
            return ()
        if is_blank(node):
            return ("blank", words(node))
        if is_literal(node):
            datatype = getattr(node, "datatype", None)
            language = getattr(node, "language", None) or ""
            return ("literal", text(node), str(datatype) if datatype else "", language)
        return ("iri", text(node))

    def turtle(node: Node | None) -> str:
        if node is None or is_blank(node):
            return words(node)
        if is_literal(node):
            # literal_shown leaves bare a string that reads as no other term: here it is
            # read beside one (an entry's identifier), so a string is always quoted.
            shown = literal_shown(anthology, node)
            if shown is None and getattr(node, "datatype", None) in (None, XSD.string):
                shown = str(ox.Literal(text(node)))
            return printable(shown or text(node))
        return printable(anthology.normalize(text(node)))

    rows = result.rows
    return Answer(
        list(result.variables),
        [tuple(key(n) for n in row) for row in rows],
        [tuple(words(n) for n in row) for row in rows],
        [tuple(turtle(n) for n in row) for row in rows],
    )


def _state_answer(
    state: State,
    name: str,
    params: dict[str, str],
    base: str,
    allow_service: bool,
    timeout: float | None,
) -> Answer:
    """``answer`` in ``state`` within ``timeout`` seconds (TimedOut); an error that names
    no file (no such query, no such entry for a parameter, the time-out) names the state,
    as the other state may well have them."""
    with materialized(state) as folder:
        try:
            # In a worker thread, waited for in short slices: the time limit, Ctrl-C and
            # SIGTERM are seen while pyoxigraph runs the query (never on this thread).
            return bounded(
                lambda: answer(folder, name, params, base, allow_service=allow_service),
                timeout,
                f"query {name}",
            )
        except AnthologyError as exc:
            if exc.path is not None:
                raise
            raise AnthologyError(exc.message, state.name) from None


def diff_query(
    old: State,
    new: State,
    name: str,
    params: dict[str, str] | None = None,
    base: str = DEFAULT_BASE,
    *,
    allow_service: bool = False,
    timeout: float | None = None,
) -> QueryDiff:
    """Stored query ``name`` run on both states, compared by rows (see the module); a
    state whose query calls a remote endpoint (SERVICE) is refused unless
    ``allow_service``, and one whose answer takes more than ``timeout`` seconds (None or
    0: no limit) is an AnthologyError naming the state.

    >>> import shutil, tempfile
    >>> from pathlib import Path
    >>> from anthology_kg import read_folder
    >>> from anthology_kg.resources import bundled_dir
    >>> folder = Path(tempfile.mkdtemp())  # the bundled data, LIT-168 marked unread
    >>> _ = shutil.copytree(bundled_dir() / "data", folder / "data")
    >>> lit = folder / "data" / "LIT-168.ttl"
    >>> text = lit.read_text().replace("Count 4 .", "Count 4 ; ak:readingStatus ak:unread .")
    >>> _ = lit.write_text(text)
    >>> diff = diff_query(read_folder(bundled_dir()), read_folder(folder), "unread")
    >>> diff.variables, diff.appeared, diff.disappeared
    (['entry', 'class', 'category', 'title'], [('LIT-168', 'ak:LiteratureRecord', '', '')], [])
    >>> shutil.rmtree(folder)
    """
    before = _state_answer(old, name, params or {}, base, allow_service, timeout)
    after = _state_answer(new, name, params or {}, base, allow_service, timeout)
    # The query itself may differ between the states: rows are compared by column name,
    # NEW's columns first, a column one state lacks left empty.
    variables = after.variables + [v for v in before.variables if v not in after.variables]
    old_rows, new_rows = _aligned(before, variables), _aligned(after, variables)
    old_keys = Counter(key for key, _, _ in old_rows)
    new_keys = Counter(key for key, _, _ in new_rows)
    appeared = _in_order(new_rows, new_keys - old_keys)
    disappeared = _in_order(old_rows, old_keys - new_keys)
    return QueryDiff(
        name=name,
        old=old.name,
        new=new.name,
        variables=variables,
        appeared=_told_apart(appeared, disappeared),
        disappeared=_told_apart(disappeared, appeared),
    )


_Compared = tuple[Key, Row, Row]  # a row's keys, words and Turtle terms


def _aligned(result: Answer, variables: list[str]) -> list[_Compared]:
    """The rows of ``result`` with the columns ``variables`` (one it lacks: unbound)."""
    at = [result.variables.index(v) if v in result.variables else None for v in variables]

    def pick(row: tuple, empty: object) -> tuple:
        return tuple(row[i] if i is not None else empty for i in at)

    return [
        (pick(key, ()), pick(words, ""), pick(turtle, ""))
        for key, words, turtle in zip(result.keys, result.rows, result.turtle, strict=True)
    ]


def _in_order(rows: list[_Compared], wanted: Counter) -> list[_Compared]:
    """The rows of ``wanted`` (a multiset of keys), in the order of their answer."""
    left = Counter(wanted)
    out = []
    for row in rows:
        if left[row[0]] > 0:
            left[row[0]] -= 1
            out.append(row)
    return out


def _told_apart(rows: list[_Compared], others: list[_Compared]) -> list[Row]:
    """The words of ``rows``; a cell whose words are those of a row of ``others`` that
    reads alike but holds another term there, as its Turtle term instead."""
    alike: dict[Row, list[Key]] = defaultdict(list)
    for key, words, _ in others:
        alike[words].append(key)
    out = []
    for key, words, turtle in rows:
        differ = {i for other in alike.get(words, ()) for i, k in enumerate(other) if k != key[i]}
        out.append(tuple(turtle[i] if i in differ else w for i, w in enumerate(words)))
    return out
