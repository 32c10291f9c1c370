"""Stored SPARQL queries: the catalog, safe parameters, and running a query.

A stored query is a ``.rq`` file whose first lines are a grlc header of
``#+ key: value`` lines (``summary``, ``description``, ``tags``, ``defaults``,
``enumerate``, read as grlc reads them: YAML), with this tool's ``param: name — meaning``
and ``param-type: name entry|iri|literal``. A parameter is also every grlc variable of
the query (``?_name``, ``?_name_iri``; ``?__name`` is optional), so that grlc exposes
it. Parameters are bound as RDF terms (initial bindings, or a ``VALUES`` block): a
value is never pasted into the query text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rdflib
from rdflib import Graph, Literal, URIRef, Variable
from rdflib.term import Identifier, Node

from .config import did_you_mean
from .errors import AnthologyError
from .guards import refuse_service, service_timeout
from .namespaces import prefixed_like
from .sources import listed_name, read_text
from .sparql_text import code_characters
from .sparql_text import with_values as with_values
from .terms import is_iri

if TYPE_CHECKING:
    import pyoxigraph as ox
    from rdflib.plugins.sparql.sparql import Query
    from rdflib.query import Result

    from .engine import Engine
    from .parts import OxTerm

PARAM_TYPES = ("entry", "iri", "literal")
_HEADER = re.compile(r"^#\+\s*([\w-]+)\s*:\s*(.*)$")
_PARAM = re.compile(r"^([A-Za-z_]\w*)\s*(?:—|--|-|:)?\s*(.*)$")
_SELECT_STAR = re.compile(r"\bSELECT\s+(?:DISTINCT\s+|REDUCED\s+)?\*", re.IGNORECASE)
# grlc's parameter variables: ?_name (required), ?__name (optional), with an optional
# _iri / _literal / _number / _integer suffix (grlc's documented convention).
_GRLC_VARIABLE = re.compile(
    r"\?(?P<optional>__?)(?P<name>[A-Za-z0-9]+)(?:_(?P<type>iri|literal|number|integer))?\b"
)


@dataclass(frozen=True)
class Param:
    """A parameter of a stored query: bound to the query variable of the same name, or
    to grlc's ``?_name`` / ``?_name_iri`` variable (``variable``, without the ``?``)."""

    name: str
    meaning: str
    type: str = "literal"
    variable: str = ""
    #: grlc's ``#+ defaults``: the value used when none is given.
    default: str | None = None
    #: grlc's ``#+ enumerate`` with values: the only values accepted.
    choices: tuple[str, ...] = ()
    required: bool = True

    @property
    def bound_to(self) -> str:
        return self.variable or self.name


@dataclass(frozen=True)
class StoredQuery:
    """A ``.rq`` file of the catalog."""

    name: str
    path: Path
    summary: str
    description: str
    params: tuple[Param, ...]
    text: str
    tags: tuple[str, ...] = ()


@dataclass
class QueryResult:
    """A SPARQL answer: rows of a SELECT, the boolean of an ASK, or a graph."""

    kind: str  # "select", "ask" or "graph"
    variables: list[str] = field(default_factory=list)
    rows: list[tuple[Node | None, ...]] = field(default_factory=list)
    boolean: bool | None = None
    graph: Graph | None = None


def in_select_star_order(result: QueryResult, text: str) -> QueryResult:
    """``result`` with the columns of a ``SELECT *`` in the order its variables are first
    used in ``text``, as the W3C's result-format tests list them, on both engines:
    pyoxigraph sorts them by name, rdflib gives a set's order."""
    if result.kind != "select" or not _SELECT_STAR.search(text):
        return result
    names = result.variables
    order = sorted(range(len(names)), key=lambda i: _first_use(text, names[i]))
    if order == list(range(len(names))):
        return result
    rows = [tuple(row[i] for i in order) for row in result.rows]
    return QueryResult(kind="select", variables=[names[i] for i in order], rows=rows)


def _first_use(text: str, variable: str) -> tuple[int, str]:
    match = re.search(rf"[?$]{re.escape(variable)}\b", text)
    return (match.start() if match else len(text), variable)


def rows_from_ox(answered: Iterable[Iterable[OxTerm | None]]) -> list[tuple[Node | None, ...]]:
    """Rows of pyoxigraph terms (None where unbound) as rows of rdflib terms
    (``terms.from_ox``), equal term for equal term. Each distinct term is converted once:
    an answer repeats its terms (an entry on each row of its values), and an rdflib
    literal costs a dozen times a dictionary lookup."""
    from .terms import from_ox

    rows = [tuple(row) for row in answered]
    converted: dict[OxTerm | None, Node | None] = {
        term: from_ox(term) for term in set().union(*rows) if term is not None
    }
    converted[None] = None
    get = converted.__getitem__
    return [tuple(map(get, row)) for row in rows]


def graph_from_ox(triples: Iterable[ox.Triple]) -> Graph:
    """An rdflib graph of pyoxigraph triples (a CONSTRUCT's answer, from the store or a
    remote one), each term as ``terms.from_ox`` gives it."""
    from .terms import from_ox

    graph = Graph()
    for triple in triples:
        graph.add((from_ox(triple.subject), from_ox(triple.predicate), from_ox(triple.object)))
    return graph


def read_query(path: Path) -> StoredQuery:
    """Read a stored query and its header; a malformed header is an AnthologyError."""
    text = read_text(path)  # a non-file, unreadable or non-UTF-8 .rq: file:line, exit 2
    meta: dict[str, str] = {}
    params: list[tuple[str, str]] = []
    types: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("#"):
            break
        match = _HEADER.match(line)
        if not match:
            continue
        key, value = match.group(1).lower(), match.group(2).strip()
        if key == "param":
            param = _PARAM.match(value)
            if not param:
                raise AnthologyError(f"bad param line: {value!r}", path, number)
            params.append((param.group(1), param.group(2)))
        elif key == "param-type":
            name, _, kind = value.partition(" ")
            if kind.strip() not in PARAM_TYPES:
                raise AnthologyError(
                    f"param-type of {name!r} must be one of {', '.join(PARAM_TYPES)}", path, number
                )
            types[name] = kind.strip()
        else:
            meta[key] = value
    if "summary" not in meta:
        raise AnthologyError("the header has no '#+ summary:' line", path, 1)
    decorators = _grlc_decorators(text)
    meanings = dict(params)
    declared: dict[str, Param] = {}
    for match in _GRLC_VARIABLE.finditer(_body(text)):
        name = match.group("name")
        kind = types.get(name) or ("iri" if match.group("type") == "iri" else "literal")
        declared.setdefault(
            name,
            Param(
                name,
                meanings.get(name, ""),
                kind,
                variable=match.group(0)[1:],
                required=match.group("optional") == "_",
            ),
        )
    for name, meaning in params:
        declared.setdefault(name, Param(name, meaning, types.get(name, "literal")))
    defaults = _named_values(decorators.get("defaults"))
    enumerated = _named_values(decorators.get("enumerate"))
    tags = decorators.get("tags") or ()
    return StoredQuery(
        name=path.stem,
        path=path,
        summary=str(decorators.get("summary") or meta["summary"]),
        description=str(decorators.get("description") or meta.get("description", "")),
        params=tuple(
            replace(
                p,
                default=str(defaults[p.name]) if p.name in defaults else None,
                choices=tuple(str(v) for v in enumerated.get(p.name) or ()),
            )
            for p in declared.values()
        ),
        text=text,
        tags=tuple(str(t) for t in ([tags] if isinstance(tags, str) else tags)),
    )


def _body(text: str) -> str:
    """The query without its comment lines, where grlc looks for parameter variables."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _grlc_decorators(text: str) -> dict[str, Any]:
    """The ``#+`` lines read as grlc reads them: the marker stripped, the rest YAML.
    A header that is not YAML gives nothing here (the line reader still reads it)."""
    # Any: a YAML value may be anything, and read_query takes each as grlc does (str()
    # of a value, iterating a list) without checking its shape first.
    import yaml

    source = "\n".join(line[2:] for line in text.splitlines() if line.startswith("#+"))
    # libyaml's safe loader where PyYAML has it (its wheels do): the same documents read
    # ~6x faster than by the pure-Python one (the bundled catalog: 3.3 -> 0.55 ms).
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        found = yaml.load(source, Loader=loader)  # (both loaders are the safe one)
    except yaml.YAMLError:
        return {}
    return found if isinstance(found, dict) else {}


def _named_values(value: object) -> dict[str, Any]:
    """grlc's ``defaults``/``enumerate``: a list of one-key mappings (``- entry: X``)
    or a mapping; bare names (enumerate from the endpoint) carry no values."""
    found: dict[str, Any] = {}  # (YAML values, as in _grlc_decorators)
    for item in value if isinstance(value, list) else [value] if value else []:
        if isinstance(item, dict):
            found.update(item)
    return found


def catalog(anthology: Engine) -> dict[str, StoredQuery]:
    """The stored queries by name; a query of the anthology's own replaces a bundled one."""
    queries: dict[str, StoredQuery] = {}
    for folder in anthology.query_dirs:
        for path in sorted(p for p in folder.glob("*.rq") if listed_name(p.name, ".rq")):
            queries[path.stem] = read_query(path)
    return dict(sorted(queries.items()))


def find_query(anthology: Engine, name: str) -> StoredQuery:
    """The stored query ``name``, or an AnthologyError listing the known names."""
    queries = catalog(anthology)
    if name not in queries:
        raise AnthologyError(
            f"no stored query {name!r}{did_you_mean(name, queries)}; known: {', '.join(queries)}"
        )
    return queries[name]


def bind_params(anthology: Engine, query: StoredQuery, values: dict[str, str]) -> dict[str, Node]:
    """Turn ``name=value`` strings into RDF terms of each parameter's type.

    An unknown parameter, a missing one, an entry the anthology lacks or a value
    invalid for its type is an AnthologyError that names the parameter.
    """
    declared = {p.name: p for p in query.params}
    for name in values:
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise AnthologyError(f"query {query.name!r} has no parameter {name!r} (known: {known})")
    bound: dict[str, Node] = {}
    for param in query.params:
        raw = values.get(param.name, param.default)
        if raw is None:
            if not param.required:
                continue
            raise AnthologyError(f"query {query.name!r} needs --param {param.name}=VALUE")
        if param.choices and raw not in param.choices:
            raise AnthologyError(
                f"parameter {param.name!r}: {raw!r} is not one of {', '.join(param.choices)}"
            )
        if param.type == "entry":
            try:
                bound[param.bound_to] = anthology.resolve_entry(raw)
            except AnthologyError as exc:
                raise AnthologyError(f"parameter {param.name!r}: {exc.message}") from None
        elif param.type == "iri":
            if "://" not in raw and not raw.startswith("urn:") or not is_iri(raw):
                raise AnthologyError(f"parameter {param.name!r}: {raw!r} is not an absolute IRI")
            bound[param.bound_to] = URIRef(raw)
        else:
            bound[param.bound_to] = Literal(raw)
    return bound


def parse_param_options(options: tuple[str, ...]) -> dict[str, str]:
    """``("entry=LIT-168",)`` to ``{"entry": "LIT-168"}``; a value may contain ``=``."""
    values: dict[str, str] = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not sep or not name:
            raise AnthologyError(f"--param {option!r}: expected NAME=VALUE")
        if name in values:
            raise AnthologyError(f"--param {name!r} given twice")
        try:
            value.encode("utf-8")  # bytes that were not UTF-8 arrive as lone surrogates
        except UnicodeEncodeError:
            raise AnthologyError(f"--param {name}: the value is not UTF-8 text") from None
        values[name] = value
    return values


@functools.lru_cache(maxsize=512)
def _prepared(text: str, normalize_literals: bool) -> Query:
    """``text`` parsed and translated by rdflib, once per process and literal setting:
    parsing is most of the time a query takes on a small graph, and a translated query
    holds neither graph nor bindings (rdflib's prepareQuery is made for reuse)."""
    # rdflib's SPARQL parser takes a tenth of a second to import: not on every command's path.
    from rdflib.plugins.sparql import prepareQuery

    return prepareQuery(text)


def prepare(text: str, source: str | Path | None = None) -> Query:
    """``text`` as rdflib's prepared query; a syntax error is an AnthologyError."""
    from pyparsing import ParseException

    try:
        return _prepared(text, bool(rdflib.NORMALIZE_LITERALS))
    except ParseException as exc:  # where, as the fast engine says it (sources.sparql_error)
        message = f"SPARQL syntax error at column {exc.col}: {exc.msg}"
        raise AnthologyError(message, source, exc.lineno) from None
    except Exception as exc:
        raise AnthologyError(f"SPARQL syntax error: {_first_line(exc)}", source) from None


def query_kind(text: str, source: str | Path | None = None) -> str:
    """``select``, ``ask`` or ``graph`` (CONSTRUCT, DESCRIBE); a syntax error is an
    AnthologyError."""
    return _kind(prepare(_escaped_backslashes_blanked(text), source))


def _escaped_backslashes_blanked(text: str) -> str:
    """``text`` with each escaped backslash in a string or comment read as two spaces
    (the same length, so an error's position holds); the query's form is the same."""
    # rdflib expands every \u and \U escape before parsing (SPARQL 1.1, section 19.2),
    # also one after an escaped backslash, so the string "\\u0041" (the text \u0041,
    # as with_values writes it and Oxigraph reads it) became "\A", a syntax error. A
    # backslash outside strings and comments stays, for rdflib to refuse.
    if "\\\\" not in text:
        return text
    code = {offset for offset, _ in code_characters(text)}
    characters = list(text)
    at = text.find("\\\\")
    while at != -1:  # left to right, paired as a string's escapes are
        if at in code:
            at = text.find("\\\\", at + 1)
        else:
            characters[at : at + 2] = "  "
            at = text.find("\\\\", at + 2)
    return "".join(characters)


def _kind(prepared: Query) -> str:
    name = prepared.algebra.name
    return {"SelectQuery": "select", "AskQuery": "ask"}.get(name, "graph")


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def run_local(
    anthology: Engine,
    text: str,
    bindings: Mapping[str, Node] | None = None,
    source: str | Path | None = None,
    *,
    allow_service: bool = False,
) -> QueryResult:
    """Run ``text`` on the anthology's data, ontology and shapes, with its engine. A
    query calling a remote endpoint (SERVICE) is an AnthologyError unless
    ``allow_service``: a local query reaches the network only when the user asks."""
    with service_timeout(refuse_service(text, source, allow_service)):
        return anthology.query(text, bindings, source)


def evaluate(
    graph: Graph,
    text: str,
    bindings: Mapping[str, Node] | None = None,
    source: str | Path | None = None,
) -> QueryResult:
    """Run ``text`` on ``graph`` with rdflib and return its answer.

    ``bindings`` go in as rdflib's initBindings: rdflib mis-evaluates a VALUES block
    followed by an OPTIONAL that binds the same variable, initBindings it gets right.
    """
    prepared = prepare(text, source)
    kind = _kind(prepared)
    terms: dict[str, Identifier] = {}
    for name, node in (bindings or {}).items():
        if not isinstance(node, Identifier):
            raise TypeError(f"binding ?{name} is not an RDF term: {node!r}")
        terms[name] = node
    try:
        result = graph.query(prepared, initBindings=terms)
        # rdflib evaluates as the answer is read: its errors come from reading it too
        # (re.error of a REGEX, a SUM of words, a GRAPH pattern on a single graph).
        return _answer(result, kind, text, graph)
    except AnthologyError:
        raise
    except Exception as exc:
        raise AnthologyError(f"query failed: {_first_line(exc)}", source) from None


def _answer(result: Result, kind: str, text: str, graph: Graph) -> QueryResult:
    """rdflib's ``result`` of the query ``text`` (of ``kind``) read into a QueryResult."""
    if kind == "ask":
        return QueryResult(kind="ask", boolean=bool(result.askAnswer))
    if kind == "graph":
        # The queried graph's prefixes, in a namespace manager of its own: shared, a
        # prefix rdflib's serializer makes up for the answer (ns1) joined the anthology's
        # graph, and every later answer of the process.
        out = prefixed_like(graph)
        for triple in result.graph or ():
            out.add(triple)
        return QueryResult(kind="graph", graph=out)
    variables = [str(v) for v in result.vars or ()]
    # Read through the property's getter: an AttributeError within rdflib's evaluation
    # (a SUM over IRIs: "'URIRef' object has no attribute 'datatype'") would otherwise
    # come out of Result.__getattr__ as "... has no attribute 'bindings'".
    bindings = type(result).bindings.fget(result)  # type: ignore[attr-defined]
    rows: list[tuple[Node | None, ...]] = [
        tuple(row.get(Variable(v)) for v in variables) for row in bindings
    ]
    # rdflib gives SELECT *'s variables in a set's order
    return in_select_star_order(QueryResult(kind="select", variables=variables, rows=rows), text)
