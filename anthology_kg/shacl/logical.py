"""SHACL 4.6 Logical constraint components: sh:not, sh:and, sh:or, sh:xone."""

from __future__ import annotations

from .model import Constraint, Context
from .sparql_rewrite import negate
from .vocabulary import SH


def not_test(ctx: Context, c: Constraint, node: str) -> str:
    return negate(ctx.conforms(c.params[SH["not"]], node))


def and_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [ctx.conforms(s, node) for s in ctx.g.items(c.params[SH["and"]])]
    return "(" + (" && ".join(members) or "true") + ")"


def or_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [ctx.conforms(s, node) for s in ctx.g.items(c.params[SH["or"]])]
    return "(" + (" || ".join(members) or "false") + ")"


def xone_test(ctx: Context, c: Constraint, node: str) -> str:
    members = [ctx.conforms(s, node) for s in ctx.g.items(c.params[SH.xone])]
    ones = " + ".join(f"IF({m}, 1, 0)" for m in members) or "0"
    return f"(({ones}) = 1)"
