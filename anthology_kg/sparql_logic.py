"""SPARQL 1.1's ``&&``, ``||`` (section 17.2), ``IN`` and ``NOT IN`` (17.4.1.9-10) for
rdflib's engine, bound to the expressions of a query rdflib has parsed
(``rdflib_sparql.expressions_as_sparql_says``): a false operand makes ``&&`` false
and a true one makes ``||`` true even where another operand is an error or an unbound
variable, and the operands after the deciding one are not evaluated. rdflib's own read
every operand first and raised at the first error; its ``IN`` compared terms, not values,
and took a member's error for an unequal member."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from rdflib import RDF, Literal
from rdflib.plugins.sparql.operators import EBV
from rdflib.plugins.sparql.parserutils import Expr
from rdflib.plugins.sparql.parserutils import value as sparql_value
from rdflib.plugins.sparql.sparql import SPARQLError
from rdflib.term import Node

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
    error = None
    for operand in operands:
        try:
            if bool(EBV(sparql_value(ctx, operand))) is by:
                return _TRUE if by else _FALSE
        except SPARQLError as exc:
            error = exc
    if error is not None:
        raise error
    return _FALSE if by else _TRUE


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
    ``A``; ``=`` is rdflib's (``Literal.eq``: values, so ``1 IN (1.0)``). rdflib's own
    compared terms (``1 IN (1.0)`` false) and took a member's error for an unequal member
    (``1 NOT IN (1/0, 2)`` true, where it is an error)."""
    negated = OrderedDict.get(self, "op") == "NOT IN"
    value = sparql_value(ctx, OrderedDict.__getitem__(self, "expr"))
    if isinstance(value, SPARQLError):
        raise value
    members = OrderedDict.get(self, "other")
    error = None
    for member in [] if members is None or members == RDF.nil else members:
        try:
            term = sparql_value(ctx, member)
            if isinstance(term, SPARQLError):
                raise term
            if _equal(value, term):
                return _FALSE if negated else _TRUE
        except SPARQLError as exc:
            error = exc
    if error is not None:
        raise error
    return _TRUE if negated else _FALSE


def _equal(value: object, member: object) -> bool:
    """SPARQL's ``=`` of two terms as rdflib evaluates it (``Literal.eq`` compares the
    values of literals of comparable datatypes, ``==`` the terms otherwise); a value
    that is no term, or terms it cannot compare, an error."""
    if not (isinstance(value, Node) and isinstance(member, Node)):
        raise SPARQLError(f"IN of no term: {value!r}, {member!r}")
    try:
        return bool(value.eq(member))  # type: ignore[attr-defined]
    except TypeError as exc:
        raise SPARQLError(*exc.args) from None
