"""SHACL 4.4 String-based constraint components: sh:minLength, sh:maxLength,
sh:pattern (with sh:flags), sh:languageIn, sh:uniqueLang."""

from __future__ import annotations

import pyoxigraph as ox

from .model import Constraint, Context, Out
from .sparql_rewrite import joined, term
from .vocabulary import SH, TRUE


def min_length(ctx: Context, c: Constraint, node: str) -> str:
    return f"(!isBlank({node}) && STRLEN(STR({node})) >= {c.integer(SH.minLength)})"


def max_length(ctx: Context, c: Constraint, node: str) -> str:
    return f"(!isBlank({node}) && STRLEN(STR({node})) <= {c.integer(SH.maxLength)})"


def pattern(ctx: Context, c: Constraint, node: str) -> str:
    regex = term(ox.Literal(c.params[SH.pattern].value))
    flags = c.params.get(SH.flags)
    extra = f", {term(ox.Literal(flags.value))}" if flags is not None else ""
    return f"(!isBlank({node}) && REGEX(STR({node}), {regex}{extra}))"


def language_in(ctx: Context, c: Constraint, node: str) -> str:
    tags = [term(tag) for tag in ctx.g.items(c.params[SH.languageIn])]
    matches = joined([f"langMatches(lang({node}), {tag})" for tag in tags], "||", "(false)")
    return f"(isLiteral({node}) && {matches})"


def unique_lang(ctx: Context, c: Constraint, focus: str, out: Out) -> str | None:
    """A result per language tag used by two value nodes; only ``true`` (as written:
    the W3C suite reads ``"1"^^xsd:boolean`` as no constraint) switches it on."""
    flag = c.params[SH.uniqueLang]
    if c.path is None or flag != TRUE:
        return None
    a, b = ctx.fresh(), ctx.fresh()
    return (
        f"{ctx.path_triples(focus, c.path, a)} {ctx.path_triples(focus, c.path, b)} "
        f"FILTER (!sameTerm({a}, {b}) && lang({a}) != '' && lang({a}) = lang({b})) "
        f"BIND (lang({a}) AS {out.key})"
    )
