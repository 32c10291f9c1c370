"""SHACL 4.3 Value range constraint components: sh:minExclusive, sh:minInclusive,
sh:maxExclusive, sh:maxInclusive. A value that does not compare (another type, an
ill-formed literal) is a result, as SPARQL's comparison error says."""

from __future__ import annotations

from .model import Constraint, Context, ValueTest
from .sparql_rewrite import term
from .vocabulary import SH


def _range(parameter, operator: str) -> ValueTest:
    def test(ctx: Context, c: Constraint, node: str) -> str:
        return f"COALESCE(({node} {operator} {term(c.params[parameter])}), false)"

    return test


min_exclusive = _range(SH.minExclusive, ">")
min_inclusive = _range(SH.minInclusive, ">=")
max_exclusive = _range(SH.maxExclusive, "<")
max_inclusive = _range(SH.maxInclusive, "<=")
