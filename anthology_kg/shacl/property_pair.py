"""SHACL 4.5 Property pair constraint components: sh:equals, sh:disjoint, sh:lessThan,
sh:lessThanOrEquals. On a node shape the value node is the focus node itself."""

from __future__ import annotations

from .model import Constraint, Context, Out
from .sparql_rewrite import term
from .value_range import compared
from .vocabulary import SH


def equals(ctx: Context, c: Constraint, focus: str, out: Out) -> str:
    """A result for each value node not among the other property's values, and for each
    of those not among the value nodes."""
    other = term(c.params[SH.equals])
    v = out.value
    if c.path is None:
        own_has = f"FILTER (sameTerm({v}, {focus}))"
    else:
        own_has = ctx.path_triples(focus, c.path, v)
    return (
        f"{{ {ctx.focus_block} {c.own_values(ctx, focus, v)} "
        f"FILTER NOT EXISTS {{ {focus} {other} {v} }} }} UNION "
        f"{{ {ctx.focus_block} {focus} {other} {v} FILTER NOT EXISTS {{ {own_has} }} }}"
    )


def disjoint(ctx: Context, c: Constraint, focus: str, out: Out) -> str:
    other = term(c.params[SH.disjoint])
    return f"{c.own_values(ctx, focus, out.value)} {focus} {other} {out.value} ."


def _compare(parameter, operator: str):
    def violations(ctx: Context, c: Constraint, focus: str, out: Out) -> str:
        """A result per pair of a value node and another value it does not compare to
        (``value_range.compared``: two booleans do)."""
        other, v = out.key, out.value
        return (
            f"{c.own_values(ctx, focus, v)} {focus} {term(c.params[parameter])} {other} . "
            f"FILTER (!{compared(v, operator, other)})"
        )

    return violations


less_than = _compare(SH.lessThan, "<")
less_than_or_equals = _compare(SH.lessThanOrEquals, "<=")
