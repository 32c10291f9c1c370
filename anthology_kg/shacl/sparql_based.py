"""SHACL 5 SPARQL-based constraints (sh:sparql) and SHACL 6 SPARQL-based constraint
components (sh:parameter with sh:validator, sh:nodeValidator, sh:propertyValidator).

A SELECT constraint or validator becomes a whole query whose solutions are the results:
``$PATH`` is replaced by the shape's path, ``$this`` is bound to the focus nodes and
``$currentShape``, ``$shapesGraph`` and the parameters to their values by joining (see
``sparql_rewrite.prebind``). An ASK validator is a test per value node, so it also works
inside sh:node, sh:or and the other shape-based components.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import pyoxigraph as ox

from ..prefixes import NAME_CHARS, NAME_START_CHARS
from ..sparql_text import has_keyword, iris_written_out, prologue_base, query_form
from .errors import Unsupported
from .graph import ShapesGraph as Graph
from .model import Component, Constraint, Context, Out
from .paths import path_text
from .sparql_rewrite import (
    binds_at_top,
    prebind,
    rename,
    subquery_projections,
    term,
    variables,
    where_group,
)
from .vocabulary import OWL, SH, TRUE, XSD, text
from .vocabulary import Term as Node

# sh:sparql: each value is a SPARQL constraint (its own node), compiled by the compiler's
# compile_shape, so the component has no translation of its own here.
SPARQL_CONSTRAINT = Component(SH.SPARQLConstraintComponent, (SH.sparql,))
_FORBIDDEN = ("MINUS", "SERVICE", "VALUES")


@dataclass(frozen=True)
class Validator:
    """A SPARQL validator: its query text, whether it is an ASK, and its messages."""

    node: Node
    text: str
    ask: bool
    messages: tuple[Node, ...]


@dataclass(frozen=True)
class Validators:
    """The validators of one SPARQL-based component, for node and property shapes."""

    node: Validator | None
    property: Validator | None


def declarations(g: Graph, holder: Node) -> list[tuple[Node, Node, Node | None, Node | None]]:
    """Each sh:declare reached from the ``sh:prefixes`` of ``holder`` (those of each
    named node and of the ontologies it imports, owl:imports, within the shapes graph):
    the node declaring it, the declaration, its sh:prefix and its sh:namespace (None
    where missing)."""
    seen: set[Node] = set()
    todo = list(g.objects(holder, SH.prefixes))
    found = []
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        todo += list(g.objects(node, OWL.imports))
        for declaration in g.objects(node, SH.declare):
            prefix, namespace = g.value(declaration, SH.prefix), g.value(declaration, SH.namespace)
            found.append((node, declaration, prefix, namespace))
    return found


#: The same of ASCII characters only, what prefixes mostly are: checked without compiling
#: ``_pn_prefix``'s Unicode classes (~6 ms, on every command that reads the shapes).
_ASCII_PN_PREFIX = re.compile(r"(?:[A-Za-z](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?)?")


@functools.cache
def _pn_prefix() -> re.Pattern[str]:
    """SPARQL 1.1's PN_PREFIX (grammar rules 164-168), or none: PNAME_NS is
    ``PN_PREFIX? ":"``, and the empty prefix (``PREFIX : <…>``) is one too."""
    return re.compile(f"(?:[{NAME_START_CHARS}](?:[{NAME_CHARS}.]*[{NAME_CHARS}])?)?")


def declaration_problem(prefix: Node, namespace: Node) -> tuple[ox.NamedNode, str] | None:
    """What makes an sh:declare unfit to become ``PREFIX prefix: <namespace>`` (SHACL
    5.2.1), as the property at fault and a few words: a prefix that is not a SPARQL
    prefix name, or a namespace that is not an IRI (its text would be pasted into every
    query naming it), or either given as other than a literal of its datatype; None
    when fit."""
    not_literal = "not a literal (SHACL 5.2.1 gives prefix and namespace as literals)"
    if not isinstance(prefix, ox.Literal):
        return SH.prefix, not_literal
    if not isinstance(namespace, ox.Literal):
        return SH.namespace, not_literal
    if prefix.datatype != XSD.string:
        return SH.prefix, "not a literal of xsd:string (SHACL 5.2.1)"
    if namespace.datatype not in (XSD.anyURI, XSD.string):  # (pySHACL takes a string too)
        return SH.namespace, "not a literal of xsd:anyURI (SHACL 5.2.1)"
    name = text(prefix)
    if not (_ASCII_PN_PREFIX.fullmatch(name) or _pn_prefix().fullmatch(name)):
        return SH.prefix, "not a SPARQL prefix name (PN_PREFIX)"
    try:
        ox.NamedNode(text(namespace))
    except ValueError:
        return SH.namespace, "not an IRI"
    return None


def namespaces(g: Graph, holder: Node) -> list[tuple[str, str]]:
    """The prefixes and namespaces the ``sh:prefixes`` of ``holder`` declare
    (``declarations``), each pair once, sorted; Unsupported for an incomplete or
    ill-formed one (``declaration_problem``)."""
    pairs = set()
    for node, _, prefix, namespace in declarations(g, holder):
        if prefix is None or namespace is None:
            raise Unsupported(f"an incomplete sh:declare on {text(node)}")
        problem = declaration_problem(prefix, namespace)
        if problem is not None:
            raise Unsupported(f"an sh:declare on {text(node)}: {text(problem[0])} {problem[1]}")
        pairs.add((prefix.value, namespace.value))
    return sorted(pairs)


def prefixes(g: Graph, holder: Node) -> str:
    """PREFIX declarations for the ``sh:prefixes`` of ``holder`` (``namespaces``)."""
    return "\n".join(
        f"PREFIX {prefix}: <{namespace}>" for prefix, namespace in namespaces(g, holder)
    )


def declared_prefixes(g: Graph, holder: Node) -> str:
    """The PREFIX lines ``holder``'s declarations would give a query, well formed or
    not: what a query of it would be sent, for seeing whether it calls SERVICE."""
    return "\n".join(
        sorted(
            f"PREFIX {text(prefix)}: <{text(namespace)}>"
            for _, _, prefix, namespace in declarations(g, holder)
            if prefix is not None and namespace is not None
        )
    )


def forbidden_clause(text: str) -> str | None:
    """The keyword of a clause SHACL forbids in a SHACL-SPARQL query (Appendix A: MINUS,
    SERVICE, VALUES: the pre-bound variables would not be bound in it), read as SPARQL
    reads its terminals (``sparql_text.has_keyword``: not a name, variable, string, IRI
    or comment that spells it, ``?values``, ``ex:MINUS``); None when there is none."""
    return next((k for k in _FORBIDDEN if has_keyword(text, k)), None)


def _check(text: str, validator: bool = True) -> None:
    """SHACL Appendix A and 6.2.3.1: queries that cannot be pre-bound are refused; $value is
    pre-bound only in a ``validator``'s (a SPARQL constraint's may bind ?value)."""
    forbidden = forbidden_clause(text)
    if forbidden is not None:
        raise Unsupported(f"{forbidden} in a SHACL-SPARQL query")
    for projected in subquery_projections(text):
        if "this" not in projected:
            raise Unsupported("a nested SELECT that does not project $this (SHACL Appendix A)")
    for name in ("this", "currentShape", "shapesGraph", *(("value",) if validator else ())):
        if re.search(rf"\bAS\s+[?$]{name}\b", text, re.IGNORECASE):
            raise Unsupported(f"AS rebinds the pre-bound ${name} in a SHACL-SPARQL query")


def _constants(c: Constraint, shapes_graph: str | None, text: str) -> dict[str, str]:
    """VALUES blocks for the pre-bound constants the query uses."""
    values = {**parameter_terms(c), "currentShape": c.shape}
    used = variables(text)
    blocks = {name: f"VALUES ?{name} {{ {term(v)} }}" for name, v in values.items() if name in used}
    if "shapesGraph" in used:
        if shapes_graph is None:
            raise Unsupported("$shapesGraph without a shapes graph in the store")
        blocks["shapesGraph"] = f"VALUES ?shapesGraph {{ <{shapes_graph}> }}"
    return blocks


#: What makes a SELECT's answer depend on how many times a focus node is bound:
#: aggregates, groups and slices (a keyword inside a string or an IRI only keeps the
#: DISTINCT focus nodes, which is always right).
_COUNTING = re.compile(
    r"\b(GROUP\s+BY|HAVING|COUNT|SUM|MIN|MAX|AVG|SAMPLE|GROUP_CONCAT|LIMIT|OFFSET)\b",
    re.IGNORECASE,
)


def counts_nothing(text: str) -> bool:
    """Whether the SELECT ``text``, pre-bound by joining with the focus nodes and
    wrapped in a SELECT DISTINCT of its results, gives the same results when a focus
    node is bound twice (see targets.focus_nodes): no aggregate, group or slice."""
    return _COUNTING.search(text) is None


#: A placeholder of a message template (SHACL 5.3.2, 6.2.2): {$name} or {?name}.
TEMPLATE_PLACEHOLDER = re.compile(r"\{[$?](\w+)\}")


def template_names(messages: Iterable[Node]) -> list[str]:
    """The variable names the placeholders of ``messages`` use, each once, in order."""
    names: dict[str, None] = {}
    for message in messages:
        if isinstance(message, ox.Literal):
            names.update(dict.fromkeys(TEMPLATE_PLACEHOLDER.findall(message.value)))
    return list(names)


def parameter_terms(c: Constraint) -> dict[str, Node]:
    """The constraint's parameter values by their local names (``$needs``): what a
    message template of a constraint component may name besides the solution's
    variables (not ``$currentShape``, which is no parameter)."""
    return {
        name.value.rsplit("#", 1)[-1].rsplit("/", 1)[-1]: value
        for name, value in c.params.items()
        if name not in (SH.sparql,)
    }


def select_query(
    g: Graph,
    c: Constraint,
    text: str,
    targets: str,
    prefix_lines: str,
    shapes_graph: str | None,
    keep: Iterable[str] = (),
    tested_after: str | None = None,
) -> str:
    """The whole query for a SELECT constraint or validator at the focus nodes
    ``targets``; its solutions project ?this, ?value and ?path, and the variables
    ``keep`` names (those its messages' templates use).

    ``tested_after``: the same focus nodes as a pattern binding ``?this``
    (``targets.focus_pattern``). Where the query's WHERE group binds ``$this`` in every
    solution (``binds_at_top``), the group is answered once, without the focus nodes,
    and each solution's ``$this`` tested against them after (``_tested_after``): joined
    with the focus nodes, the same solutions are kept (as often as their ``$this`` is
    bound by the targets, which SELECT DISTINCT over the results, or DISTINCT focus
    nodes where an aggregate counts, makes once), at a cost per focus node instead of
    one per solution. Cheaper where nearly every node is a focus node."""
    _check(text, validator=c.component is not SPARQL_CONSTRAINT)
    if c.path is not None:
        text = rename(text, {"PATH": path_text(g, c.path)})
    elif "PATH" in variables(text):
        raise Unsupported("$PATH in a SPARQL constraint of a node shape")
    after = tested_after is not None and binds_at_top(text, "this")
    body = prebind(text, _constants(c, shapes_graph, text), targets, focus_at_top=not after)
    if after:
        assert tested_after is not None
        body = _tested_after(body, tested_after)
    head = body[: where_group(body)[0]]
    if not re.search(r"SELECT\s+(DISTINCT\s+|REDUCED\s+)?(\*|[^{]*[?$]this\b)", head, re.I):
        body = re.sub(
            r"SELECT\s+(DISTINCT\s+|REDUCED\s+)?", r"SELECT \1?this ", body, count=1, flags=re.I
        )
    kept = "".join(f" ?{name}" for name in keep if name not in ("this", "value", "path"))
    prologue, body = _prologue(body)  # (a PREFIX or BASE of the query's own: at the top)
    return (
        prefix_lines
        + prologue
        + f"\nSELECT DISTINCT ?this ?value ?path{kept} WHERE {{ {{ {body} }} }}"
    )


def _prologue(query: str) -> tuple[str, str]:
    """The query's own prologue (its ``PREFIX`` and ``BASE`` declarations, SPARQL 1.1
    4.1.1, on a line of their own; "" for none) and the query after it: a prologue may
    only start a query, not a subquery the compiled query nests it in."""
    form = query_form(query)
    if form is None:
        return "", query
    word, end = form
    start = end - len(word)
    declared = query[:start].strip()
    return ("\n" + declared if declared else ""), query[start:]


def _tested_after(query: str, focus: str) -> str:
    """``query`` with its WHERE group answered as a subquery, each solution's ``?this``
    then tested against ``focus`` (a pattern binding ``?this``), whose other variables
    are renamed apart from the query's (EXISTS would take the query's values)."""
    start, end = where_group(query)
    used, own = variables(query), variables(focus) - {"this"}
    n = next(n for n in itertools.count() if not used & {f"{v}_{n}" for v in own})
    test = rename(focus, {v: f"?{v}_{n}" for v in own})
    # A subquery: with the EXISTS in the group itself, Oxigraph tested every solution of
    # the group's triple patterns before the group's own filters (rule 9: 0.30 s, not 0.20).
    return (
        f"{query[:start]}{{ {{ SELECT * WHERE {query[start : end + 1]} }} "
        f"FILTER EXISTS {{ {test} }} }}{query[end + 1 :]}"
    )


def ask_violations(
    ctx: Context, c: Constraint, validator: Validator, focus: str, out: Out, shapes_graph
) -> str:
    """An ASK validator as a violation pattern: a value node where the ASK is false. Its
    IRIs are written out (``sparql_text.iris_written_out``, by its ``sh:prefixes`` and
    its own prologue): the pattern is joined into a query of the shape's, where the
    validators of other components may declare the same prefix for another namespace."""
    _check(validator.text)
    written = iris_written_out(validator.text, dict(namespaces(ctx.g, validator.node)))
    # Its BASE stays the query's: IRI("…") and URI("…") resolve against it as they run
    # (SPARQL 1.1, 17.4.2.8), and an IRI written with \u escapes as it is parsed.
    base = prologue_base(validator.text)
    if base is not None:
        if ctx.base not in (None, base):
            raise Unsupported(
                f"validators joined into one query with two BASEs: <{ctx.base}>, <{base}>"
            )
        ctx.base = base
    value = out.value
    text = rename(written, {"this": focus, "value": value})
    if c.path is not None:
        text = rename(text, {"PATH": path_text(ctx.g, c.path)})
    text = prebind(text, _constants(c, shapes_graph, validator.text), None)
    start, end = where_group(text)
    return f"{c.own_values(ctx, focus, value)} FILTER NOT EXISTS {text[start : end + 1]}"


def _validator(g: Graph, node: Node | None) -> Validator | None:
    if node is None:
        return None
    ask, select = g.value(node, SH.ask), g.value(node, SH.select)
    if (ask is None) == (select is None):
        raise Unsupported(f"validator {node.value} needs exactly one of sh:ask and sh:select")
    query = ask or select
    assert query is not None
    return Validator(node, query.value, ask is not None, tuple(g.objects(node, SH.message)))


def components(g: Graph) -> list[Component]:
    """The SPARQL-based constraint components declared in the shapes graph."""
    out = []
    for node in sorted(g.subjects(SH.parameter), key=text):
        if not isinstance(node, ox.NamedNode):
            raise Unsupported(f"a constraint component without an IRI: {node.value}")
        mandatory: list[ox.NamedNode] = []
        optional: list[ox.NamedNode] = []
        for parameter in g.objects(node, SH.parameter):
            path = g.value(parameter, SH.path)
            if not isinstance(path, ox.NamedNode):
                raise Unsupported(
                    f"parameter {parameter.value} of {node.value} without an IRI sh:path"
                )
            flag = g.value(parameter, SH.optional)
            is_optional = flag == TRUE
            (optional if is_optional else mandatory).append(path)
        generic = _validator(g, g.value(node, SH.validator))
        node_validator = _validator(g, g.value(node, SH.nodeValidator)) or generic
        property_validator = _validator(g, g.value(node, SH.propertyValidator)) or generic
        if generic is not None and not generic.ask:
            raise Unsupported(f"sh:validator of {node.value} must be an ASK (SHACL 6.3)")
        out.append(
            Component(
                iri=node,
                parameters=tuple(sorted(mandatory, key=text)),
                optional=tuple(sorted(optional, key=text)),
                node_shapes=node_validator is not None,
                property_shapes=property_validator is not None,
                select=Validators(node_validator, property_validator),
            )
        )
    return out
