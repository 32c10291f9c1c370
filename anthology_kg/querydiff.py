"""A stored query's answer in two states of an anthology: the rows that appeared and
the rows that disappeared.

``diff_query(old, new, name)`` runs the stored query NAME on each state (each state's
own ``queries/`` first, as the catalog reads them) with the engine ``open_engine``
picks (Oxigraph), turns every row
into the words a reviewer reads (entries by identifier, other IRIs as prefixed names, a
blank node as ``[] of ENTRY``), and compares the two answers as multisets of rows: a
row that is in NEW more often than in OLD appeared. Row order is not compared (a query
that says ORDER BY sorts both answers alike).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rdflib.term import Node

from .engine import open_engine
from .errors import AnthologyError
from .guards import bounded
from .layout import printable
from .local_query import run_local
from .namespaces import DEFAULT_BASE
from .queries import bind_params, find_query
from .revisions import State, materialized
from .validation import short

Row = tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    """A query's answer in words: its columns and its rows, in the order the query gives."""

    variables: list[str]
    rows: list[Row]


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
        return Answer(["answer"], [("yes" if result.boolean else "no",)])
    if result.kind != "select":
        raise AnthologyError(
            f"query {name!r} gives a graph: diff --query compares rows", stored.path
        )

    def words(node: Node | None) -> str:
        # One line, control characters escaped, as the query table shows data
        # (layout.printable): a row of the diff cannot restyle a terminal or a CI log.
        return printable(short(anthology, node) or "")

    return Answer(list(result.variables), [tuple(words(n) for n in row) for row in result.rows])


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

    def aligned(result: Answer) -> list[Row]:
        at = {v: i for i, v in enumerate(result.variables)}
        return [tuple(row[at[v]] if v in at else "" for v in variables) for row in result.rows]

    old_rows, new_rows = aligned(before), aligned(after)
    appeared = Counter(new_rows) - Counter(old_rows)
    disappeared = Counter(old_rows) - Counter(new_rows)
    return QueryDiff(
        name=name,
        old=old.name,
        new=new.name,
        variables=variables,
        appeared=_in_order(new_rows, appeared),
        disappeared=_in_order(old_rows, disappeared),
    )


def _in_order(rows: list[Row], wanted: Counter) -> list[Row]:
    """The rows of ``wanted`` (a multiset), in the order of the answer they come from."""
    left = Counter(wanted)
    out = []
    for row in rows:
        if left[row] > 0:
            left[row] -= 1
            out.append(row)
    return out
