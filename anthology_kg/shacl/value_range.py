"""SHACL 4.3 Value range constraint components: sh:minExclusive, sh:minInclusive,
sh:maxExclusive, sh:maxInclusive. A value that does not compare (another type, an
ill-formed literal) is a result, as SPARQL's comparison error says."""

from __future__ import annotations

import pyoxigraph as ox

from .model import Constraint, Context, ValueTest
from .sparql_rewrite import term
from .vocabulary import SH, XSD

_BOOLEAN, _INTEGER = f"<{XSD.boolean.value}>", f"<{XSD.integer.value}>"


def compared(left: str, operator: str, right: str, booleans: bool = True) -> str:
    """``left operator right`` (SPARQL's ``<``, ``<=``, ``>``, ``>=``), false where they
    do not compare. With ``booleans``, two xsd:boolean values compare as SPARQL 1.1
    defines (op:boolean-less-than, false < true), which Oxigraph does not: as the
    integers 0 and 1."""
    if not booleans:
        return f"COALESCE(({left} {operator} {right}), false)"
    both = f"sameTerm(DATATYPE({left}), {_BOOLEAN}) && sameTerm(DATATYPE({right}), {_BOOLEAN})"
    as_integers = f"({_INTEGER}({left}) {operator} {_INTEGER}({right}))"
    return f"COALESCE(({left} {operator} {right}), IF({both}, {as_integers}, false), false)"


def _range(parameter, operator: str) -> ValueTest:
    def test(ctx: Context, c: Constraint, node: str) -> str:
        bound = c.params[parameter]
        boolean = isinstance(bound, ox.Literal) and bound.datatype == XSD.boolean
        return compared(node, operator, term(bound), booleans=boolean)

    return test


min_exclusive = _range(SH.minExclusive, ">")
min_inclusive = _range(SH.minInclusive, ">=")
max_exclusive = _range(SH.maxExclusive, "<")
max_inclusive = _range(SH.maxInclusive, "<=")
