"""SPARQL with rdflib's engine: a query text parsed once per process (``prepare``), the
form of a query (``query_kind``), and a query evaluated on an rdflib graph (``evaluate``),
its answer read into a ``QueryResult``."""

from __future__ import annotations

import contextlib
import functools
import re
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, MutableMapping
from pathlib import Path
from types import MethodType
from typing import TYPE_CHECKING, cast

import pyoxigraph as ox
import rdflib
from rdflib import BNode, Graph, Literal, URIRef, Variable
from rdflib.paths import MulPath
from rdflib.term import Identifier, Node

from . import linear_regex
from .errors import AnthologyError
from .namespaces import prefixed_like
from .query_result import QueryResult, in_select_star_order
from .sparql_text import (
    check_bindings,
    code_characters,
    common_mistake,
    inner_group_probe,
    offset_of,
    text_end,
    undeclared_prefix_error,
    undeclared_prefixes,
    update_error,
)
from .swaps import held, swapped
from .terms import from_ox, is_iri, nt_term, quiet_ill_typed

if TYPE_CHECKING:
    from pyparsing import ParseException, ParseResults
    from rdflib.paths import Path as RDFPath
    from rdflib.plugins.sparql.parserutils import Comp, CompValue, Expr
    from rdflib.plugins.sparql.sparql import FrozenBindings, Query, QueryContext
    from rdflib.query import Result

    #: A step of a property path: a path, or the IRI of one predicate.
    PathOrIRI = RDFPath | URIRef
    #: rdflib's evaluation of a GRAPH pattern (``evaluate.evalGraph``).
    GraphPattern = Callable[[QueryContext, CompValue], Generator[FrozenBindings, None, None]]
    #: What rdflib calls to evaluate an expression (bound to it as ``_evalfn``).
    Evaluation = Callable[[Expr, QueryContext], Node]
    #: rdflib's translation of a query or sub-SELECT (``algebra.translate``): its algebra
    #: and projected variables.
    Translation = Callable[[CompValue], tuple[CompValue | None, list[Variable]]]


@functools.lru_cache(maxsize=512)
def _prepared(text: str, normalize_literals: bool) -> Query:
    """``text`` parsed and translated by rdflib, once per process and literal setting:
    parsing is most of the time a query takes on a small graph, and a translated query
    holds neither graph nor bindings (rdflib's prepareQuery is made for reuse). An IRI
    of the text that is no absolute IRI is a ValueError."""
    # rdflib's SPARQL parser takes a tenth of a second to import: not on every command's path.
    from rdflib.plugins.sparql import prepareQuery

    with parsing_as_sparql_says():
        prepared = prepareQuery(text)
    # (After the rewrite: a negated set's inverse members are paths the walk reads then.)
    algebra_as_sparql_says(prepared.algebra)
    relative = _relative_iri(prepared.algebra)
    if relative is not None:  # (the fast engine's parser refuses it too)
        raise _Refused(f"<{relative}> is no absolute IRI, and no BASE resolves it")
    rebound = _bound_again(prepared.algebra)
    if rebound is not None:  # (the fast engine's parser refuses it too)
        raise _Refused(f"?{rebound} is bound by BIND where it is in scope already")
    return prepared


class _Refused(ValueError):
    """A text rdflib parses that is no SPARQL query (``_prepared``'s own checks)."""


def refusal(text: str) -> str | None:
    """Why the reference engine refuses the query ``text`` though rdflib parses it
    (``_Refused``: an IRI no BASE makes absolute, a BIND of a variable in scope), in its
    words; None where it takes the text or rdflib cannot parse it. For the fast engine,
    whose parser refuses these without a reason (``fast.run``)."""
    try:
        _prepared(text, bool(rdflib.NORMALIZE_LITERALS))
    except _Refused as exc:
        return str(exc)
    except Exception:
        return None
    return None


def _bound_again(algebra: object) -> str | None:
    """The name of a variable a BIND of ``algebra`` binds where it is in scope already
    (SPARQL 1.1, 18.2.1: ``BIND(1 AS ?x) BIND(2 AS ?x)``), if one does: rdflib answered
    with the later value. A BIND is an ``Extend`` that is not a projection's: those
    lie between a ``Project`` and its translated group pattern (rdflib marks each
    group ``translated``), over an aggregate's, a ``HAVING``'s or ``VALUES``' nodes."""
    from rdflib.plugins.sparql.parserutils import CompValue

    projections: set[int] = set()
    binds: list[CompValue] = []
    for node in algebra_nodes(algebra):
        if not isinstance(node, CompValue):
            continue
        if node.name == "Extend":
            binds.append(node)
        elif node.name == "Project":
            below = _child(node, "p")
            while isinstance(below, CompValue) and not getattr(below, "translated", False):
                projections.add(id(below))
                below = _child(below, "p1" if below.name == "Join" else "p")
    for bind in binds:
        variable = _child(bind, "var")
        if id(bind) not in projections and variable in _in_scope_of(_child(bind, "p")):
            return str(variable)
    return None


@contextlib.contextmanager
def parsing_as_sparql_says() -> Iterator[None]:
    """Within, rdflib parses (and translates) a query text as every query of this package
    is parsed, a query's (``_prepared``) as a shape's (``reference_shacl._prepare``): an
    ill-typed literal is no error (``quiet_ill_typed``), and an inverse member of a
    negated property set keeps its IRI (``_negated_inverses_kept``), a ``SELECT *``
    projects the variables in scope (``_select_star_in_scope``), and a constant
    ``FILTER`` is kept (``_constant_filters_kept``); a text's prefixes are only
    those its PREFIX lines (and a shape's ``sh:prefixes``) declare, a local name read
    with its escapes (``_prologue_as_sparql_says``)."""
    with quiet_ill_typed(), _negated_inverses_kept(), _select_star_in_scope():
        with _constant_filters_kept(), _prologue_as_sparql_says():
            yield


def _prologue_as_sparql_says() -> contextlib.AbstractContextManager[None]:
    """Within, rdflib's translation of a text knows no prefix but those it is given
    (a shape's, pySHACL's initNs) and those its PREFIX lines declare, as SPARQL 1.1
    (4.1.1.1, 19.5) and the fast engine: its ``Prologue`` bound rdflib's ~30 own
    (``xsd:``, ``rdf:``, ``owl:``, ``schema:`` ...), so ``ASK { ?s xsd:x ?o }`` was
    answered where the fast engine refuses it. And a prefixed name's local part is read
    with its escapes (PN_LOCAL_ESC, SPARQL 1.1 19.8: ``ex:a\\.b`` is ``<...a.b>``),
    where rdflib kept the backslash (an IRI that matched nothing, then refused as no
    absolute IRI). rdflib's ``algebra.Prologue`` is swapped for the block
    (``swaps.swapped``)."""
    from rdflib.plugins.sparql import algebra as rdflib_algebra

    return swapped(rdflib_algebra, "Prologue", _sparql_prologue())


#: PN_LOCAL_ESC's backslash (SPARQL 1.1, grammar rule 173; rdflib's parser takes no other
#: backslash in a local name).
_LOCAL_ESCAPE = re.compile(r"\\(.)")


@functools.cache
def _sparql_prologue() -> type:
    """rdflib's ``Prologue``, its namespace manager binding no prefix to begin with and
    a prefixed name's local part read with its escapes."""
    from rdflib.namespace import NamespaceManager
    from rdflib.plugins.sparql.sparql import Prologue

    class PrologueAsSparqlSays(Prologue):
        def __init__(self) -> None:
            super().__init__()
            self.namespace_manager = NamespaceManager(Graph(), bind_namespaces="none")

        def resolvePName(self, prefix: str | None, localname: str | None) -> URIRef:  # noqa: N802
            if localname and "\\" in localname:
                localname = _LOCAL_ESCAPE.sub(r"\1", localname)
            return super().resolvePName(prefix, localname)

    return PrologueAsSparqlSays


def _constant_filters_kept() -> contextlib.AbstractContextManager[None]:
    """Within, rdflib's translation keeps a group's filter that is a constant
    (``FILTER(false)``, ``FILTER(0)``): its ``collectAndRemoveFilters`` gave the group's
    one filter as it is, and ``translateGroupGraphPattern`` dropped it when that was a
    literal of false value (``if filters:``), so every row passed where SPARQL and the
    fast engine keep none. rdflib's function is swapped for the block
    (``swaps.swapped``)."""
    from rdflib.plugins.sparql import algebra as rdflib_algebra

    collect: Callable[[list[CompValue]], object] = rdflib_algebra.collectAndRemoveFilters
    if not getattr(collect, "anthology_kg", False):  # (else a block is open)
        collect = _constants_wrapped(collect)
    return swapped(rdflib_algebra, "collectAndRemoveFilters", collect)


@functools.cache
def _constants_wrapped(
    collect: Callable[[list[CompValue]], object],
) -> Callable[[list[CompValue]], object]:
    """rdflib's ``collectAndRemoveFilters``, a constant it gives (a literal) put in a
    ``&&`` of that one operand: an expression of the constant's value that is never
    false as a Python value."""
    from rdflib.plugins.sparql.operators import ConditionalAndExpression
    from rdflib.plugins.sparql.parserutils import Expr

    def collected(parts: list[CompValue]) -> object:
        filters = collect(parts)
        if isinstance(filters, Literal):
            return Expr(
                "ConditionalAndExpression", ConditionalAndExpression, expr=filters, other=[]
            )
        return filters

    collected.anthology_kg = True  # type: ignore[attr-defined]
    return collected


def _select_star_in_scope() -> contextlib.AbstractContextManager[None]:
    """Within, rdflib's translation of a ``SELECT *`` (the query's or a sub-SELECT's)
    projects the variables in scope of its pattern (SPARQL 1.1, 18.2.1: ``_in_scope``),
    where it projected every variable written in it, one seen only in a FILTER (an
    EXISTS's too) or on a MINUS's right side included (a column never bound), and left
    out those of a trailing VALUES block (a column bound in every row). rdflib's
    ``algebra.translate`` is swapped for the block (``swaps.swapped``)."""
    from rdflib.plugins.sparql import algebra as rdflib_algebra

    translate: Translation = rdflib_algebra.translate
    if not getattr(translate, "anthology_kg", False):  # (else a block is open)
        translate = _in_scope_projected(translate)
    return swapped(rdflib_algebra, "translate", translate)


@functools.cache
def _in_scope_projected(translate: Translation) -> Translation:
    """rdflib's ``translate`` of a query or sub-SELECT (a parse tree), a ``SELECT *``'s
    projection then the variables in scope of its pattern and VALUES (``_in_scope``)."""
    from rdflib.plugins.sparql.parserutils import CompValue

    def translated(query: CompValue) -> tuple[CompValue | None, list[Variable]]:
        if query.name in ("SelectQuery", "SubSelect"):
            refused = _projection_refused(query)
            if refused is not None:  # (the fast engine's parser refuses it too)
                raise ValueError(refused)
            _grouping_as_sparql_says(query)
        _exists_translated_everywhere(query)
        star = query.name in ("SelectQuery", "SubSelect") and not _child(query, "projection")
        in_scope = _in_scope(query) if star else set()  # (before: translate rewrites it)
        algebra, projected = translate(query)
        if not star or set(projected) == in_scope:
            return algebra, projected
        # rdflib's order (a set's: the answer is put in the text's, in_select_star_order),
        # then a trailing VALUES block's variables, which rdflib left out
        kept = [variable for variable in projected if variable in in_scope]
        projected = kept + sorted(in_scope.difference(kept))
        node: object = algebra
        while isinstance(node, CompValue) and node.name in ("Distinct", "Reduced", "Slice"):
            node = _child(node, "p")
        if isinstance(node, CompValue) and node.name == "Project":
            node["PV"] = projected
        return algebra, projected

    translated.anthology_kg = True  # type: ignore[attr-defined]
    return translated


def _exists_translated_everywhere(query: CompValue) -> None:
    """The pattern of each EXISTS and NOT EXISTS in the expressions of ``query`` (a parse
    tree) rdflib's ``translate`` leaves as written, translated as it translates those of
    a FILTER or a BIND (``algebra.translateExists``): in the projection, GROUP BY, HAVING
    and ORDER BY, where SPARQL 1.1 allows one as any expression (17.4.1.4) and rdflib's
    evaluation met the parse tree ("What do I do with this CompValue?"). Their paths are
    translated first, as ``translate`` does the WHERE clause's."""
    from rdflib.plugins.sparql.algebra import translateExists, translatePath, traverse

    for name in ("projection", "groupby", "having", "orderby"):
        part = _child(query, name)
        if part is not None:
            query[name] = translateExists(traverse(part, visitPost=translatePath))


def _projection_refused(select: CompValue) -> str | None:
    """What is wrong with the projection of ``select`` (a SELECT query or sub-SELECT, a
    parse tree), if SPARQL 1.1 refuses it, as the fast engine's parser does (spargebra's
    ``build_select``): an expression bound to a variable in scope (18.2.1: ``SELECT (2
    AS ?x) WHERE { BIND(1 AS ?x) }``, where rdflib kept the later value), a variable
    projected twice (``SELECT ?x ?x``: rdflib answered with two columns of one name,
    which no result format holds, a traceback), and in a grouped query (``GROUP BY`` or
    an aggregate) ``SELECT *``, a variable that is no key, or an expression reading one
    outside an aggregate, ``BOUND``, ``COALESCE`` or ``EXISTS`` (11.4: rdflib gave a
    sample of its values). In scope there are the pattern's variables and its VALUES'
    (``_in_scope``), or in a grouped query the keys and the VALUES' (``_group_keys``)."""
    projection = cast("list[CompValue] | None", _child(select, "projection"))
    keys = _group_keys(select)
    if not projection:
        if keys is not None:
            return "SELECT * is not allowed with GROUP BY or an aggregate"
        return None
    visible = _in_scope(select) if keys is None else keys
    projected: set[object] = set()
    for item in projection:
        plain = _child(item, "var")
        variable = cast("Variable", plain if plain is not None else _child(item, "evar"))
        if plain is None and variable in visible:
            return f"?{variable} is bound by a SELECT expression where it is in scope already"
        if keys is not None and plain is not None and variable not in keys:
            return f"?{variable} is projected, and is no GROUP BY key"
        if keys is not None and plain is None:
            read = sorted(
                str(node)
                for node in _expression_nodes(_child(item, "expr"), _READ_WHATEVER_THE_GROUP)
                if isinstance(node, Variable) and node not in keys
            )
            if read:
                return f"a SELECT expression reads ?{read[0]}, which is no GROUP BY key"
        if variable in projected:
            return f"?{variable} is projected twice"
        projected.add(variable)
    return None


#: The expressions within which a grouped SELECT's expression may read any variable
#: (spargebra's ``are_variables_bound``): an aggregate's, and these.
_READ_WHATEVER_THE_GROUP = (
    "Builtin_BOUND",
    "Builtin_COALESCE",
    "Builtin_EXISTS",
    "Builtin_NOTEXISTS",
)


def _group_keys(select: CompValue, values: bool = True) -> set[object] | None:
    """The variables a grouped ``select`` (a parse tree with ``GROUP BY``, or with an
    aggregate in its projection, ``HAVING`` or ``ORDER BY``) may project: its ``GROUP
    BY`` variables, those a ``GROUP BY (... AS ?v)`` binds, and (``values``) its
    trailing VALUES block's; None where it is not grouped."""
    from rdflib.plugins.sparql.parserutils import CompValue

    group = _child(select, "groupby")
    keys: set[object] = set()
    if isinstance(group, CompValue):
        for condition in cast("list[object]", _child(group, "condition") or ()):
            if isinstance(condition, Variable):
                keys.add(condition)
            elif isinstance(condition, CompValue) and condition.name == "GroupAs":
                named = _child(condition, "var")
                if named is None:  # (an expression of no variable alone binds none)
                    named = _bare(_child(condition, "expr"))
                if isinstance(named, Variable):
                    keys.add(named)
    else:
        parts = [_child(select, name) for name in ("projection", "having", "orderby")]
        if not any(
            isinstance(node, CompValue) and node.name.startswith("Aggregate_")
            for node in _expression_nodes(parts, ())
        ):
            return None
    if values:
        block = _child(select, "valuesClause")
        keys.update(node for node in algebra_nodes(block) if isinstance(node, Variable))
    return keys


def _grouping_as_sparql_says(select: CompValue) -> None:
    """``select`` (a parse tree) rewritten where rdflib's translation groups otherwise
    than SPARQL 1.1 (11, 18.2.4.1) and the fast engine: each ``GROUP BY (expression)``
    with no ``AS`` is given a variable to bind (the expression's own where it is one:
    ``GROUP BY (?x)`` groups by ``?x``, a key the SELECT may project; else one no query
    can write), where rdflib bound it to None and every such query ended with 'Cannot
    eval thing: None' (exit 2); and in a grouped SELECT's expression, a variable that is
    neither a key nor bound by an earlier expression, read within ``BOUND`` or
    ``COALESCE`` (``_projection_refused`` lets them read any), is one no row binds, as
    after grouping, where rdflib read a sample of its values (``BOUND(?x)`` true); and a
    projected variable of a trailing VALUES block is bound from the block's row, which
    is joined after the grouping (18.2.4.3), where rdflib sampled it before the join and
    gave no row at all."""
    from rdflib.plugins.sparql.parserutils import CompValue

    group = _child(select, "groupby")
    conditions = _child(group, "condition") if isinstance(group, CompValue) else None
    for index, condition in enumerate(conditions if isinstance(conditions, list) else ()):
        if isinstance(condition, CompValue) and condition.name == "GroupAs":
            if _child(condition, "var") is None:
                expression = _bare(_child(condition, "expr"))
                if isinstance(expression, Variable):
                    conditions[index] = expression  # type: ignore[index]
                else:
                    condition["var"] = Variable(f"group-by-{index}")
    keys = _group_keys(select)
    if keys is None:
        return
    grouped = _group_keys(select, values=False) or set()
    for item in cast("list[CompValue]", _child(select, "projection") or ()):
        plain = _child(item, "var")
        if plain is not None and plain in keys and plain not in grouped:
            # A trailing VALUES block's variable, which rdflib sampled before it joined
            # the block, so no row was given: bound from the joined row, as ``(?v AS ?v)``
            # (an expression rdflib does not sample its own variable in).
            del item["var"]
            item["evar"], item["expr"] = plain, plain
        expression = _child(item, "expr")
        for node in _expression_nodes(expression, ()):
            if isinstance(node, CompValue) and node.name in _READ_WHATEVER_THE_GROUP[:2]:
                for inner in _expression_nodes(node, _READ_WHATEVER_THE_GROUP[2:]):
                    if isinstance(inner, CompValue):
                        for name, value in dict.items(inner):
                            if isinstance(value, Variable) and value not in keys:
                                inner[name] = _UNBOUND
                    if isinstance(inner, list):
                        inner[:] = [
                            _UNBOUND if isinstance(v, Variable) and v not in keys else v
                            for v in inner
                        ]
        keys.add(_child(item, "evar") or _child(item, "var"))


#: A variable no query can write, so no row binds it.
_UNBOUND = Variable("unbound-after-grouping")


def _bare(expression: object) -> object:
    """``expression`` (a parse tree's) without the operators of one operand rdflib's
    parser wraps a term in (``(?x)`` is a ``ConditionalOrExpression`` of ... of ``?x``)."""
    from rdflib.plugins.sparql.parserutils import CompValue

    while (
        isinstance(expression, CompValue)
        and expression.name.endswith("Expression")
        and _child(expression, "other") is None
    ):
        expression = _child(expression, "expr")
    return expression


def _expression_nodes(part: object, stop: tuple[str, ...]) -> Iterator[object]:
    """Every node of ``part`` (a parse tree's expressions), but those within an
    aggregate, a sub-SELECT or an expression named in ``stop``."""
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    todo = [part]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, CompValue):
            name = node.name
            if not name.startswith("Aggregate_") and name != "SubSelect" and name not in stop:
                todo.extend(dict.values(node))
        elif isinstance(node, (list, tuple, ParseResults)):
            todo.extend(node)


def _in_scope(select: CompValue) -> set[Variable]:
    """The variables in scope of a ``SELECT *``'s pattern and its VALUES (``select``, a
    parse tree), as SPARQL 1.1 (18.2.1) says: those of its triple patterns, paths, BINDs,
    VALUES blocks and nested groups (OPTIONAL, UNION, GRAPH, SERVICE), and a sub-SELECT's
    projected ones, but none of a FILTER's (its EXISTS patterns included) nor of a
    MINUS's right side."""
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    found: set[Variable] = set()
    todo: list[object] = [_child(select, "where"), _child(select, "valuesClause")]
    while todo:
        node = todo.pop()
        if isinstance(node, Variable):
            found.add(node)
        elif isinstance(node, CompValue):
            if node.name in ("Filter", "MinusGraphPattern"):
                continue
            if node.name == "Bind":
                todo.append(_child(node, "var"))
            elif node.name == "SubSelect":
                projection = cast("list[CompValue] | None", _child(node, "projection"))
                if projection:  # its variables, and the names its expressions are bound to
                    todo.extend(_child(p, "var") or _child(p, "evar") for p in projection)
                else:  # a SELECT * of its own
                    found |= _in_scope(node)
            else:
                todo.extend(dict.values(node))
        elif isinstance(node, (list, tuple, ParseResults)):
            todo.extend(node)
    return found


def algebra_as_sparql_says(algebra: CompValue) -> None:
    """A translated query (``algebra``, parsed in ``parsing_as_sparql_says``) rewritten
    where rdflib would evaluate it otherwise than SPARQL 1.1 and the fast engine: its
    property paths (``paths_as_sparql_says``), its filters' conjuncts before the OPTIONALs
    that cannot change them (``filters_before_optionals``: the same rows), its filters'
    scope (``filters_in_their_groups_scope``), its joins with a BIND on the right
    (``joins_with_binds_marked``), its expressions (``expressions_as_sparql_says``) and
    its empty VALUES blocks (``empty_values_as_no_rows``)."""
    paths_as_sparql_says(algebra)
    filters_before_optionals(algebra)
    filters_in_their_groups_scope(algebra)
    joins_with_binds_marked(algebra)
    expressions_as_sparql_says(algebra)
    empty_values_as_no_rows(algebra)


def _relative_iri(algebra: object) -> str | None:
    """The first IRI of a translated query (``algebra``: its patterns, paths, expressions,
    templates and literals' datatypes) that is no absolute IRI (``terms.is_iri``), if one
    is: rdflib keeps ``<foo>`` as written when no BASE resolves it, which no result
    format nor pyoxigraph's graph can hold (a traceback, exit 1)."""
    from rdflib.paths import Path as RDFPath

    seen: set[str] = set()
    todo = list(algebra_nodes(algebra))
    while todo:
        node = todo.pop()
        if isinstance(node, RDFPath):  # a property path: its steps
            todo.extend(vars(node).values())
        elif isinstance(node, (list, tuple)):
            todo.extend(node)
        elif isinstance(node, Literal) and node.datatype is not None:
            todo.append(node.datatype)
        elif isinstance(node, URIRef) and node not in seen:
            seen.add(node)
            if not is_iri(node):
                return str(node)
    return None


def _negated_inverses_kept() -> contextlib.AbstractContextManager[None]:
    """Within, rdflib's parser keeps the IRI of an inverse member of a negated property
    set (``!(^p)``, ``!^p``) as the ``part`` of its ``InversePath`` node, which it
    dropped (its grammar names no part there); rdflib's grammar element is swapped for
    the block (``swaps.held``), and then left as it was."""
    from rdflib.plugins.sparql import parser

    # iri | A | Comp("InversePath", "^" + (iri | A)): the last is the inverse member
    inverse = getattr(parser.PathOneInPropertySet, "exprs")[-1]  # noqa: B009
    if getattr(inverse, "name", None) != "InversePath":  # another release's grammar
        return contextlib.nullcontext()
    own = vars(inverse)  # the element's own postParse, none (the class's) but in a block

    def write(post_parse: object) -> None:
        if post_parse is None:
            own.pop("postParse", None)
        else:
            own["postParse"] = post_parse

    key = (id(inverse), "postParse")
    return held(key, lambda: own.get("postParse"), write, _inverse_with_its_iri(inverse))


@functools.cache
def _inverse_with_its_iri(inverse: Comp) -> Callable[[str, int, ParseResults], object]:
    """The ``postParse`` of the grammar element ``inverse`` (``^`` and an IRI), its node
    holding the IRI as ``part``."""
    from rdflib.plugins.sparql.parserutils import Comp

    def with_its_iri(text: str, at: int, tokens: ParseResults) -> object:
        node = Comp.postParse(inverse, text, at, tokens)
        node["part"] = tokens[-1]
        return node

    return with_its_iri


def paths_as_sparql_says(algebra: object) -> None:
    """Each property path of a translated query's patterns (``algebra``) evaluated as SPARQL
    1.1 (18.4) says: a negated property set with inverse members written as SPARQL reads
    it, ``!(a|^b)`` as ``!a | ^(!b)`` (rdflib's NegatedPath raised on such a member:
    "Invalid path in NegatedPath", exit 2), and a ``*``, ``+`` or ``?`` path giving each
    pair of nodes once, whatever term an end is bound to (``_EachPairOnce``)."""
    from rdflib.plugins.sparql.parserutils import CompValue

    for node in algebra_nodes(algebra):
        if isinstance(node, CompValue) and node.name == "BGP":
            triples = _child(node, "triples")
            if isinstance(triples, list):
                triples[:] = [(s, _path_as_sparql_says(p), o) for s, p, o in triples]


def _path_as_sparql_says(path: PathOrIRI) -> PathOrIRI:
    """``path`` as ``paths_as_sparql_says`` rewrites it (an IRI or variable as it is)."""
    from rdflib.paths import AlternativePath, InvPath, MulPath, NegatedPath, SequencePath
    from rdflib.plugins.sparql.parserutils import CompValue

    if isinstance(path, (SequencePath, AlternativePath)):
        path.args = [_path_as_sparql_says(arg) for arg in path.args]
    elif isinstance(path, InvPath):
        path.arg = _path_as_sparql_says(path.arg)
    elif isinstance(path, MulPath):
        path.path = _path_as_sparql_says(path.path)
        if not isinstance(path, _EachPairOnce):
            return _EachPairOnce(path.path, path.mod)
    elif isinstance(path, NegatedPath):
        # The inverse members are the parser's InversePath nodes (_negated_inverses_kept)
        members: list[object] = list(path.args)
        inverse = [
            cast("PathOrIRI", _child(arg, "part")) for arg in members if isinstance(arg, CompValue)
        ]
        if not inverse:
            return path
        forward = [arg for arg in path.args if not isinstance(arg, CompValue)]
        parts: list[PathOrIRI] = [NegatedPath(AlternativePath(*forward))] if forward else []
        parts.append(InvPath(NegatedPath(AlternativePath(*inverse))))
        return AlternativePath(*parts) if len(parts) > 1 else parts[0]
    return path


class _EachPairOnce(MulPath):
    """rdflib's ``p*``, ``p+`` or ``p?`` (a MulPath), each pair of nodes given once, as
    SPARQL 1.1's ALP procedure (18.4, its ``visited`` set) and the fast engine give them.
    From a bound end rdflib gave the zero-length pair, then again when a cycle led back to
    it (``ex:a ex:p* ?y`` over ``ex:a ex:p ex:b . ex:b ex:p ex:a`` gave ``ex:a`` twice,
    ``ex:a ex:p? ?y`` over ``ex:a ex:p ex:a`` too), and it took an end bound to a literal
    of false value (``0``, ``""``, ``false``) for an unbound one (``?x ex:p+ 0`` walked
    the whole graph and gave a node once for each way back to it): such a walk is
    ``_reached``'s. With both ends unbound, rdflib's, its pairs given once."""

    def eval(
        self,
        graph: Graph,
        subj: Node | None = None,
        obj: Node | None = None,
        first: bool = True,
    ) -> Generator[tuple[Node, Node], None, None]:
        if subj is not None:
            for node in self._reached(graph, subj, forward=True):
                if obj is None or node == obj:
                    yield subj, node
        elif obj is not None:
            for node in self._reached(graph, obj, forward=False):
                yield node, obj
        else:
            given: set[tuple[Node, Node]] = set()
            for pair in super().eval(graph, subj, obj, first):
                if pair not in given:
                    given.add(pair)
                    yield pair

    def _reached(self, graph: Graph, start: Node, forward: bool) -> Iterator[Node]:
        """Each node the path reaches from ``start`` (``forward``: as its subject, else
        as its object, walking back), once: ``start`` first where the path may be of
        zero length, and otherwise only if a cycle leads back to it."""
        from rdflib.paths import eval_path

        visited: set[Node] = set()
        if self.zero:
            visited.add(start)
            yield start
        todo = [start]
        while todo:
            node = todo.pop()
            pattern = (node, self.path, None) if forward else (None, self.path, node)
            for subject, object_ in eval_path(graph, pattern):
                reached = object_ if forward else subject
                if reached not in visited:
                    visited.add(reached)
                    yield reached
                    if self.more:
                        todo.append(reached)


def empty_values_as_no_rows(algebra: object) -> None:
    """Each ``VALUES ?v { }`` of a translated query (``algebra``) a VALUES block of no rows,
    which matches nothing (SPARQL 1.1, 18.2.4.3): rdflib's translation left an empty list
    where its evaluation reads a ``values`` node ("'list' object has no attribute
    'name'", exit 2)."""
    from rdflib.plugins.sparql.parserutils import CompValue

    for node in list(algebra_nodes(algebra)):
        if isinstance(node, CompValue) and node.name == "ToMultiSet":
            rows = _child(node, "p")
            if isinstance(rows, list) and not rows:
                node["p"] = CompValue("values", res=[], _vars=set())


#: The solution modifiers between a query's form and its pattern, each over one part (p).
_MODIFIERS = frozenset({"Distinct", "Reduced", "Project", "OrderBy", "Slice"})


def filters_before_optionals(algebra: CompValue) -> None:
    """Move the outermost group's FILTER before its OPTIONALs where it reads nothing an
    OPTIONAL could bind that the patterns before do not bind already, conjunct by
    conjunct: the same rows.

    rdflib evaluates a group's filter on the group's rows once its OPTIONALs have joined
    them (``Filter(LeftJoin(A, B))``), so the stored ``reproducibility`` query followed
    its chains of ``ak:restsOn`` from every typed node of the anthology and its ontology
    before its filter kept the claims (0.25 s of CPU on a fixture of three entries), and
    rule 9's query, run by pySHACL for every focus node, looked up an identifier for
    every triple of the node before its ``isIRI(?value)`` dropped most of them.
    ``LeftJoin(Filter(A), B)`` keeps the same rows of A, each joined with B as before,
    when every variable of the filter (its EXISTS patterns included) that B mentions is
    one A always binds. A filter is a conjunction (rdflib joins a group's FILTERs with
    ``&&``): a row is kept when every conjunct is true (false, or an error, drops it),
    whichever filter tests which conjunct, so the conjuncts that may move, up to the
    first that may not, go below the OPTIONAL as a filter of their own and the others
    stay above it: each conjunct is still tested only once those written before it
    held (rule 9 tests ``!BOUND(?identifier)`` before its costlier NOT EXISTS). Only in the
    outermost group, whose filter sees no bindings from outside but the query's initial
    ones, which rdflib keeps wherever the filter is."""
    from rdflib.plugins.sparql.parserutils import CompValue

    parent, key = algebra, "p"
    node = _child(parent, key)
    while isinstance(node, CompValue) and node.name in _MODIFIERS:
        parent, key = node, "p"
        node = _child(parent, key)
    if not (isinstance(node, CompValue) and node.name == "Filter"):
        return
    conjuncts = _conjuncts(_child(node, "expr"))
    optional = _child(node, "p")
    while isinstance(optional, CompValue) and optional.name == "LeftJoin":
        before = _child(optional, "p1")
        if not isinstance(before, CompValue):
            return
        joined, bound = _variables(_child(optional, "p2")), _bound(before)
        movable = [_variables(c) & joined <= bound for c in conjuncts]
        count = movable.index(False) if False in movable else len(movable)
        if count == 0:
            return
        moving, staying = conjuncts[:count], conjuncts[count:]
        if staying:  # a filter of the conjuncts that move, below; the rest stay
            node["expr"] = _conjunction(staying)
            node = CompValue("Filter", expr=_conjunction(moving))
        else:
            parent[key] = optional
        optional["p1"] = node
        node["p"] = before
        # rdflib reads a LeftJoin's p1._vars (the variables its rows may bind) when a row
        # finds no match: the filter's rows bind those of the patterns it now filters.
        node["_vars"] = _child(before, "_vars")
        parent, key, conjuncts = optional, "p1", moving
        optional = before


def filters_in_their_groups_scope(algebra: object) -> None:
    """Each FILTER of a translated query (``algebra``) sees the variables in scope of its
    own group (SPARQL 1.1, 18.2.2: a filter is evaluated on its group's solutions), not an
    outer group's.

    rdflib evaluates a join lazily, the right side's patterns with the left side's row
    bound, so a filter of an inner group (``{ ?x ex:p ?v { ?y ex:q ?w FILTER(!BOUND(?x)) }
    }``), a UNION branch or a sub-SELECT saw the outer ``?x``; its ``evalFilter`` forgets
    the bindings from outside but those of the filter's ``_vars``, which rdflib's
    translation makes every variable written in the filter and its pattern (but those in
    a comparison). ``_vars`` becomes the variables in scope of the filter's pattern
    (``_in_scope_of``), so an outer group's are forgotten (the query's initial bindings,
    such as pySHACL's ``$this``, rdflib keeps in any case). A filter within an EXISTS
    pattern also sees the row the EXISTS is asked of (the variables in scope where it is
    asked, ``rows``), as SPARQL's substitution of that row into the pattern makes it
    (18.6): ``FILTER EXISTS { ?y ex:q ?w { ?z ex:r ?u FILTER(BOUND(?x)) } }`` was false
    where ?x is bound; but not the left row of an OPTIONAL in the pattern, which rdflib
    binds while it evaluates the right side. So does an OPTIONAL's own filter there
    (``OPTIONAL { ... FILTER(...) }``, the condition of its LeftJoin): the LeftJoin
    holds the variables of that row as ``exists_rows``, which ``left_join`` keeps."""
    from rdflib.plugins.sparql.parserutils import CompValue

    # The nodes are visited outer first: an EXISTS within an EXISTS adds to the rows.
    rows: dict[int, set[object]] = {}
    for node in algebra_nodes(algebra):
        if not isinstance(node, CompValue) or "expr" not in node:
            continue
        asked = rows.get(id(node), set()) | (
            _in_scope_of(_child(node, "p"))
            if "p" in node
            else _in_scope_of(_child(node, "p1")) | _in_scope_of(_child(node, "p2"))
        )
        for exists in algebra_nodes(_child(node, "expr")):
            if isinstance(exists, CompValue) and exists.name in _EXISTS:
                for inner in algebra_nodes(vars(exists).get("graph")):
                    rows[id(inner)] = rows.get(id(inner), set()) | asked
    for node in algebra_nodes(algebra):
        if isinstance(node, CompValue) and node.name == "Filter":
            node["_vars"] = _in_scope_of(_child(node, "p")) | rows.get(id(node), set())
        elif isinstance(node, CompValue) and node.name == "LeftJoin" and id(node) in rows:
            vars(node)["exists_rows"] = frozenset(rows[id(node)])


def left_join(ctx: QueryContext, join: CompValue) -> Generator[FrozenBindings, None, None]:
    """For rdflib's ``evaluate.evalLeftJoin`` (an OPTIONAL: each row of its left side
    joined with each of its right side's its condition holds for, else kept alone),
    rdflib's, but its condition sees the row an EXISTS is asked of where the OPTIONAL is
    within the EXISTS's pattern (``exists_rows``, ``filters_in_their_groups_scope``), as
    SPARQL's substitution of that row makes it (18.6): rdflib forgot every binding made
    before the OPTIONAL but the query's initial ones, so ``FILTER EXISTS { ... OPTIONAL
    { ... FILTER(?x = 1) } ... }`` never saw ``?x``. And a right row whose BIND gave a
    variable of the left row another value joins none (``joins_with_binds_marked``)."""
    from rdflib.plugins.sparql.evaluate import evalPart

    from .sparql_logic import holds

    rows = vars(join).get("exists_rows")
    rebinds = vars(join).get("rebinds")
    for left in evalPart(ctx, join.p1):
        matched = False
        for right in evalPart(ctx.thaw(left), join.p2):
            if rebinds and _rebound(left, right, rebinds):
                continue
            if holds(join.expr, right.forget(ctx, _except=rows)):
                matched = True
                yield right.merge(left)
        if not matched:
            # (rdflib's: the right side was evaluated with the left row and the bindings
            # from outside; a row is kept alone only if it has no match with the left
            # row's own variables either, and the EXISTS's row)
            own = join.p1._vars
            if own is None or not any(
                holds(join.expr, right) and not (rebinds and _rebound(left, right, rebinds))
                for right in evalPart(ctx.thaw(left.remember(own | (rows or set()))), join.p2)
            ):
                yield left


def joins_with_binds_marked(algebra: object) -> None:
    """Each lazy join and OPTIONAL of a translated query (``algebra``) whose right side
    binds a variable by a BIND holds those variables as ``rebinds``, which ``lazy_join``
    and ``left_join`` read; each sub-SELECT (rdflib's ``ToMultiSet`` of a query) holds
    the variables it projects as ``projected``, which ``sub_select`` reads."""
    from rdflib.plugins.sparql.parserutils import CompValue

    for node in algebra_nodes(algebra):
        if not isinstance(node, CompValue):
            continue
        if node.name == "ToMultiSet":
            below = _child(node, "p")
            while isinstance(below, CompValue) and below.name in _MODIFIERS - {"Project"}:
                below = _child(below, "p")
            if isinstance(below, CompValue) and below.name == "Project":
                vars(node)["projected"] = tuple(cast("list[Variable]", _child(below, "PV") or ()))
            continue
        if node.name not in ("Join", "LeftJoin"):
            continue
        if node.name == "Join" and not _child(node, "lazy"):
            continue
        rebinds = {
            _child(inner, "var")
            for inner in algebra_nodes(_child(node, "p2"))
            if isinstance(inner, CompValue) and inner.name == "Extend"
        }
        if rebinds:
            vars(node)["rebinds"] = frozenset(rebinds)


def sub_select(ctx: QueryContext, part: CompValue) -> Iterable[FrozenBindings]:
    """For rdflib's ``evaluate.evalMultiset`` (a VALUES block or a sub-SELECT), rdflib's,
    but a sub-SELECT is evaluated with the values of the outer row (rdflib's lazy join
    and OPTIONAL bind it) of the variables it projects only, and the query's initial
    ones (a shape's ``$this``): those it does not project are its own (SPARQL 1.1,
    18.2.1), where rdflib read the outer row's, so ``VALUES ?x {1 2} { SELECT (COUNT(*)
    AS ?n) { VALUES ?x {1 2 3} } }`` counted 1 where SPARQL and the fast engine count 3.
    (A projected variable's value still restricts it: the same rows, once joined.)"""
    from rdflib.plugins.sparql.evaluate import evalPart, evalValues
    from rdflib.plugins.sparql.sparql import Bindings

    if part.p.name == "values":
        return cast("Iterable[FrozenBindings]", evalValues(ctx, part))
    projected = vars(part).get("projected")
    if projected is not None:
        inner = ctx.clone()
        inner.bindings = Bindings(d={v: ctx[v] for v in projected if ctx[v] is not None})
        inner.bindings.update(ctx.initBindings or {})
        ctx = inner
    return cast("Iterable[FrozenBindings]", evalPart(ctx, part.p))


def _rebound(left: FrozenBindings, right: FrozenBindings, rebinds: frozenset[Variable]) -> bool:
    """Whether the row ``right``, evaluated with ``left`` bound, gives one of ``rebinds``
    (the variables its BINDs bind) a value other than ``left``'s: no join of the two."""
    return any(
        variable in left and left[variable] != right.get(variable, left[variable])
        for variable in rebinds
    )


def lazy_join(ctx: QueryContext, join: CompValue) -> Generator[FrozenBindings, None, None]:
    """For rdflib's ``evaluate.evalLazyJoin`` (a join whose right side is evaluated with
    each left row bound), rdflib's, but a right row whose BIND gave a variable of the
    left row another value joins no row, as SPARQL 1.1 joins only compatible solutions
    (18.2.2, 18.5): rdflib's BIND kept the left value over its own, so ``?s ?p ?o {
    BIND(rdf:type AS ?p) }`` gave every triple, and ``{ BIND(1 AS ?x) } { BIND(2 AS ?x)
    }`` a row. Only a join ``joins_with_binds_marked`` marked checks its rows."""
    from rdflib.plugins.sparql.evaluate import evalPart

    rebinds = vars(join).get("rebinds")
    for left in evalPart(ctx, join.p1):
        for right in evalPart(ctx.thaw(left), join.p2):
            if not (rebinds and _rebound(left, right, rebinds)):
                yield right.merge(left)  # (rdflib's: a binding the right side forgot comes back)


_EXISTS = ("Builtin_EXISTS", "Builtin_NOTEXISTS")


def _in_scope_of(part: object) -> set[object]:
    """The variables in scope of the translated pattern ``part`` (SPARQL 1.1, 18.2.1: a
    BGP's and its paths', both sides of a join, OPTIONAL or UNION, a MINUS's left side,
    a filter's pattern's, a BIND's and a GRAPH's, a VALUES block's, a sub-SELECT's
    projection; blank nodes of a pattern with them, as rdflib binds them); rdflib's
    ``_vars`` (every variable it holds) for any other node."""
    from rdflib.plugins.sparql.parserutils import CompValue

    if not isinstance(part, CompValue):
        return set()
    name = part.name
    if name == "BGP":
        return _bgp_terms(part)
    if name in ("Join", "LeftJoin", "Union"):
        return _in_scope_of(_child(part, "p1")) | _in_scope_of(_child(part, "p2"))
    if name == "Minus":
        return _in_scope_of(_child(part, "p1"))
    if name in ("Filter", "ToMultiSet", "Distinct", "Reduced", "Slice", "OrderBy"):
        return _in_scope_of(_child(part, "p"))
    if name in ("Extend", "Graph"):
        named = _child(part, "var" if name == "Extend" else "term")
        found = _in_scope_of(_child(part, "p"))
        return found | {named} if isinstance(named, Variable) else found
    if name == "Project":
        return set(cast("list[Variable]", _child(part, "PV") or ()))
    if name == "values":
        rows = _child(part, "res")
        return {v for row in (rows if isinstance(rows, list) else ()) for v in row}
    return set(cast("set[object]", _child(part, "_vars") or ()))


def _conjuncts(expression: object) -> list[object]:
    """The operands of a ``&&`` (``expression`` alone for any other expression)."""
    from rdflib.plugins.sparql.parserutils import Expr

    if isinstance(expression, Expr) and expression.name == "ConditionalAndExpression":
        other = _child(expression, "other")
        if isinstance(other, list) and other:
            return [_child(expression, "expr"), *other]
    return [expression]


def _conjunction(conjuncts: list[object]) -> object:
    """The ``&&`` of ``conjuncts`` as rdflib writes it (one conjunct: itself)."""
    from rdflib.plugins.sparql.operators import ConditionalAndExpression
    from rdflib.plugins.sparql.parserutils import Expr

    if len(conjuncts) == 1:
        return conjuncts[0]
    first, *other = conjuncts
    joined = Expr("ConditionalAndExpression", ConditionalAndExpression, expr=first, other=other)
    found: set[object] = set()
    for conjunct in conjuncts:
        found |= set(getattr(conjunct, "_vars", None) or ())
    joined["_vars"] = found
    return joined


def _child(node: CompValue, key: str) -> object:
    """The part ``key`` of an algebra node as it is held (``CompValue.get`` would
    evaluate it)."""
    return dict.get(node, key)


def _variables(part: object) -> set[object]:
    """Every variable (and blank node, which a pattern reads as one) anywhere in ``part``,
    an algebra node or an expression, its nested patterns included."""
    return {node for node in algebra_nodes(part) if isinstance(node, (Variable, BNode))}


def algebra_nodes(part: object) -> Iterator[object]:
    """Every node of ``part``, a translated query's algebra or an expression, each once,
    ``part`` first: its patterns, expressions and terms, nested ones included (the
    variables of a VALUES block too, the translated pattern of an EXISTS), but not the
    variables rdflib notes a node binds (``_vars``). A node's own are read after the
    caller had it, which may rewrite them (``expressions_as_sparql_says``)."""
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    todo, seen = [part], set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        if isinstance(node, dict):
            # An EXISTS's pattern: rdflib's translation sets it as the node's attribute,
            # which its evaluation reads, and leaves the parse tree as its item.
            pattern = vars(node).get("graph") if isinstance(node, CompValue) else None
            if pattern is not None:
                todo.append(pattern)
            todo.extend(
                v for k, v in node.items() if k != "_vars" and (k != "graph" or pattern is None)
            )
            if not isinstance(node, CompValue):  # a VALUES row: {variable: term}
                todo.extend(node)
        elif isinstance(node, (list, tuple, set, frozenset, ParseResults)):
            todo.extend(node)


def _bgp_terms(bgp: CompValue) -> set[object]:
    """The variables and blank nodes of a translated BGP's triples (rdflib binds both)."""
    triples = _child(bgp, "triples")
    return {
        term
        for triple in (triples if isinstance(triples, list) else ())
        for term in triple
        if isinstance(term, (Variable, BNode))
    }


def _bound(part: object) -> set[object]:
    """The variables every row of the pattern ``part`` binds (a BGP's, those of the left
    side of an OPTIONAL, both sides of a join, a filter's pattern's); none for any other."""
    from rdflib.plugins.sparql.parserutils import CompValue

    if not isinstance(part, CompValue):
        return set()
    if part.name == "BGP":
        return _bgp_terms(part)
    if part.name in ("Filter", "LeftJoin"):
        return _bound(_child(part, "p" if part.name == "Filter" else "p1"))
    if part.name == "Join":
        return _bound(_child(part, "p1")) | _bound(_child(part, "p2"))
    return set()


def prepare(text: str, source: str | Path | None = None) -> Query:
    """``text`` as rdflib's prepared query; a syntax error is an AnthologyError, its
    first one as the fast engine says it: a prefix no PREFIX declares written before
    rdflib's error is said in its place (``sparql_text.undeclared_prefix_error``), and
    a common mistake (a triple pattern lacking its object: rdflib says 'Expected
    SelectQuery') in words at its place (``sparql_text.common_mistake``)."""
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import expandUnicodeEscapes

    try:
        return _prepared(text, bool(rdflib.NORMALIZE_LITERALS))
    except ParseException as exc:  # where, as the fast engine says it (sparql_text.sparql_error)
        update = update_error(text)
        if update is not None:
            raise _syntax_error(*update, source) from None
        first = next(iter(undeclared_prefixes(text).values()), None)
        undeclared = None
        # (rdflib parses the text with its \u escapes read: its offsets are of that text)
        if first is not None and len(expandUnicodeEscapes(text[:first])) < exc.loc:
            undeclared = undeclared_prefix_error(text)
        if undeclared is None:
            undeclared = common_mistake(text)  # ("Expected SelectQuery": no reason)
        if undeclared is None:
            line, column = _place_within(text, exc)
            message = f"SPARQL syntax error at column {column}: {exc.msg}"
            raise AnthologyError(message, source, line) from None
        raise _syntax_error(*undeclared, source) from None
    except Exception as exc:
        undeclared = undeclared_prefix_error(text)  # (rdflib: "Unknown namespace prefix : ex")
        if undeclared is None:
            raise AnthologyError(f"SPARQL syntax error: {_first_line(exc)}", source) from None
        raise _syntax_error(*undeclared, source) from None


def syntax_error_place(text: str) -> tuple[int, int] | None:
    """Where rdflib's SPARQL grammar finds the query ``text`` at fault: the line and
    column (``_written_place``) of the construct it could not read, the triple or clause
    the error is in; None where it reads the text whole. For the fast engine, whose
    parser places most errors where it stopped reading (``sparql_text.sparql_error``)."""
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        parseQuery(text)
    except ParseException as exc:
        return _place_within(text, exc)
    except Exception:  # (a text rdflib's grammar takes and then refuses: no place)
        return None
    return None


def _place_within(text: str, exc: ParseException) -> tuple[int, int]:
    """``_written_place`` of rdflib's parse error ``exc`` in ``text``, placed within the
    group the error is in: pyparsing places an error inside an OPTIONAL, a sub-SELECT
    or an EXISTS at the opening of the outer construct (the alternative it backtracked
    to), so the group that construct opens is parsed alone, as written where it is
    (``sparql_text.inner_group_probe``), and its error's place taken, as deep as it goes.
    A place past the text's last character that is no blank (an unclosed group: the
    line after the last) is at the end of that character, a line the text has."""
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery

    line, column = _written_place(text, exc)
    for _ in range(_DEEPEST):
        probe = inner_group_probe(text, line, column)
        if probe is None:
            break
        try:
            parseQuery(probe)
        except ParseException as inner:
            there = _written_place(probe, inner)
        except Exception:  # (rdflib's grammar takes it: the error is not within)
            break
        else:
            break
        if there <= (line, column):
            break
        line, column = there
    offset = offset_of(text, line, column)
    if offset is None or offset > len(text.rstrip()):
        return text_end(text)
    return line, column


#: How many groups deep ``_place_within`` looks for an error's place.
_DEEPEST = 16


def _written_place(text: str, exc: ParseException) -> tuple[int, int]:
    """The line and column of rdflib's parse error ``exc`` in ``text`` as written, as
    pyoxigraph counts them: pyparsing gives the column of the line with its tabs expanded
    (to every eighth column), here counted one character each. In a text with a ``\\u``
    escape (rdflib reads it with its escapes replaced) the place is pyparsing's."""
    lines = text.split("\n")
    if exc.lineno > len(lines) or "\\u" in text or "\\U" in text:
        return exc.lineno, exc.col
    written, width = lines[exc.lineno - 1], 0
    for column, character in enumerate(written, 1):
        if width >= exc.col - 1:
            return exc.lineno, column
        width = (width // 8 + 1) * 8 if character == "\t" else width + 1
    return exc.lineno, len(written) + 1


def _syntax_error(
    said: str, line: int | None, column: int | None, source: str | Path | None
) -> AnthologyError:
    """A syntax error ``said`` at ``line`` and ``column`` of ``source`` (none: the text's
    as a whole), as the fast engine says one (``sparql_text.sparql_error``)."""
    if line is None:
        return AnthologyError(f"SPARQL syntax error: {said}", source)
    return AnthologyError(f"SPARQL syntax error at column {column}: {said}", source, line)


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


def evaluate(
    graph: Graph,
    text: str,
    bindings: Mapping[str, Node] | None = None,
    source: str | Path | None = None,
) -> QueryResult:
    """Run ``text`` on ``graph`` with rdflib and return its answer.

    ``bindings`` go in as rdflib's initBindings: rdflib mis-evaluates a VALUES block
    followed by an OPTIONAL that binds the same variable, initBindings it gets right.
    They are the values the fast engine's VALUES block takes (``check_bindings``): no
    blank node.
    """
    check_bindings(bindings or {})
    prepared = prepare(text, source)
    kind = _kind(prepared)
    terms = cast("dict[str, Identifier]", dict(bindings or {}))
    refused = _refused_call(prepared)
    if refused is not None:  # (in the fast engine's words)
        raise AnthologyError(f"query failed: {refused}", source)
    try:
        with _errors_as_sparql_says():
            result = graph.query(prepared, initBindings=terms)
            # rdflib evaluates as the answer is read: its errors come from reading it
            # too (a SUM of words).
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
            if _is_rdf_triple(triple):
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


def _is_rdf_triple(triple: tuple[Node, Node, Node]) -> bool:
    """Whether a triple rdflib's CONSTRUCT made is one RDF allows: SPARQL 1.1 (16.2)
    leaves out a template's triple with a literal subject or a predicate that is no IRI,
    which rdflib kept (and pyoxigraph's graph then refused: a traceback, exit 1)."""
    subject, predicate, _ = triple
    return isinstance(subject, (URIRef, BNode)) and isinstance(predicate, URIRef)


def expressions_as_sparql_says(algebra: object) -> None:
    """Give each expression of a translated query (``algebra``: its filters, binds,
    projections, orderings and the patterns of its EXISTS) that rdflib evaluates
    otherwise than SPARQL 1.1 and the fast engine the evaluation ``_evaluations`` has for
    it, and put the operands of each ``||`` with an EXISTS last (``_exists_last``).
    rdflib binds an expression's function to the node when it parses it, so only this
    query's nodes are bound: no other user of rdflib is touched. Every query rdflib
    evaluates here is prepared by ``_prepared`` or, pySHACL's, by
    ``reference_shacl._prepare``, both binding these, so rdflib's own REGEX (Python's
    backtracking ``re``) is never reached."""
    from rdflib.plugins.sparql.parserutils import Expr

    evaluations = _evaluations()
    for node in algebra_nodes(algebra):
        if not isinstance(node, Expr):
            continue
        evaluation = evaluations.get(node.name)
        if evaluation is None:
            continue
        if node.name == "ConditionalOrExpression":
            _exists_last(node)
        node._evalfn = MethodType(evaluation, node)


@functools.cache
def _evaluations() -> dict[str, Evaluation]:
    """The evaluation of each expression, by rdflib's name of it, that rdflib gets wrong:
    ``&&`` and ``||`` (``sparql_logic``: SPARQL 17.2's values, where rdflib's raised at
    the first error, and its operands evaluated up to the deciding one), the
    ``RelationalExpression`` (``IN`` and ``NOT IN`` by 17.4.1.9-10, where rdflib compared
    terms; ``=``, ``<`` and the others the fast engine's), ``+``, ``-``, ``*`` and ``/``
    (``sparql_logic.arithmetic``: the fast engine's), the functions of
    ``_FAST_ENGINE_FUNCTIONS`` as the fast engine evaluates them
    (``_as_the_fast_engine``), ``IRI`` and ``URI`` (``_absolute_iri``), ``COALESCE``
    (``_coalesce``), the casts (``_cast_or_function``), ``STR`` (``_string``),
    ``sameTerm`` (``_same_term``), and ``!`` and ``IF`` (``sparql_logic.negation``,
    ``conditional``: SPARQL's effective boolean value, where rdflib's made an ill-typed
    number an error)."""
    from .sparql_logic import and_in_order, arithmetic, conditional, negation, or_in_order, relation

    return {
        "ConditionalAndExpression": and_in_order,
        "ConditionalOrExpression": or_in_order,
        "RelationalExpression": relation,
        "AdditiveExpression": arithmetic,
        "MultiplicativeExpression": arithmetic,
        **dict.fromkeys(_FAST_ENGINE_FUNCTIONS, _as_the_fast_engine),
        "Builtin_IRI": _absolute_iri,
        "Builtin_URI": _absolute_iri,
        "Builtin_COALESCE": _coalesce,
        "Function": _cast_or_function,
        "Builtin_STR": _string,
        "Builtin_sameTerm": _same_term,
        "UnaryNot": negation,
        "Builtin_IF": conditional,
    }


def order_key(term: object) -> tuple[int, object]:
    """For rdflib's ``evalutils._val`` (the key of ``ORDER BY``, ``MIN`` and ``MAX``):
    SPARQL 1.1's order (15.1) of no value (an unbound variable, or an expression's
    error), blank nodes, IRIs and literals, the literals as rdflib's ``<`` orders them
    (numbers, strings, booleans and date-times by value, as 15.1 says; rdflib's own
    order elsewhere, where SPARQL gives none), and NaN, which no number is ``<`` or ``>``
    of, last: after the numbers, as the fast engine places it. rdflib's key of an error
    was None, which no key compares with (``ORDER BY (?v + 1)`` over a word ended the
    query: "'<' not supported between instances of 'NoneType' and 'tuple'", exit 2),
    and its ``<`` of a decimal and NaN raised decimal.InvalidOperation ("query failed:
    [<class 'decimal.InvalidOperation'>]"), and put a double NaN anywhere."""
    if isinstance(term, Literal):
        value = term.value
        if isinstance(value, float) and value != value:
            return (4, "")
        return (3, term)
    if isinstance(term, URIRef):
        return (2, term)
    if isinstance(term, BNode):
        return (1, term)
    return (0, "")  # (an unbound variable, or an expression's error: SPARQLError)


def _exists_last(disjunction: Expr) -> None:
    """Put the operands of ``||`` that hold an EXISTS after the others: rule 9's ``NOT
    EXISTS { ?value ?p ?o } || ?path IN (...)`` then reads the graph only for a path
    not in the list. The same value or error: ``or_in_order`` is true if an operand
    is, else raises if one does, whatever their order (only which of two errors is
    raised may change, and an error's text is never shown)."""
    other = OrderedDict.get(disjunction, "other")
    if not isinstance(other, list) or not other:
        return
    operands = [OrderedDict.__getitem__(disjunction, "expr"), *other]
    ordered = sorted(operands, key=_holds_exists)  # stable: the order written otherwise
    if any(a is not b for a, b in zip(ordered, operands, strict=True)):
        disjunction["expr"], disjunction["other"] = ordered[0], ordered[1:]


def _holds_exists(part: object) -> bool:
    """Whether an expression has an EXISTS or NOT EXISTS anywhere in it."""
    from rdflib.plugins.sparql.parserutils import Expr

    return any(
        isinstance(node, Expr) and node.name in ("Builtin_EXISTS", "Builtin_NOTEXISTS")
        for node in algebra_nodes(part)
    )


#: The SPARQL functions rdflib gets wrong that the reference engine has pyoxigraph
#: evaluate, as on the fast engine: rdflib's name of each, pyoxigraph's, and the names of
#: its arguments (the last optional for REGEX, REPLACE and SUBSTR). rdflib's REGEX and
#: REPLACE matched with Python's backtracking re (out of reach of --timeout), REGEX
#: dropped the flags x and q and REPLACE read the flags as re.sub's count ("i": the first
#: two matches, case kept); SUBSTR sliced as Python does (SUBSTR("abcde", 0) was "e") and
#: ended the query at a decimal position; TIMEZONE dropped the minutes; STRDT and
#: STRLANG made a term of any argument, or ended the query; MD5 and the SHA functions
#: hashed a language-tagged literal's text (SPARQL: an error); YEAR, MONTH, DAY, HOURS,
#: MINUTES, SECONDS and TZ ended the query ("'Literal' object has no attribute 'year'")
#: at a date-time Python's datetime does not hold (year -44, 0 or 99999, T24:00:00).
_FAST_ENGINE_FUNCTIONS = {
    "Builtin_REGEX": ("REGEX", ("text", "pattern", "flags")),
    "Builtin_REPLACE": ("REPLACE", ("arg", "pattern", "replacement", "flags")),
    "Builtin_SUBSTR": ("SUBSTR", ("arg", "start", "length")),
    "Builtin_TIMEZONE": ("TIMEZONE", ("arg",)),
    "Builtin_STRDT": ("STRDT", ("arg1", "arg2")),
    "Builtin_STRLANG": ("STRLANG", ("arg1", "arg2")),
    **{
        f"Builtin_{name}": (name, ("arg",))
        for name in ("MD5", "SHA1", "SHA256", "SHA384", "SHA512")
        + ("YEAR", "MONTH", "DAY", "HOURS", "MINUTES", "SECONDS", "TZ")
    },
}


def _as_the_fast_engine(expression: Expr, ctx: object) -> Node:
    """The value of the function call ``expression`` (its arguments evaluated as rdflib
    evaluates them): pyoxigraph's of the same terms (``linear_regex.evaluated``), its
    error an expression error (SPARQLError), as rdflib's other functions raise theirs."""
    from rdflib.plugins.sparql.sparql import SPARQLError

    function, names = _FAST_ENGINE_FUNCTIONS[expression.name]
    arguments = [getattr(expression, name) for name in names if name in expression]
    # An argument's own error (rdflib hands it over as a value), a blank node: an error
    # for each of these functions, as for pyoxigraph.
    if not all(isinstance(argument, (Literal, URIRef)) for argument in arguments):
        raise SPARQLError(f"{function} of a term it does not take: {arguments}")
    answer = linear_regex.evaluated(function, tuple(nt_term(argument) for argument in arguments))
    if answer is None:
        raise SPARQLError(f"{function} gives an error for {arguments}")
    return from_ox(answer)


#: The datatypes SPARQL 1.1 (17.5) casts to, which rdflib registers casts for: pyoxigraph's
#: are used (``_cast_or_function``), as for every function rdflib does not know.
_CASTS = frozenset(
    f"http://www.w3.org/2001/XMLSchema#{name}"
    for name in ("string", "boolean", "integer", "decimal", "float", "double", "dateTime")
)


def _rdflibs(iri: str) -> bool:
    """Whether a call of ``iri`` is rdflib's own: a function registered with rdflib
    (``register_custom_function``) that is no cast of ``_CASTS``."""
    from rdflib.plugins.sparql.operators import _CUSTOM_FUNCTIONS

    return iri not in _CASTS and URIRef(iri) in _CUSTOM_FUNCTIONS


#: An empty store, only read, on which pyoxigraph says which calls it takes.
_CALLS = ox.Store()


@functools.lru_cache(maxsize=256)
def _fast_engine_refusal(iri: str, arity: int) -> str | None:
    """pyoxigraph's reason to refuse a call of the function ``iri`` with ``arity``
    arguments ("The custom function <...> is not supported", or "requires between 1
    and 1 arguments, but 2 were given"), as the fast engine's refuses such a query;
    None for a call it takes: a cast (SPARQL 17.5's and pyoxigraph's: ``xsd:date``,
    ``xsd:gYear``, durations) or another function it knows (GeoSPARQL's). Asked once
    per process of each."""
    arguments = ", ".join(["1"] * arity)
    try:
        _CALLS.query(f"SELECT (<{iri}>({arguments}) AS ?v) {{}}")
    except (RuntimeError, SyntaxError) as error:
        return str(error)
    return None


def _cast_or_function(expression: Expr, ctx: QueryContext) -> Node:
    """The value of the call ``expression`` of an IRI: a function registered with rdflib
    rdflib's (``_rdflibs``); any other, a cast among them, pyoxigraph's of the same terms,
    as on the fast engine, its error an expression error (SPARQLError), and so is a call
    pyoxigraph refuses (``_fast_engine_refusal``: a query with one is refused before it
    is evaluated, ``_refused_call``; a shape's SPARQL by the syntax check). rdflib's casts
    took "2024-01-01" for an xsd:dateTime, refused 4.7 to xsd:integer and 0.0 to
    xsd:boolean, wrote xsd:float("INF") as "inf" and xsd:decimal of an infinite double as
    "Infinity", and it knew no xsd:date, xsd:gYear, duration or GeoSPARQL function (an
    error: unbound in a shape's SPARQL)."""
    from rdflib.plugins.sparql.operators import Function
    from rdflib.plugins.sparql.sparql import SPARQLError

    iri = str(expression.iri)
    if _rdflibs(iri):
        return Function(expression, ctx)  # type: ignore[arg-type]
    arguments = expression.expr if isinstance(expression.expr, list) else []
    refusal = _fast_engine_refusal(iri, len(arguments))
    if refusal is not None:
        raise SPARQLError(refusal)
    if not all(isinstance(argument, (Literal, URIRef)) for argument in arguments):
        raise SPARQLError(f"<{iri}> of a term it does not take: {arguments}")
    answer = linear_regex.evaluated(f"<{iri}>", tuple(nt_term(a) for a in arguments))
    if answer is None:
        raise SPARQLError(f"<{iri}> gives an error for {arguments}")
    return from_ox(answer)


def _string(expression: Expr, ctx: QueryContext) -> Node:
    """The value of the ``STR`` call ``expression``: the text of an IRI or a literal, of a
    blank node an expression error, as SPARQL 1.1 (17.4.2.5) and the fast engine say
    (rdflib gave a blank node's label)."""
    from rdflib.plugins.sparql.sparql import SPARQLError

    argument = expression.arg
    if isinstance(argument, SPARQLError):
        raise argument
    if not isinstance(argument, (Literal, URIRef)):
        raise SPARQLError(f"STR of a term that is no IRI or literal: {argument!r}")
    return Literal(str(argument))


def _same_term(expression: Expr, ctx: QueryContext) -> Node:
    """The value of the ``sameTerm`` call ``expression``: whether its arguments are one
    RDF term, a simple literal the ``xsd:string`` of its text as RDF 1.1 says, where
    rdflib told ``"a"`` and ``"a"^^xsd:string`` apart; an argument's error its error."""
    from rdflib.plugins.sparql.sparql import SPARQLError

    first, second = expression.arg1, expression.arg2
    for argument in (first, second):
        if isinstance(argument, SPARQLError):
            raise argument
    return Literal(_as_rdf11(first) == _as_rdf11(second))


def _as_rdf11(term: object) -> object:
    """``term``, a simple literal as RDF 1.1 has it: ``xsd:string``-typed."""
    from rdflib.namespace import XSD

    if isinstance(term, Literal) and term.datatype is None and not term.language:
        return Literal(str(term), datatype=XSD.string)
    return term


def _refused_call(prepared: Query) -> str | None:
    """Why the fast engine refuses a call of a function of the query ``prepared``
    (``_fast_engine_refusal``: a function it does not know, or a wrong count of
    arguments), if it calls one that is not rdflib's own (``_rdflibs``): rdflib's call
    was an expression error, an unbound value."""
    from rdflib.plugins.sparql.parserutils import Expr

    for node in algebra_nodes(prepared.algebra):
        if isinstance(node, Expr) and node.name == "Function":
            iri = str(OrderedDict.get(node, "iri"))
            arguments = OrderedDict.get(node, "expr")
            if not _rdflibs(iri):
                arity = len(arguments) if isinstance(arguments, list) else 0
                refusal = _fast_engine_refusal(iri, arity)
                if refusal is not None:
                    return refusal
    return None


def _absolute_iri(expression: Expr, ctx: QueryContext) -> Node:
    """The value of the ``IRI`` (or ``URI``) call ``expression`` as rdflib gives it, an
    expression error (SPARQLError) where that is no absolute IRI (``terms.is_iri``: a
    relative one with no BASE to resolve it against, a space in it) or its argument a
    literal that is no string, as SPARQL 1.1 (17.4.2.8) and the fast engine say: rdflib
    made a URIRef of any text, which no result format nor pyoxigraph's graph could hold
    (a traceback, exit 1)."""
    from rdflib.namespace import XSD
    from rdflib.plugins.sparql.operators import Builtin_IRI
    from rdflib.plugins.sparql.sparql import SPARQLError
    from rdflib.term import _is_valid_uri

    argument = expression.arg
    if isinstance(argument, Literal) and (
        argument.language or argument.datatype not in (None, XSD.string)
    ):
        raise SPARQLError(f"IRI of a literal that is no string: {argument!r}")
    # A character no IRI holds stays after resolution; rdflib warns of it on stderr when
    # it makes the URIRef, so none is made.
    if isinstance(argument, Literal) and not _is_valid_uri(str(argument)):
        raise SPARQLError(f"IRI of a text no IRI holds: {str(argument)!r}")
    iri = Builtin_IRI(expression, ctx)  # type: ignore[arg-type]
    if not is_iri(str(iri)):
        raise SPARQLError(f"IRI of no absolute IRI: {str(iri)!r}")
    return iri


def _coalesce(expression: Expr, ctx: QueryContext) -> Node:
    """The value of the ``COALESCE`` call ``expression`` as rdflib gives it, but of no
    argument at all an expression error, as SPARQL 1.1 (17.4.1.4) and the fast engine
    say: rdflib iterated over the text of ``rdf:nil``, its parser's empty list, and gave
    its first letter, a str no result format could write (a traceback, exit 1)."""
    from rdflib.plugins.sparql.operators import Builtin_COALESCE
    from rdflib.plugins.sparql.sparql import SPARQLError

    if not isinstance(expression.get("arg", variables=True), list):
        raise SPARQLError("COALESCE of no argument")
    return Builtin_COALESCE(expression, ctx)  # type: ignore[no-any-return]


def _no_named_graph(graph_pattern: GraphPattern) -> GraphPattern:
    """rdflib's evaluation of a GRAPH pattern (``graph_pattern``), which on a single
    graph (a query context without a dataset) matches nothing."""

    def evaluated(ctx: QueryContext, part: CompValue) -> Generator[FrozenBindings, None, None]:
        if ctx._dataset is not None:
            yield from graph_pattern(ctx, part)

    evaluated.anthology_kg = True  # type: ignore[attr-defined]
    return evaluated


@contextlib.contextmanager
def _errors_as_sparql_says() -> Iterator[None]:
    """Within, rdflib answers queries as SPARQL 1.1 and the fast engine do, where it
    raised: a GRAPH pattern on the anthology, a dataset with no named graph, matches
    nothing, and an error in a ``SUM`` or ``AVG`` (a word, an IRI, an unbound value)
    leaves the aggregate unbound (18.5.1, ``_accumulators``), where rdflib ended the query
    or left the value out. These are rdflib's globals, swapped for the
    call (``swaps.swapped``): other users of rdflib get its own. A filter's condition
    holds by SPARQL's effective boolean value (``sparql_logic.holds``), an OPTIONAL's
    within an EXISTS pattern seeing the EXISTS's row (``left_join``), a join of a BIND's
    row only where compatible (``lazy_join``), a sub-SELECT's own variables its own
    (``sub_select``), and ``ORDER BY``,
    ``MIN`` and ``MAX`` order the values by ``order_key``. A literal the query makes
    that is not of its datatype (``STRDT("abc", xsd:integer)``) logs no traceback."""
    from rdflib.plugins.sparql import aggregates as rdflib_aggregates
    from rdflib.plugins.sparql import evaluate as rdflib_evaluate
    from rdflib.plugins.sparql.aggregates import Aggregator
    from rdflib.plugins.sparql.sparql import QueryContext

    from .sparql_logic import holds

    graph_pattern: GraphPattern = rdflib_evaluate.evalGraph
    if not getattr(graph_pattern, "anthology_kg", False):  # (else a block is open)
        graph_pattern = _no_named_graph(graph_pattern)
    with (
        swapped(rdflib_evaluate, "evalGraph", graph_pattern),
        swapped(rdflib_evaluate, "_ebv", holds),
        swapped(rdflib_evaluate, "evalLeftJoin", left_join),
        swapped(rdflib_evaluate, "evalLazyJoin", lazy_join),
        swapped(rdflib_evaluate, "evalMultiset", sub_select),
        swapped(rdflib_evaluate, "_val", order_key),
        swapped(rdflib_aggregates, "_val", order_key),
        quiet_ill_typed(),
        swapped(Aggregator, "accumulator_classes", _accumulators()),
        swapped(rdflib_evaluate, "evalAggregateJoin", _groups_as_sparql_says),
        swapped(QueryContext, "clone", _clone_at_the_same_now()),
    ):
        yield


@functools.cache
def _clone_at_the_same_now() -> Callable[[QueryContext, object], QueryContext]:
    """rdflib's ``QueryContext.clone``, the clone keeping the query's time: SPARQL's
    ``NOW()`` is one value for the whole query (17.4.5.1), and rdflib's clone had no time
    of its own, so each row's ``NOW()`` was the moment it was first asked there."""
    from rdflib.plugins.sparql.sparql import QueryContext

    clone = QueryContext.clone

    def at_the_same_now(self: QueryContext, bindings: object = None) -> QueryContext:
        cloned = clone(self, bindings)  # type: ignore[arg-type]
        cloned._now = self.now
        return cloned

    return at_the_same_now


def _groups_as_sparql_says(
    ctx: QueryContext, join: CompValue
) -> Generator[FrozenBindings, None, None]:
    """rdflib's ``evalAggregateJoin`` (SPARQL 1.1, 18.5: the groups' aggregates, one row
    a group), but ``GROUP BY`` over no solutions gives no row: there is no group. rdflib
    gave one empty row whatever the grouping, which SPARQL gives only for the one
    implicit group of a query with aggregates and no ``GROUP BY`` (its COUNT is 0). And
    a group's row binds its keys that are variables (``GROUP BY ?e``, ``GROUP BY (... AS
    ?e)``), as the fast engine's does: the pattern of an EXISTS in the projection, HAVING
    or ORDER BY is asked of that row (18.6), which rdflib's sampling of the variables
    outside aggregates does not reach, so ``HAVING (EXISTS { ?e a ak:Reference })`` read
    ``?e`` unbound."""
    from rdflib.plugins.sparql import evaluate as rdflib_evaluate
    from rdflib.plugins.sparql.aggregates import Aggregator
    from rdflib.plugins.sparql.sparql import FrozenBindings

    keys = join.p.expr
    groups: dict[tuple[object, ...], Aggregator] = {}
    if keys is None:  # the one implicit group, there with no solutions too
        groups[()] = Aggregator(aggregations=join.A)
    for row in rdflib_evaluate.evalPart(ctx, join.p):
        key = () if keys is None else tuple(rdflib_evaluate._eval(e, row, False) for e in keys)
        if key not in groups:
            groups[key] = Aggregator(aggregations=join.A)
        groups[key].update(row)
    for key, group in groups.items():
        bindings = dict(group.get_bindings())
        for variable, value in zip(keys or (), key, strict=True):
            if isinstance(variable, Variable) and isinstance(value, Identifier):
                bindings.setdefault(variable, value)
        yield FrozenBindings(ctx, bindings)


@functools.cache
def _accumulators() -> dict[str, type]:
    """rdflib's classes of the aggregates by name, with SUM's, AVG's, MIN's and MAX's making
    an error in any of their values the aggregate's, so unbound (SPARQL 1.1, 18.5.1.3-6: a
    group's sum, average, least and greatest value are errors when a value is; the fast
    engine's answer): rdflib raised at a word or an IRI in a SUM and at an error in MIN or
    MAX, and left an unbound value out of all four, and any error out of AVG. The sum, and
    the average (the sum divided by the count), are given as ``+`` and ``/`` give them
    (``sparql_logic.computed``: the fast engine's value and form; one operation a group).
    MIN and MAX give the term (rdflib gave a literal of an IRI's or a blank node's text)."""
    from rdflib.plugins.sparql.aggregates import (
        Aggregator,
        Extremum,
        Maximum,
        Minimum,
        Sum,
        type_safe_numbers,
    )
    from rdflib.plugins.sparql.datatypes import type_promotion
    from rdflib.plugins.sparql.evalutils import _eval
    from rdflib.plugins.sparql.operators import numeric
    from rdflib.plugins.sparql.sparql import NotBoundError, SPARQLError

    from .sparql_logic import computed

    class SumOrError(Sum):
        failed = False
        count = 0

        def use_row(self, row: FrozenBindings) -> bool:
            # DISTINCT's test evaluates the expression: at an unbound variable it raised.
            try:
                return super().use_row(row)
            except NotBoundError:
                return True

        def update(self, row: FrozenBindings, aggregator: Aggregator) -> None:
            if self.failed:
                return
            try:
                value = _eval(self.expr, row)  # NotBoundError (a SPARQLError) if unbound
                if isinstance(value, SPARQLError):  # an expression's error, as a value
                    raise value
                number = numeric(value)  # SPARQLTypeError for no numeric literal
                promoted = value.datatype
                if self.datatype is not None:
                    promoted = type_promotion(self.datatype, promoted)  # type: ignore[arg-type]
                self.datatype = promoted
                self.value = sum(type_safe_numbers(self.value, number))
                self.count += 1
                if self.distinct:
                    self.seen.add(value)
            # (numeric() gives an ill-typed literal itself, which sum() refuses: TypeError)
            except (SPARQLError, TypeError, ArithmeticError):
                self.failed = True

        def set_value(self, bindings: MutableMapping[Variable, Identifier]) -> None:
            if self.failed:
                return
            total = Literal(self.value, datatype=self.datatype)
            try:
                bindings[self.var] = self.of_total(total)
            except SPARQLError:  # out of the fast engine's range
                pass

        def of_total(self, total: Literal) -> Identifier:
            # + 0: the fast engine's form of the value ("3", not rdflib's "3.0", for 3e0)
            return cast("Identifier", computed("+", total, Literal(0)))

    class AverageOrError(SumOrError):
        def of_total(self, total: Literal) -> Identifier:
            if not self.count:
                return Literal(0)
            return cast("Identifier", computed("/", total, Literal(self.count)))

    class ExtremumOrError(Extremum):
        failed = False

        def update(self, row: FrozenBindings, aggregator: Aggregator) -> None:
            if self.failed:
                return
            value = _eval(self.expr, row, False)  # None if unbound
            if value is None or isinstance(value, SPARQLError):
                self.failed = True
            else:  # rdflib's ORDER BY's order (evalutils._val), as its own MIN and MAX
                self.value = value if self.value is None else self.compare(self.value, value)

        def set_value(self, bindings: MutableMapping[Variable, Identifier]) -> None:
            if not self.failed and self.value is not None:
                bindings[self.var] = self.value  # the term: rdflib made a literal of it

    class MinimumOrError(ExtremumOrError, Minimum):
        pass

    class MaximumOrError(ExtremumOrError, Maximum):
        pass

    return {
        **Aggregator.accumulator_classes,
        "Aggregate_Sum": SumOrError,
        "Aggregate_Avg": AverageOrError,
        "Aggregate_Min": MinimumOrError,
        "Aggregate_Max": MaximumOrError,
    }
