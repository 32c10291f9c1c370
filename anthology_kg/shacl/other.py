"""SHACL 4.8 Other constraint components: sh:closed (with sh:ignoredProperties),
sh:hasValue, sh:in."""

from __future__ import annotations

import pyoxigraph as ox

from .model import Constraint, Context, Out
from .sparql_rewrite import joined, same_term, term
from .vocabulary import SH, TRUE
from .vocabulary import Term as Node


def closed(ctx: Context, c: Constraint, focus: str, out: Out) -> str | None:
    """A result for each triple of a value node whose predicate is neither a path of the
    shape's property shapes nor ignored: its predicate is the path, its object the value."""
    if c.params[SH.closed] != TRUE:
        return None
    g = ctx.g
    allowed: set[Node] = {
        path
        for nested in g.objects(c.shape, SH.property)
        for path in g.objects(nested, SH.path)
        if isinstance(path, ox.NamedNode)
    }
    ignored = c.params.get(SH.ignoredProperties)
    if ignored is not None:
        allowed |= set(g.items(ignored))
    node = focus if c.path is None else ctx.fresh()
    own = "" if c.path is None else ctx.path_triples(focus, c.path, node)
    listed = ", ".join(sorted(term(p) for p in allowed))
    not_allowed = f"FILTER (?_p NOT IN ({listed}))".replace("?_p", out.path) if listed else ""
    return f"{own} {node} {out.path} {out.value} . {not_allowed}"


def has_value(ctx: Context, c: Constraint, focus: str, out: Out) -> str:
    value = c.params[SH.hasValue]
    if c.path is None:
        return f"FILTER (!{same_term(focus, value)})"
    return f"FILTER (!EXISTS {{ {ctx.path_triples(focus, c.path, term(value))} }})"


def in_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [same_term(node, m) for m in ctx.g.items(c.params[SH["in"]])]
    return joined(members, "||", "(false)")
