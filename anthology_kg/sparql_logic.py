"""SPARQL 1.1's ``&&`` and ``||`` (section 17.2) for rdflib's engine, bound to the
expressions of a query rdflib has parsed (``rdflib_sparql.conjunctions_in_order``): a
false operand makes ``&&`` false and a true one makes ``||`` true even where another
operand is an error or an unbound variable, and the operands after the deciding one are
not evaluated. rdflib's own read every operand first and raised at the first error."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from rdflib import Literal
from rdflib.plugins.sparql.operators import EBV
from rdflib.plugins.sparql.parserutils import Expr
from rdflib.plugins.sparql.parserutils import value as sparql_value
from rdflib.plugins.sparql.sparql import SPARQLError

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
    operands = _operands(self)
    if operands is None:
        return self.expr
    error = None
    for operand in operands:
        try:
            if not EBV(sparql_value(ctx, operand)):
                return _FALSE
        except SPARQLError as exc:  # (an unbound variable's NotBoundError too)
            error = exc
    if error is not None:
        raise error
    return _TRUE


def or_in_order(self: Expr, ctx: Any) -> Literal:
    """SPARQL's ``||`` (17.2: true if an operand is true, even where another is an
    error; else an error if one is; else false), its operands evaluated in order up to
    the first true one.

    rdflib reads every operand before it tests the first, so rule 9's ``FILTER
    (STRSTARTS(STR(?path), ...) || ?path IN (...))`` tested the whole list for every
    triple whose path the first operand already took; and an unbound variable among
    them raised before a true operand was seen."""
    operands = _operands(self)
    if operands is None:
        return self.expr
    error = None
    for operand in operands:
        try:
            if EBV(sparql_value(ctx, operand)):
                return _TRUE
        except SPARQLError as exc:
            error = exc
    if error is not None:
        raise error
    return _FALSE
