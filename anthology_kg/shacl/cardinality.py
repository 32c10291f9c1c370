"""SHACL 4.2 Cardinality constraint components: sh:minCount, sh:maxCount."""

from __future__ import annotations

from .model import Constraint, Context, Out
from .sparql_rewrite import negate
from .vocabulary import SH


def min_count(ctx: Context, c: Constraint, focus: str, out: Out) -> str | None:
    n = c.integer(SH.minCount)
    if n <= 0 or c.path is None:
        return None
    return f"FILTER ({negate(ctx.at_least(focus, c.path, n))})"


def max_count(ctx: Context, c: Constraint, focus: str, out: Out) -> str | None:
    if c.path is None:
        return None
    n = c.integer(SH.maxCount) + 1
    # n distinct values joined, not an EXISTS per focus node: the same solutions at
    # ``focus`` (the values projected away), found by hash joins (Compiler.distinct_values).
    joined = ctx.distinct_values(focus, c.path, n)
    return joined if joined is not None else f"FILTER ({ctx.at_least(focus, c.path, n)})"
