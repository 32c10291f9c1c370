"""SHACL 4.6 Logical constraint components: sh:not, sh:and, sh:or, sh:xone."""

from __future__ import annotations

from .model import Constraint, Context
from .sparql_rewrite import joined, negate
from .vocabulary import SH


def not_test(ctx: Context, c: Constraint, node: str) -> str:
    return negate(ctx.conforms(c.params[SH["not"]], node))


def and_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [ctx.conforms(s, node) for s in ctx.g.items(c.params[SH["and"]])]
    return joined(members, "&&", "(true)")


def or_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [ctx.conforms(s, node) for s in ctx.g.items(c.params[SH["or"]])]
    return joined(members, "||", "(false)")


def xone_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [ctx.conforms(s, node) for s in ctx.g.items(c.params[SH.xone])]
    ones = joined([f"IF({m}, 1, 0)" for m in members], "+", "(0)")
    return f"({ones} = 1)"
