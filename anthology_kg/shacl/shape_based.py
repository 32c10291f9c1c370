"""SHACL 4.7 Shape-based constraint components: sh:node, sh:qualifiedValueShape with
sh:qualifiedMinCount / sh:qualifiedMaxCount and sh:qualifiedValueShapesDisjoint.
(sh:property is the compiler's structure: a property shape's focus nodes are the value
nodes of the shape that declares it.)"""

from __future__ import annotations

from .model import Constraint, Context, Out
from .sparql_rewrite import joined, negate
from .vocabulary import SH, TRUE, text


def node_test(ctx: Context, c: Constraint, node: str) -> str:
    return ctx.conforms(c.params[SH.node], node)


def _qualified(ctx: Context, c: Constraint, node: str) -> str:
    """The value node conforms to the qualified shape (and, when the shapes are
    disjoint, to none of its siblings' qualified value shapes)."""
    shape = c.params[SH.qualifiedValueShape]
    tests = [ctx.conforms(shape, node)]
    disjoint = c.params.get(SH.qualifiedValueShapesDisjoint)
    if disjoint == TRUE:
        siblings = {
            sibling_shape
            for parent in ctx.g.subjects(SH.property, c.shape)
            for sibling in ctx.g.objects(parent, SH.property)
            for sibling_shape in ctx.g.objects(sibling, SH.qualifiedValueShape)
            if sibling_shape != shape
        }
        tests += [negate(ctx.conforms(s, node)) for s in sorted(siblings, key=text)]
    return joined(tests, "&&", "(true)")


def qualified_min_count(ctx: Context, c: Constraint, focus: str, out: Out) -> str | None:
    n = c.integer(SH.qualifiedMinCount)
    if n <= 0 or c.path is None:
        return None
    v = ctx.fresh()
    return f"FILTER ({negate(ctx.at_least(focus, c.path, n, _qualified(ctx, c, v), v))})"


def qualified_max_count(ctx: Context, c: Constraint, focus: str, out: Out) -> str | None:
    if c.path is None:
        return None
    v = ctx.fresh()
    n = c.integer(SH.qualifiedMaxCount) + 1
    return f"FILTER ({ctx.at_least(focus, c.path, n, _qualified(ctx, c, v), v)})"
