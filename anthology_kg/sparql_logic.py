"""SPARQL 1.1's ``&&``, ``||`` (section 17.2), ``IN`` and ``NOT IN`` (17.4.1.9-10), ``=``,
``<`` and the other comparisons, ``+``, ``-``, ``*`` and ``/`` (17.3) for rdflib's engine,
bound to the expressions of a query rdflib has parsed
(``rdflib_sparql.expressions_as_sparql_says``): a false operand makes ``&&`` false and a
true one makes ``||`` true even where another operand is an error or an unbound
variable, and the operands after the deciding one are not evaluated; a comparison and an
arithmetic operation have the fast engine's value. rdflib's own read every operand first
and raised at the first error; its ``IN`` compared terms, not values, and took a member's
error for an unequal member; its comparisons ordered mixed values as Python does, and
its arithmetic typed and rounded results its own way."""

from __future__ import annotations

import operator
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, TypeGuard, cast

from rdflib import RDF, XSD, BNode, Literal, Variable
from rdflib.plugins.sparql.parserutils import Expr
from rdflib.plugins.sparql.parserutils import value as sparql_value
from rdflib.plugins.sparql.sparql import SPARQLError, SPARQLTypeError
from rdflib.term import Node

from . import linear_regex
from .terms import from_ox, nt_term, quiet_ill_typed

#: The values of ``and_in_order`` and ``or_in_order``: literals are immutable, so one
#: of each serves every call (rdflib makes a new one, ~5 µs, for each row a filter tests).
_TRUE, _FALSE = Literal(True), Literal(False)


def _operands(self: Expr) -> list[Any] | None:
    """The operands of a ``&&`` or ``||`` expression, unevaluated; None when it has one
    operand only (rdflib's expression is then that operand's value)."""
    other = OrderedDict.get(self, "other")
    if other is None:
        return None
    return [OrderedDict.__getitem__(self, "expr"), *other]


def _decided(self: Expr, ctx: Any, by: bool) -> Literal:
    """The value of the ``&&`` (``by`` False) or ``||`` (``by`` True) ``self``: ``by``
    at the first operand whose value it is, the later ones not evaluated; else the
    error of an operand, if one was (an unbound variable's NotBoundError too); else not
    ``by``."""
    operands = _operands(self)
    if operands is None:
        return self.expr
    decided = _any_holds(
        operands, lambda operand: effective_boolean_value(sparql_value(ctx, operand)) is by
    )
    return _TRUE if decided is by else _FALSE


#: SPARQL's numeric datatypes (17.1): xsd:integer, xsd:decimal, xsd:float, xsd:double and
#: the types derived from xsd:integer.
_NUMERIC = frozenset(
    XSD[name]
    for name in ("integer", "decimal", "float", "double", "nonPositiveInteger")
    + ("negativeInteger", "long", "int", "short", "byte", "nonNegativeInteger")
    + ("unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte", "positiveInteger")
)
#: The lexical forms of xsd:integer and xsd:decimal (XSD 1.1), whose value rdflib reads
#: as XSD does; it also reads some forms XSD does not (" 1", "1e5"^^xsd:decimal).
_PLAIN_FORMS = {
    XSD.integer: re.compile(r"[+-]?[0-9]+"),
    XSD.decimal: re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)"),
}
#: The arguments after the condition of ``IF(?c, true, false)``, in N-Triples syntax.
_BOOLEANS = (nt_term(_TRUE), nt_term(_FALSE))


def effective_boolean_value(term: object) -> bool:
    """SPARQL 1.1's effective boolean value of ``term`` (17.2.2), an expression error
    (SPARQLError) where it has none: an xsd:boolean's value, a number's whether it is
    neither zero nor NaN (pyoxigraph's, as the fast engine reads the number), and false
    for a literal of either kind whose lexical form is not valid for its datatype
    (``"x"^^xsd:boolean``, ``"TRUE"^^xsd:boolean``, ``"abc"^^xsd:integer``,
    ``"300"^^xsd:byte``); a plain literal's or an xsd:string's whether it is not empty;
    an error for any other term. rdflib read an ill-typed boolean's text lower-cased
    (``"TRUE"`` true), made an ill-typed number an error, NaN true and a date its Python
    value's truth. The fast engine makes an ill-typed boolean or number and a
    language-tagged string an error (README, "Conformance")."""
    if isinstance(term, SPARQLError):
        raise term
    if not isinstance(term, Literal):
        raise SPARQLTypeError(f"no effective boolean value: {term!r}")
    datatype = term.datatype
    if datatype == XSD.boolean:
        return str(term) in ("true", "1")
    if datatype is None or datatype == XSD.string:
        return len(term) > 0
    if datatype not in _NUMERIC:
        raise SPARQLTypeError(f"no effective boolean value: {term!r}")
    if term.ill_typed:  # (rdflib's test: the derived types' ranges too)
        return False
    if datatype in _PLAIN_FORMS and _PLAIN_FORMS[datatype].fullmatch(term):
        return bool(term.value)  # (the common case, without pyoxigraph's reading)
    if term.ill_typed is None:  # a literal rdflib's SPARQL parser made: not yet tested
        with quiet_ill_typed():
            if Literal(str(term), datatype=datatype).ill_typed:
                return False
    value = linear_regex.evaluated("IF", (nt_term(term), *_BOOLEANS))
    return value is not None and value.value == "true"


def negation(self: Expr, ctx: Any) -> Literal:
    """SPARQL's ``!`` (rdflib's ``UnaryNot`` ``self``): the negation of its operand's
    effective boolean value (``effective_boolean_value``), an error where it has none."""
    operand = sparql_value(ctx, OrderedDict.__getitem__(self, "expr"))
    return _FALSE if effective_boolean_value(operand) else _TRUE


def conditional(self: Expr, ctx: Any) -> Node:
    """SPARQL's ``IF`` (the call ``self``): its second argument's value where the first's
    effective boolean value (``effective_boolean_value``) is true, else its third's (only
    that one evaluated), an error where the first has none."""
    condition = sparql_value(ctx, OrderedDict.__getitem__(self, "arg1"))
    chosen = "arg2" if effective_boolean_value(condition) else "arg3"
    return cast(Node, sparql_value(ctx, OrderedDict.__getitem__(self, chosen)))


def holds(expression: Any, ctx: Any) -> bool:
    """For rdflib's ``evalutils._ebv`` (whether a FILTER's or an OPTIONAL's condition
    ``expression`` holds in ``ctx``, an error false): SPARQL's effective boolean value
    (``effective_boolean_value``) of its value, where rdflib's own read an ill-typed
    boolean lower-cased and NaN as true; and an expression is evaluated at once, where
    rdflib first asked the effective boolean value of the expression itself, which only a
    literal has, writing the whole expression tree into the message of an error it then
    dropped, for every solution the filter tested."""
    try:
        if isinstance(expression, Expr):
            return effective_boolean_value(expression.eval(ctx))
        if isinstance(expression, Variable):
            return effective_boolean_value(ctx[expression])
        return effective_boolean_value(expression)
    except (SPARQLError, KeyError):  # (an unbound variable: rdflib's KeyError or its own)
        return False


def _any_holds(items: Iterable[Any], holds: Callable[[Any], bool]) -> bool:
    """Whether ``holds`` is true of an item, asked in order up to the first that is
    (the later ones not asked); where none is, the error one raised (SPARQLError), if
    one did: SPARQL's ``||`` (17.2), of which ``&&`` and ``IN`` are forms."""
    error = None
    for item in items:
        try:
            if holds(item):
                return True
        except SPARQLError as exc:
            error = exc
    if error is not None:
        raise error
    return False


def and_in_order(self: Expr, ctx: Any) -> Literal:
    """SPARQL's ``&&`` (17.2: false if an operand is false, even where another is an
    error; else an error if one is; else true), its operands evaluated in order up to
    the first false one.

    rdflib's ``ConditionalAndExpression`` reads every operand before it tests the first
    (``e.expr``, ``e.other`` evaluate them), so ``FILTER (isIRI(?v) && NOT EXISTS { ...
    })`` (the shapes' rule 9, its filters merged into one ``&&``) ran the EXISTS for
    every solution; and it raised at the first error, or at an unbound variable, before
    it saw a false operand, so ``FILTER (!(?v / 0 && false))`` dropped every row where
    SPARQL (and the fast engine) keeps it."""
    return _decided(self, ctx, by=False)


def or_in_order(self: Expr, ctx: Any) -> Literal:
    """SPARQL's ``||`` (17.2: true if an operand is true, even where another is an
    error; else an error if one is; else false), its operands evaluated in order up to
    the first true one.

    rdflib reads every operand before it tests the first, so rule 9's ``FILTER
    (STRSTARTS(STR(?path), ...) || ?path IN (...))`` tested the whole list for every
    triple whose path the first operand already took; and an unbound variable among
    them raised before a true operand was seen."""
    return _decided(self, ctx, by=True)


def member_of(self: Expr, ctx: Any) -> Literal:
    """SPARQL's ``IN`` or ``NOT IN`` (the ``RelationalExpression`` ``self``, whose ``op``
    is one of them): ``A IN (B1, ..., Bn)`` is ``A = B1 || ... || A = Bn`` and ``NOT IN``
    the ``&&`` of the ``!=``, so an erroneous member decides only where no member equals
    ``A``; ``=`` is ``compared``'s (values, so ``1 IN (1.0)``). rdflib's own
    compared terms (``1 IN (1.0)`` false) and took a member's error for an unequal member
    (``1 NOT IN (1/0, 2)`` true, where it is an error)."""
    negated = OrderedDict.get(self, "op") == "NOT IN"
    value = sparql_value(ctx, OrderedDict.__getitem__(self, "expr"))
    if isinstance(value, SPARQLError):
        raise value
    members = OrderedDict.get(self, "other")
    listed = [] if members is None or members == RDF.nil else members
    found = _any_holds(listed, lambda member: compared("=", value, sparql_value(ctx, member)))
    return _TRUE if found is not negated else _FALSE


def relation(self: Expr, ctx: Any) -> Literal:
    """SPARQL's relational expression ``self``: ``IN`` and ``NOT IN`` (``member_of``),
    ``=``, ``!=``, ``<``, ``>``, ``<=`` and ``>=`` (``compared``); rdflib's value of an
    expression of one operand (the parser makes one of each term)."""
    op = str(OrderedDict.get(self, "op"))
    if op in ("IN", "NOT IN"):
        return member_of(self, ctx)
    other = OrderedDict.get(self, "other")
    if other is None:
        return self.expr
    left = sparql_value(ctx, OrderedDict.__getitem__(self, "expr"))
    right = sparql_value(ctx, other)
    return _TRUE if compared(op, left, right) else _FALSE


def arithmetic(self: Expr, ctx: Any) -> Node:
    """SPARQL's ``+`` and ``-`` (rdflib's AdditiveExpression ``self``) or ``*`` and ``/``
    (MultiplicativeExpression) of the operands, left to right, as the fast engine
    evaluates them: at each step pyoxigraph's value of the same terms
    (``linear_regex.evaluated``; 17.3's numeric type promotion, durations and dates), an
    expression error (SPARQLError) where it gives one; rdflib's value of an expression of
    one operand. rdflib made a product of integers an xsd:decimal, a double divided by
    zero an error (SPARQL: INF or NaN), a quotient of 28 digits where XSD's decimals give
    18, and the difference of two dates an xsd:duration (SPARQL: xsd:dayTimeDuration)."""
    other = OrderedDict.get(self, "other")
    if other is None:
        return self.expr
    value = sparql_value(ctx, OrderedDict.__getitem__(self, "expr"))
    operators: list[str] = OrderedDict.get(self, "op") or []
    for op, operand in zip(operators, other, strict=True):
        value = computed(op, value, sparql_value(ctx, operand))
    return value


def computed(op: str, left: object, right: object) -> Node:
    """``left op right`` (``op`` one of ``+ - * /``) as pyoxigraph evaluates it, an
    expression error (SPARQLError) where it gives one or an operand is an error or no
    literal."""
    for term in (left, right):
        if isinstance(term, SPARQLError):
            raise term
        if not isinstance(term, Literal):
            raise SPARQLError(f"{op} of no literal: {term!r}")
    answer = linear_regex.evaluated(op, (nt_term(left), nt_term(right)))  # type: ignore[arg-type]
    if answer is None:
        raise SPARQLError(f"{left!r} {op} {right!r} is an error")
    return from_ox(answer)


#: Python's comparison of two values for each relational operator of SPARQL 17.3.
_ORDERED = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
}


def _is_boolean(term: object) -> TypeGuard[Literal]:
    """Whether ``term`` is a well-formed xsd:boolean literal."""
    return isinstance(term, Literal) and term.datatype == XSD.boolean and not term.ill_typed


def compared(op: str, left: object, right: object) -> bool:
    """SPARQL's ``left op right`` for an operator of 17.3 (``=``, ``!=``, ``<``, ``>``,
    ``<=``, ``>=``) as the fast engine evaluates it: pyoxigraph's value of the same terms
    (``linear_regex.evaluated``), an expression error (SPARQLError) where it gives one.
    rdflib ordered mixed values as Python does (``"abc" > 0`` true, ``"2020-01-01"^^xsd:date
    < 1`` true) and compared a decimal and a double unpromoted (``0.1 = 0.1e0`` false)."""
    for term in (left, right):
        if isinstance(term, SPARQLError):
            raise term
        if not isinstance(term, Node):
            raise SPARQLError(f"{op} of no term: {term!r}")
    if isinstance(left, BNode) or isinstance(right, BNode):
        # No query text can hold a blank node: RDFterm-equal (17.4.1.7) says which are equal.
        if op in ("=", "!="):
            return (left == right) is (op == "=")
        raise SPARQLError(f"{op} of a blank node")
    if _is_boolean(left) and _is_boolean(right):
        # pyoxigraph 0.5 makes false < true an error (README, "Conformance"): 17.3 orders them.
        return bool(_ORDERED[op](left.toPython(), right.toPython()))
    answer = linear_regex.evaluated(op, (nt_term(left), nt_term(right)))  # type: ignore[arg-type]
    if answer is None:
        raise SPARQLError(f"{left!r} {op} {right!r} is an error")
    return answer.value == "true"
