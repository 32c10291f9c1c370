"""The reference engine's validator: pySHACL, with each SPARQL text parsed once and its
``&&`` evaluated operand by operand (rdflib's values)."""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import threading
from collections.abc import Iterator
from typing import Any

import owlrl
import pyshacl
from pyparsing import ParseException
from pyshacl import inference as pyshacl_inference
from pyshacl import shape as pyshacl_shape
from pyshacl.constraints import ALL_CONSTRAINT_PARAMETERS, CONSTRAINT_PARAMETERS_MAP
from pyshacl.constraints.constraint_component import ConstraintComponent
from pyshacl.constraints.core import string_based_constraints, value_range_constraints
from pyshacl.constraints.core.other_constraints import ClosedConstraintComponent
from pyshacl.constraints.core.property_pair_constraints import (
    LessThanConstraintComponent,
    LessThanOrEqualsConstraintComponent,
)
from pyshacl.constraints.core.string_based_constraints import PatternConstraintComponent
from pyshacl.constraints.sparql.sparql_based_constraint_components import (
    AskConstraintValidator,
    BoundShapeValidatorComponent,
)
from pyshacl.errors import ConstraintLoadWarning, ReportableRuntimeError, ValidationFailure
from pyshacl.helper.sparql_query_helper import SPARQLQueryHelper
from pyshacl.inference import CustomRDFSSemantics
from rdflib import RDF, Graph, Literal, URIRef
from rdflib.namespace import SH, NamespaceManager
from rdflib.plugins.sparql import aggregates as sparql_aggregates
from rdflib.plugins.sparql import evaluate as sparql_evaluate
from rdflib.plugins.sparql import processor as sparql_processor
from rdflib.plugins.sparql.sparql import SPARQLError
from rdflib.term import Node

from .choices import INFERENCE_CHOICES as INFERENCE_CHOICES
from .errors import AnthologyError
from .linear_regex import XPathPattern
from .literals import literals_as_written
from .owlrl_linear import (
    OWLRLSemantics,
    PresentRemembered,
    RDFSRulesBySchemaPredicate,
    vocabularies_read_once,
)
from .rdflib_sparql import (
    algebra_as_sparql_says,
    lazy_join,
    left_join,
    order_key,
    parsing_as_sparql_says,
    sub_select,
)
from .shacl import ResultRow
from .sparql_logic import compared, holds
from .swaps import swapped
from .terms import quiet_ill_typed


@functools.lru_cache(maxsize=1024)
def _prepare(text: str, base: str | None, namespaces: tuple[tuple[str, str], ...]) -> Any:
    """A SPARQL text parsed, translated and rewritten as a query's is
    (``rdflib_sparql.parsing_as_sparql_says``, ``algebra_as_sparql_says``): its negated
    inverse paths, its filters, its ``&&``, ``||``, comparisons, ``IRI`` and the
    functions rdflib gets wrong and its empty VALUES evaluated as SPARQL and the fast
    engine say; kept for the process, since the same shapes send the same texts on every
    validation (a translated query holds no graph)."""
    with parsing_as_sparql_says():
        parsed = sparql_processor.parseQuery(text)
        query = sparql_processor.translateQuery(parsed, base, dict(namespaces))
    algebra_as_sparql_says(query.algebra)
    return query


_SPARQL_QUERY = sparql_processor.SPARQLProcessor.query
_GRAPH_QUERY = Graph.query
_GRAPH_NAMESPACES = Graph.namespaces
_MANAGER_NAMESPACES = NamespaceManager.namespaces


def _namespaces(graph: Graph) -> dict[str, URIRef]:
    """``dict(graph.namespaces())``, the URIRefs made once for as long as the store
    holds the same prefixes (kept on the graph's namespace manager)."""
    manager = graph.namespace_manager
    if type(graph).namespaces is not _GRAPH_NAMESPACES or (
        type(manager).namespaces is not _MANAGER_NAMESPACES
    ):
        return dict(graph.namespaces())
    bound = tuple(manager.store.namespaces())
    kept = manager.__dict__.get("_anthology_kg_namespaces")
    if kept is None or kept[0] != bound:
        kept = (bound, {prefix: URIRef(namespace) for prefix, namespace in bound})
        manager.__dict__["_anthology_kg_namespaces"] = kept
    return dict(kept[1])


def _query_namespaces_read_once(
    self,
    query_object,
    processor="sparql",
    result="sparql",
    initNs=None,  # noqa: N803
    initBindings=None,  # noqa: N803
    use_store_provided=True,
    **kwargs,
):
    """rdflib's ``Graph.query``, which reads the graph's prefixes when it is given none
    (``dict(self.namespaces())``, a URIRef made for each namespace on every call: ~15%
    of pySHACL's run on a small anthology, one query per focus node of a SPARQL
    constraint), with the same prefixes read through ``_namespaces``."""
    return _GRAPH_QUERY(
        self,
        query_object,
        processor,
        result,
        initNs or _namespaces(self),
        initBindings,
        use_store_provided,
        **kwargs,
    )


def _query_parsed_once(
    self,
    strOrQuery,
    initBindings=None,
    initNs=None,
    base=None,
    DEBUG=False,  # noqa: N803
):
    """rdflib's ``SPARQLProcessor.query`` with a text's translation kept (``_prepare``)."""
    if isinstance(strOrQuery, str):
        namespaces = tuple(sorted((str(k), str(v)) for k, v in (initNs or {}).items()))
        strOrQuery = _prepare(strOrQuery, base, namespaces)
    return _SPARQL_QUERY(self, strOrQuery, initBindings, initNs, base, DEBUG)


@contextlib.contextmanager
def _parsed_queries_cached() -> Iterator[None]:
    """Parse each SPARQL text once while pySHACL runs, its ``&&`` evaluated in order
    (``_prepare``), its filters' conditions by SPARQL's effective boolean value
    (``sparql_logic.holds``, each expression evaluated at once; an OPTIONAL's within an
    EXISTS pattern seeing the EXISTS's row, ``rdflib_sparql.left_join``; a join of a
    BIND's row only where compatible, ``rdflib_sparql.lazy_join``, a sub-SELECT's own
    variables its own, ``rdflib_sparql.sub_select``) and its ``ORDER BY``,
    ``MIN`` and ``MAX`` by ``rdflib_sparql.order_key`` (``swaps.swapped``: rdflib is as
    it was once the last such block ends).

    pySHACL sends the same query text for every focus node (with the focus as an
    initial binding), and rdflib parses it anew each time, which dominates the run.
    A translated query is reusable with other bindings, so caching it is safe.
    """
    with (
        swapped(sparql_processor.SPARQLProcessor, "query", _query_parsed_once),
        swapped(sparql_evaluate, "_ebv", holds),
        swapped(sparql_evaluate, "evalLeftJoin", left_join),
        swapped(sparql_evaluate, "evalLazyJoin", lazy_join),
        swapped(sparql_evaluate, "evalMultiset", sub_select),
        swapped(sparql_evaluate, "_val", order_key),
        swapped(sparql_aggregates, "_val", order_key),
        swapped(Graph, "query", _query_namespaces_read_once),
    ):
        yield


#: Stand-ins for the focus node and the value node while pySHACL's bindings of a query are
#: worked out once (``_constraint_texts_prepared``); true, as pySHACL tests the value.
_FOCUS = URIRef("urn:x-anthology-kg:focus")
_VALUE = URIRef("urn:x-anthology-kg:value")


def _pre_bind_once(self, thisnode, valuenode=None, extravars=None):
    """pySHACL's ``SPARQLQueryHelper.pre_bind_variables`` worked out once per helper and
    kind of call, the focus and value put in after."""
    # pySHACL checks the text with the value node if it is not None, and binds it if it
    # is true: a false one (the literal 0) is given as it is, never bound.
    key = (valuenode is not None, bool(valuenode), tuple(sorted(extravars or ())))
    done = self.__dict__.setdefault("_anthology_kg_bindings", {})
    if key not in done:
        done[key] = _PRE_BIND(self, _FOCUS, _VALUE if valuenode else valuenode, extravars)
    bindings, text = done[key]
    return {
        name: thisnode if node is _FOCUS else valuenode if node is _VALUE else node
        for name, node in bindings.items()
    }, text


def _prefixed_once(self, sparql):
    """pySHACL's ``SPARQLQueryHelper.apply_prefixes``, once per helper and text."""
    done = self.__dict__.setdefault("_anthology_kg_prefixed", {})
    if sparql not in done:
        done[sparql] = _APPLY_PREFIXES(self, sparql)
    return done[sparql]


_PRE_BIND = SPARQLQueryHelper.pre_bind_variables
_APPLY_PREFIXES = SPARQLQueryHelper.apply_prefixes
_CHECK_INVALID = SPARQLQueryHelper.check_invalid_sparql
#: pySHACL's words for each clause SHACL forbids (Appendix A, pre-binding).
_FORBIDDEN_SAID = {
    "MINUS": "A SPARQL Constraint must not contain a MINUS clause.",
    "VALUES": "A SPARQL Constraint must not contain a VALUES clause.",
    "SERVICE": "A SPARQL Constraint must not contain a federated query (SERVICE).",
}
_NEVER = re.compile(r"(?!)")


def _clauses_as_sparql_reads_them(self, sparql_text, valuenode=None, extravars=None):
    """pySHACL's ``SPARQLQueryHelper.check_invalid_sparql`` with its MINUS, VALUES and
    SERVICE found as the fast engine finds them (``sparql_based.forbidden_clause``, the
    keywords as SPARQL reads them), where pySHACL's regular expressions also match a
    name (``?values``, ``ex:MINUS``) or a single-quoted string; its other checks kept."""
    from .shacl.sparql_based import forbidden_clause

    forbidden = forbidden_clause(sparql_text)
    if forbidden is not None:
        raise ValidationFailure(_FORBIDDEN_SAID[forbidden])
    return _CHECK_INVALID(self, sparql_text, valuenode, extravars)


@contextlib.contextmanager
def _constraint_texts_prepared() -> Iterator[None]:
    """Work out each SPARQL constraint's query text and bindings once while pySHACL runs
    (``swaps.swapped``: pySHACL is as it was once the last such block ends).

    For every focus node (and value node) pySHACL's ``SPARQLQueryHelper`` searches the
    constraint's text with nine regular expressions, substitutes ``$PATH`` and writes the
    prefixes before it, the same text each time: ~15% of a validation. Here that is done
    once per helper, for each combination of what the bindings depend on (whether there
    is a value node, the extra variables), with stand-in nodes later replaced by the
    focus and the value; a text pySHACL refuses raises again on every call. Its check of
    the clauses SHACL forbids reads the keywords as SPARQL does
    (``_clauses_as_sparql_reads_them``).
    """
    with (
        swapped(SPARQLQueryHelper, "pre_bind_variables", _pre_bind_once),
        swapped(SPARQLQueryHelper, "apply_prefixes", _prefixed_once),
        swapped(SPARQLQueryHelper, "check_invalid_sparql", _clauses_as_sparql_reads_them),
        swapped(SPARQLQueryHelper, "has_minus_regex", _NEVER),
        swapped(SPARQLQueryHelper, "has_values_regex", _NEVER),
        swapped(SPARQLQueryHelper, "has_service_regex", _NEVER),
    ):
        yield


class _LookedUpBySet(list[Any]):
    """A list whose ``in`` is a set lookup: the same answer for rdflib terms, whose ``==``
    is the same type and text and whose hash is the text's."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__(items)
        self._members = frozenset(items)

    def __contains__(self, item: object) -> bool:
        return item in self._members


#: pySHACL's own result text, for the validations of other threads.
_RESULT_TEXT = getattr(ConstraintComponent, "make_v_result_description", None)
#: How many ``_report_graph_only`` blocks this thread is in.
_REPORT_GRAPH_ONLY = threading.local()


def _no_result_text(self: Any, *args: Any, **kwargs: Any) -> str:
    """For pySHACL's ``make_v_result_description``: no text in a thread validating for
    ``shacl_report`` (which keeps only the report graph); pySHACL's own in the others,
    whose text report a caller of pySHACL may read while ours runs."""
    if getattr(_REPORT_GRAPH_ONLY, "depth", 0) or _RESULT_TEXT is None:
        return ""
    return str(_RESULT_TEXT(self, *args, **kwargs))


@contextlib.contextmanager
def _report_graph_only() -> Iterator[None]:
    """pySHACL without the work of what ``shacl_report`` never reads, while it runs
    (``swaps.swapped``: pySHACL is as it was once the last such block ends).

    For every result, nested ones under sh:or, sh:xone, sh:not and sh:node included,
    pySHACL writes a text description (each node written out in Turtle) that only its
    text report reads: ~20% of a validation with many such results. And for every
    shape it validates it tests each predicate of the shape against its list of ~35
    constraint parameters, term by term (rdflib's ``==``, a Python call): here a set
    lookup. The report graph is pySHACL's own (tests/test_reference_shacl.py).
    """
    if not hasattr(pyshacl_shape.module, "CONSTRAINT_PARAMS"):
        # What pySHACL sets there itself on its first validation.
        pyshacl_shape.module.CONSTRAINT_PARAMS = (  # type: ignore[attr-defined]
            ALL_CONSTRAINT_PARAMETERS,
            CONSTRAINT_PARAMETERS_MAP,
        )
    parameters = (_LookedUpBySet(ALL_CONSTRAINT_PARAMETERS), CONSTRAINT_PARAMETERS_MAP)
    depth = getattr(_REPORT_GRAPH_ONLY, "depth", 0)
    _REPORT_GRAPH_ONLY.depth = depth + 1
    try:
        with (
            swapped(ConstraintComponent, "make_v_result_description", _no_result_text),
            swapped(pyshacl_shape.module, "CONSTRAINT_PARAMS", parameters),
        ):
            yield
    finally:
        _REPORT_GRAPH_ONLY.depth = depth


class PySHACLRDFSSemantics(PresentRemembered, RDFSRulesBySchemaPredicate, CustomRDFSSemantics):
    """pySHACL's RDFS closure (owlrl's rules, without copies of a triple for each literal
    of an equal value) with the triples its rules find in the graph remembered."""


@contextlib.contextmanager
def _linear_closures() -> Iterator[None]:
    """pySHACL's closure of the data and ontology (with inference) computed by
    owlrl_linear's classes while pySHACL runs: ``OWLRLSemantics`` for owlrl's
    ``OWLRL_Semantics`` (whose list of blank nodes is tested term by term), and
    ``PySHACLRDFSSemantics`` for pySHACL's RDFS one; the same triples
    (tests/test_owlrl_linear.py). pySHACL looks both classes up when it infers, so they are
    swapped in (``swaps.swapped``: owlrl and pySHACL are as they were once the last such
    block ends)."""
    with (
        swapped(owlrl, "OWLRL_Semantics", OWLRLSemantics),
        swapped(pyshacl_inference, "CustomRDFSSemantics", PySHACLRDFSSemantics),
    ):
        yield


@contextlib.contextmanager
def _shapes_left_as_they_were(shapes: Graph) -> Iterator[None]:
    """pySHACL adds its system triples (``owl:Class rdfs:subClassOf rdfs:Class``…) to
    the shapes graph it is given: the block removes those the graph did not hold, so a
    query after a validation sees the anthology as before (the shapes are part of it)."""
    from pyshacl.shapes_graph import ShapesGraph

    added = [t for t in ShapesGraph.system_triples if t not in shapes]
    try:
        yield
    finally:
        for triple in added:
            shapes.remove(triple)


def _quiet_logger(name: str | None = None, *args: Any, **kwargs: Any) -> logging.Logger:
    """For pySHACL's ``make_default_logger``: a logger of its own, off, where pySHACL's
    writes to stderr (``ConstraintLoadError: …``, ``For reference, see …``) lines that
    name no file: what is wrong with a shape is said by the shapes' check, at its line."""
    logger = logging.Logger(name or "pyshacl")  # not the manager's: no handler is added
    logger.disabled = True
    return logger


def _unsaid(*args: Any, **kwargs: Any) -> None:
    """For pySHACL's ``warnings.warn``: its warnings (a recursive shape, its whole
    evaluation path) are not written to stderr."""


def _closed_without_sh_closed(self: Any, shape: Any) -> None:
    """pySHACL's ``ClosedConstraintComponent`` for a shape with ``sh:ignoredProperties``
    and no ``sh:closed``, which pySHACL refuses: SHACL 4.8.1 reads ignoredProperties only
    with a closed shape, so it constrains nothing (as on the fast engine)."""
    if shape.sg.graph.value(shape.node, SH.closed) is None:
        raise ConstraintLoadWarning("sh:ignoredProperties without sh:closed", None)
    _CLOSED_INIT(self, shape)


_CLOSED_INIT = ClosedConstraintComponent.__init__


class _PatternsNotCompiled:
    """Python's ``re`` as pySHACL's ``string_based_constraints`` reads it while a
    ``PatternConstraintComponent`` is made, but ``compile``, which keeps the pattern as it
    is: ``_pattern_as_xpath_reads_it`` matches it by ``linear_regex``, which reads what
    SPARQL's REGEX reads (``\\p{L}``), where ``re.compile`` raised."""

    def __getattr__(self, name: str) -> object:
        return getattr(re, name)

    @staticmethod
    def compile(pattern: str, flags: int = 0) -> str:
        return pattern


def _pattern_as_xpath_reads_it(self: Any, shape: Any) -> None:
    """pySHACL's ``PatternConstraintComponent`` with its patterns matched as XPath's
    ``fn:matches`` reads them, by ``linear_regex`` (pySHACL reads only the flags ``i`` and
    ``m`` and Python's ``$`` and refused ``\\p{L}``, and Python's backtracking held the GIL
    for hours on ``^(a|a)+$``, out of reach of --timeout and signals)."""
    with swapped(string_based_constraints, "re", _PatternsNotCompiled()):
        _PATTERN_INIT(self, shape)
    flags = str(self.flags.value) if self.flags is not None else ""
    self.compiled_cache = {
        p: XPathPattern(str(p.value if p.value is not None else p), flags)
        for p in self.compiled_cache
    }


_PATTERN_INIT = PatternConstraintComponent.__init__


_EVALUATE_COMPONENT = BoundShapeValidatorComponent.evaluate


def _each_result_its_own_message(
    self: Any, executor: Any, target_graph: Any, focus_value_nodes: Any, evaluation_path: Any
) -> Any:
    """pySHACL's ``BoundShapeValidatorComponent.evaluate`` (an own constraint component's
    results) with each result's messages made from its own solution, as SHACL 5.3.2 and
    6.3 make them and the fast engine does.

    pySHACL adds every result's filled messages to one list that all the results share
    (a shallow copy of its arguments), so a focus node's later results repeated its
    first message. Here each result gets the messages of the bindings pySHACL last filled
    them with, but {?path} only from a ?path the SELECT binds (not the shape's path) and
    {?value} only from a ?value it binds or the value node pySHACL reports; an ASK
    validator's result also gets its value node as sh:value (6.3: the solution binds
    $value), which pySHACL leaves out on a property shape."""
    helper = self.query_helper
    fill = helper.bind_messages
    report = self.make_v_result
    ask = isinstance(self.validator, AskConstraintValidator)
    filled_with: dict[str, Any] = {}

    def remembered(param_map: Any = None) -> None:
        filled_with.clear()
        filled_with.update(helper.param_bind_map if param_map is None else param_map)
        fill(param_map)

    def result(
        datagraph: Any, focus_node: Any, value_node: Any = None, result_path: Any = None, **kw: Any
    ) -> Any:
        bindings = dict(filled_with)
        if result_path is None:
            bindings.pop("path", None)
        if value_node is None and ask:
            value_node = bindings.get("value")
        elif value_node is None:
            bindings.pop("value", None)
        fill(bindings)
        kw["extra_messages"] = list(helper.bound_messages)
        return report(datagraph, focus_node, value_node=value_node, result_path=result_path, **kw)

    helper.bind_messages, self.make_v_result = remembered, result
    try:
        return _EVALUATE_COMPONENT(self, executor, target_graph, focus_value_nodes, evaluation_path)
    finally:
        del helper.bind_messages, self.make_v_result


def _order_as_sparql(value: Any, bound: Any) -> int:
    """pySHACL's ``compare_literal`` (the order of a value node and a value range's bound:
    -1, 0 or 1) by SPARQL's ``<``, ``=`` and ``>`` as the fast engine evaluates them
    (``sparql_logic.compared``), TypeError where they do not compare (a date and a
    dateTime, a date and a number), which pySHACL takes for a failed comparison: a
    result, as SHACL 4.4 makes one. pySHACL ordered a date and a number, and a gYear."""
    for order, op in ((-1, "<"), (0, "="), (1, ">")):
        try:
            if compared(op, value, bound):
                return order
        except SPARQLError:
            break
    raise TypeError(f"{value!r} and {bound!r} do not compare")


def _pairs_compared(op: str) -> Any:
    """pySHACL's ``_compare_lt`` (``op`` ``<``, sh:lessThan) or ``_compare_ltoe``
    (``<=``, sh:lessThanOrEquals): a result for each value node that is not ``op`` one
    of the values of the other property at its focus node, by SPARQL's operator as the
    fast engine evaluates it (``sparql_logic.compared``), or does not compare with it
    (SHACL 4.5.3-4). pySHACL ordered values of types SPARQL does not compare (an
    xsd:date and an xsd:dateTime) and stopped at a blank node (exit 2)."""

    def compare(
        self: Any, value_nodes: Any, compare_values: Any, datagraph: Any, focus: Any
    ) -> Any:
        reports = []
        for value in value_nodes:
            for other in compare_values:
                try:
                    holds = compared(op, value, other)
                except SPARQLError:
                    holds = False
                if not holds:
                    reports.append(self.make_v_result(datagraph, focus, value_node=value))
        return bool(reports), reports

    return compare


#: A variable of a message template, {?name} or {$name} (SHACL 5.3.2).
_MESSAGE_VARIABLE = re.compile(r"\{[?$]([^{}]+)\}")


def _filled(message: str, bindings: Any) -> str:
    """``message`` with each variable that ``bindings`` (a mapping) binds replaced by its
    value's text, as it is; any other left as written. pySHACL gave the text to
    ``re.sub`` as a replacement template, so a backslash in a value was read as an
    escape: ``\\q`` stopped the validation (exit 2), ``\\1`` wrote a group."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return str(bindings[name]) if name in bindings else match.group(0)

    return _MESSAGE_VARIABLE.sub(value, message)


def _sparql_message_filled(self: Any, message: str, bound_vars: Any) -> str:
    """pySHACL's ``ConstraintComponent._format_sparql_based_result_message`` (an
    sh:sparql result's message) by ``_filled``: the result's bindings are ``(this,
    path, value)``, with the other variables of its solution as a fourth, or a mapping."""
    if isinstance(bound_vars, dict):
        return _filled(message, bound_vars)
    if not isinstance(bound_vars, (tuple, list)):
        return message
    bindings = dict(bound_vars[3]) if len(bound_vars) == 4 else {}
    if len(bound_vars) in (3, 4):
        named = zip(("this", "path", "value"), bound_vars[:3], strict=True)
        bindings.update((name, node) for name, node in named if node is not None)
    return _filled(message, bindings)


_MAKE_RESULT = ConstraintComponent.make_v_result


def _constraint_messages_alone(
    self: Any,
    datagraph: Any,
    focus_node: Any,
    value_node: Any = None,
    result_path: Any = None,
    constraint_component: Any = None,
    source_constraint: Any = None,
    extra_messages: Any = None,
    bound_vars: Any = None,
) -> Any:
    """pySHACL's ``ConstraintComponent.make_v_result`` with the messages the fast engine
    gives (``compiler.ShapeCompiler``): a result of a SPARQL-based constraint (or of a
    constraint component's validator) whose constraint has sh:message values has those,
    filled from its solution with their language tags (SHACL 5.3.2, 6.3), and its
    shape's sh:message (2.1.5) only where the constraint has none. pySHACL wrote the
    shape's beside the constraint's, two messages of one language, and dropped the tag
    of a filled one."""
    made = _MAKE_RESULT(
        self, datagraph, focus_node, value_node, result_path, constraint_component,
        source_constraint, extra_messages, bound_vars,
    )  # fmt: skip
    messages = extra_messages or (list(self.shape.message) if bound_vars is not None else None)
    if not messages:
        return made
    description, result, triples = made
    triples = [t for t in triples if t[1] != SH.resultMessage]
    for message in dict.fromkeys(messages):
        if isinstance(message, Literal) and bound_vars is not None:
            text = _sparql_message_filled(self, str(message), bound_vars)
            language = message.language
            message = Literal(text, lang=language, datatype=None if language else message.datatype)
        triples.append((result, SH.resultMessage, message))
    return description, result, triples


def _component_messages_filled(self: Any, param_map: Any = None) -> None:
    """pySHACL's ``SPARQLQueryHelper.bind_messages`` (an own constraint component's
    messages, from its parameters' values or a solution's) by ``_filled``."""
    bindings = self.param_bind_map if param_map is None else param_map
    self.bound_messages = {
        message
        if not _MESSAGE_VARIABLE.search(str(message.value))
        else Literal(
            _filled(str(message.value), bindings), lang=message.language, datatype=message.datatype
        )
        for message in self.unbound_messages
    }


@contextlib.contextmanager
def _pyshacl_quiet() -> Iterator[None]:
    """pySHACL with no log lines or warnings of its own on stderr, and a shape with
    sh:ignoredProperties but no sh:closed, an sh:pattern's flags and ``$``, the
    messages of SPARQL-based constraints and own constraint components, and the
    comparisons of value ranges and of sh:lessThan and sh:lessThanOrEquals taken as SHACL
    says (``swaps.swapped``)."""
    from pyshacl import entrypoints, target
    from pyshacl.constraints.core import logical_constraints, shape_based_constraints

    with (
        swapped(entrypoints, "make_default_logger", _quiet_logger),
        swapped(logical_constraints, "warn", _unsaid),
        swapped(shape_based_constraints, "warn", _unsaid),
        swapped(target, "warn", _unsaid),
        swapped(ClosedConstraintComponent, "__init__", _closed_without_sh_closed),
        swapped(PatternConstraintComponent, "__init__", _pattern_as_xpath_reads_it),
        swapped(BoundShapeValidatorComponent, "evaluate", _each_result_its_own_message),
        swapped(ConstraintComponent, "_format_sparql_based_result_message", _sparql_message_filled),
        swapped(ConstraintComponent, "make_v_result", _constraint_messages_alone),
        swapped(SPARQLQueryHelper, "bind_messages", _component_messages_filled),
        swapped(value_range_constraints, "compare_literal", _order_as_sparql),
        swapped(LessThanConstraintComponent, "_compare_lt", _pairs_compared("<")),
        swapped(LessThanOrEqualsConstraintComponent, "_compare_ltoe", _pairs_compared("<=")),
    ):
        yield


def shacl_report(
    data: Graph,
    shapes: Graph,
    ontology: Graph | None = None,
    inference: str = "none",
    allow_warnings: bool = False,
) -> tuple[bool, Graph]:
    """pySHACL's conforms flag and its sh:ValidationReport graph for ``data``.

    Raises AnthologyError for an unknown inference or shapes pySHACL refuses.
    """
    if inference not in INFERENCE_CHOICES:
        raise AnthologyError(f"unknown inference {inference!r}: use one of none, rdfs, owlrl")
    # pySHACL sets rdflib's global NORMALIZE_LITERALS itself; the block puts it back. Its
    # closure (with inference) runs owlrl's rules, here reading their terms once, by
    # owlrl_linear's classes.
    with (
        literals_as_written(),
        _parsed_queries_cached(),
        _constraint_texts_prepared(),
        vocabularies_read_once(),
        _linear_closures(),
        _report_graph_only(),
        _shapes_left_as_they_were(shapes),
        _pyshacl_quiet(),
        # An ill-typed bound ("abc"^^xsd:decimal) that a rule's SPARQL reads is data:
        # rdflib logged a traceback for it (hunt14 finding 9).
        quiet_ill_typed(),
    ):
        try:
            conforms, report_graph, _ = pyshacl.validate(
                data,
                shacl_graph=shapes,
                ont_graph=ontology,
                inference=inference,
                allow_warnings=allow_warnings,
                advanced=False,
            )
        except ReportableRuntimeError as exc:  # pySHACL's refusal of a shape (its own words)
            reason = " ".join(str(exc.args[0] if exc.args else exc).split())
            raise AnthologyError(f"the shapes cannot be used: {reason}") from None
        except ParseException as exc:  # SPARQL pyoxigraph reads (shacl.syntax) and rdflib not
            raise AnthologyError(
                "the shapes cannot be used on the reference engine: rdflib cannot read a "
                f"SPARQL query of theirs ({exc.msg} at line {exc.lineno}, column {exc.col}); "
                "the fast engine reads it"
            ) from None
        except (AnthologyError, MemoryError):
            raise
        except Exception as exc:  # pySHACL crashing on shapes it cannot run
            said = " ".join(str(exc).split()) or type(exc).__name__
            raise AnthologyError(
                f"the shapes cannot be used on the reference engine: pySHACL failed on them "
                f"({type(exc).__name__}: {said})"
            ) from None
    if not isinstance(report_graph, Graph):
        # pySHACL returns a ValidationFailure for shapes it refuses (unsupported SPARQL).
        raise AnthologyError(f"the shapes cannot be used: {report_graph}")
    return bool(conforms), report_graph


def rows_from_report(report: Graph, shapes: Graph) -> list[ResultRow]:
    """The rows of pySHACL's ``sh:ValidationReport`` (its ``sh:result`` values: not the
    results pySHACL nests under an ``sh:node`` result's ``sh:detail``, which the fast
    engine does not report either), in the compiled engine's terms: a structured result
    path is the source shape's own ``sh:path`` node of ``shapes``."""
    rows = []
    results = (
        result
        for validation_report in report.subjects(RDF.type, SH.ValidationReport)
        for result in report.objects(validation_report, SH.result)
    )
    for result in results:
        shape = _required(report, result, SH.sourceShape)
        path = report.value(result, SH.resultPath)
        if path is not None and not isinstance(path, URIRef):
            path = shapes.value(shape, SH.path) or path
        severity = report.value(result, SH.resultSeverity)
        component = report.value(result, SH.sourceConstraintComponent)
        messages = [m for m in report.objects(result, SH.resultMessage) if isinstance(m, Literal)]
        if _core(component) and shapes.value(shape, SH.message) is None:
            # pySHACL's own text ("Less than 1 values on ..."): the Oxigraph engine writes
            # none, and the reports say the same on both (validation.default_message).
            messages = []
        elif not _core(component):
            # pySHACL's words for a SPARQL-based component's result without sh:message.
            messages = [m for m in messages if str(m) != _GENERIC_SPARQL_MESSAGE]
        rows.append(
            ResultRow(
                focus=_required(report, result, SH.focusNode),
                path=path,
                value=report.value(result, SH.value),
                source_shape=shape,
                source_constraint_component=(
                    component if isinstance(component, URIRef) else SH.SPARQLConstraintComponent
                ),
                severity=severity if isinstance(severity, URIRef) else SH.Violation,
                messages=tuple(sorted(messages, key=str)),
                source_constraint=report.value(result, SH.sourceConstraint),
            )
        )
    return rows


#: What pySHACL says of a result of a SPARQL-based constraint component that has no
#: sh:message (``SPARQLConstraintComponent.make_generic_messages``).
_GENERIC_SPARQL_MESSAGE = "Parameterised SHACL Query generated constraint validation reports."


def _core(component: Node | None) -> bool:
    """Whether ``component`` is one of SHACL Core's constraint components (whose result
    messages come from sh:message alone on the Oxigraph engine)."""
    return (
        isinstance(component, URIRef)
        and component.startswith(str(SH))
        and component != SH.SPARQLConstraintComponent
    )


def _required(graph: Graph, subject: Node, predicate: URIRef) -> Node:
    value = graph.value(subject, predicate)
    if value is None:
        raise AnthologyError(f"pySHACL gave a validation result without {predicate.n3()}")
    return value
