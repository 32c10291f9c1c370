"""SPARQL rewritten as text for the SHACL compiler: constants, variable renaming and
pre-binding (the scanner it steps with is the package's ``sparql_text``).

The compiler writes SPARQL as strings, and SHACL-SPARQL hands it query strings to
pre-bind (``$this``, ``$value``, ``$PATH``, ``$currentShape``, ``$shapesGraph``,
parameters). No SPARQL library here gives a query back as text after a rewrite, so this
module scans the text itself, stepping over comments, strings and IRIs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pyoxigraph as ox

from ..errors import AnthologyError
from ..sparql_text import code_matches, where_brace
from .errors import Unsupported
from .vocabulary import ox_term

_VARIABLE = re.compile(r"[?$]([A-Za-z_][A-Za-z0-9_]*)")
_VALUES_HEAD = re.compile(r"\bVALUES\s*(?:[?$]\w+|\([^)]*\))\s*$", re.IGNORECASE)
_CORRELATED = re.compile(r"\b(?:EXISTS|OPTIONAL)\s*$", re.IGNORECASE)
_SUBQUERY = re.compile(r"\{\s*SELECT\b", re.IGNORECASE)
_OPEN_BRACE = re.compile(r"\{")
_BRACES = re.compile(r"[{}]")
_PARENTHESES = re.compile(r"[()]")
_BRACKETS = re.compile(r"[(){}]")


def term(node: object) -> str:
    """A constant in SPARQL syntax; a blank node has none (it would be a variable).
    ``node``: a pyoxigraph term, or an rdflib one."""
    node = ox_term(node)
    if isinstance(node, ox.BlankNode):
        raise Unsupported("a blank node as a constant (in sh:in, sh:hasValue or a parameter)")
    return str(node)  # pyoxigraph writes a term in N-Triples syntax


def joined(members: Sequence[str], operator: str, empty: str) -> str:
    """``members`` joined by the binary ``operator`` (``||``, ``&&`` or ``+``) in a
    balanced tree of parentheses; ``empty`` when there are none. pyoxigraph plans a flat
    chain in time quadratic in its length (an sh:in of 4,000 values: 13.5 s, balanced
    0.11 s) and by recursion as deep as it is long; the three are associative (SPARQL's
    ``||`` and ``&&`` with their errors too), so the grouping changes no answer."""
    if not members:
        return empty

    def tree(low: int, high: int) -> str:
        if high - low == 1:
            return members[low]
        middle = (low + high) // 2
        return f"({tree(low, middle)} {operator} {tree(middle, high)})"

    return f"({members[0]})" if len(members) == 1 else tree(0, len(members))


def same_term(node: str, constant: object) -> str:
    """``node`` is the term ``constant``. For an IRI, ``=`` is the same test (IRIs are
    equal only when identical) and the one Virtuoso 7 also answers right under negation;
    a literal needs sameTerm (``=`` compares values: 1 = 1.0)."""
    if isinstance(ox_term(constant), ox.NamedNode):
        return f"({node} = {term(constant)})"
    return f"sameTerm({node}, {term(constant)})"


def variables(text: str) -> set[str]:
    """The names of the variables the query text uses (``?x`` and ``$x`` alike)."""
    return {match.group(1) for match in code_matches(_VARIABLE, text)}


def rename(text: str, names: dict[str, str]) -> str:
    """The text with each variable named in ``names`` (``?x`` or ``$x``) replaced by the
    given SPARQL text (another variable, or a constant where the grammar allows one)."""
    out, last = [], 0
    for match in code_matches(_VARIABLE, text):
        if match.group(1) in names:
            out.append(text[last : match.start()] + names[match.group(1)])
            last = match.end()
    return "".join(out) + text[last:]


def matching_brace(text: str, start: int) -> int:
    """The offset of the ``}`` closing the ``{`` at ``start``."""
    depth = 0
    for brace in code_matches(_BRACES, text[start:]):
        if brace.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return start + brace.start()
    raise Unsupported("unbalanced braces in a SPARQL query")


def where_group(text: str) -> tuple[int, int]:
    """(offset of ``{``, offset of ``}``) of the query's WHERE clause, read as parameters
    are bound (``sparql_text.where_brace``): not a group of the projection's
    ``EXISTS { … }``."""
    try:
        start = where_brace(text)
    except AnthologyError:
        raise Unsupported("a SPARQL query without a WHERE clause") from None
    return start, matching_brace(text, start)


def prebind(
    text: str, blocks: dict[str, str], focus_block: str | None, focus_at_top: bool = True
) -> str:
    """Pre-binding (SHACL 5.2.2) by joining: the query's WHERE group, and each group
    nested in it that mentions a pre-bound variable, start with the patterns that bind
    those variables — ``blocks`` maps a variable to a VALUES block for it, and
    ``focus_block`` binds ``?this`` (the focus nodes). Groups of EXISTS and OPTIONAL
    already see the bindings of the group around them and are left as they are; a
    VALUES data block is not a group. This gives the pre-binding's answers for the
    queries SHACL allows (no MINUS, SERVICE or VALUES of pre-bound variables).
    Without ``focus_at_top`` the WHERE group itself is left without the focus nodes,
    for a caller that tests ``?this`` after it (``binds_at_top``)."""
    bound = dict(blocks)
    if focus_block is not None:
        bound["this"] = focus_block
    top, _ = where_group(text)
    inserts: list[tuple[int, str]] = []
    for brace in code_matches(_OPEN_BRACE, text):
        i = brace.start()
        before = text[:i]
        if i != top and (
            _VALUES_HEAD.search(before) or _CORRELATED.search(before) or _SUBQUERY.match(text, i)
        ):
            continue
        group = text[i : matching_brace(text, i) + 1]
        used = sorted(name for name in bound if name in variables(group))
        if i == top:
            used = sorted(name for name in bound if focus_at_top or name != "this")
        if used:
            inserts.append((i + 1, " " + " ".join(bound[name] for name in used) + " "))
    for offset, block in reversed(inserts):
        text = text[:offset] + block + text[offset:]
    return text


#: A bracket, or a variable (its name in group 1).
_BRACKET_OR_VARIABLE = re.compile(r"[(){}]|[?$]([A-Za-z_][A-Za-z0-9_]*)")


def binds_at_top(text: str, name: str) -> bool:
    """Whether every solution of the query's WHERE group binds the variable ``name``:
    it is written in a triple pattern of the group itself, outside any nested group
    and any parentheses (a FILTER's or BIND's expression, a path, a collection). In
    the queries SHACL allows (no VALUES, MINUS or SERVICE, no AS of a pre-bound
    variable) nothing else there names a variable (``GRAPH ?x`` binds it too); a
    variable only in parentheses or a nested group gives False, the cautious answer."""
    start, end = where_group(text)
    depth = 0
    for match in code_matches(_BRACKET_OR_VARIABLE, text[start + 1 : end]):
        token = match.group()
        if token in "({":
            depth += 1
        elif token in ")}":
            depth -= 1
        elif depth == 0 and match.group(1) == name:
            return True
    return False


def _without_filters(text: str) -> str:
    """``text`` with each FILTER's constraint removed."""
    out, last = [], 0
    for match in re.finditer(r"\bFILTER\s*[A-Za-z:_]*\s*\(", text, re.IGNORECASE):
        if match.start() < last:
            continue
        depth, end = 0, len(text)
        for parenthesis in code_matches(_PARENTHESES, text[match.end() - 1 :]):
            depth += 1 if parenthesis.group() == "(" else -1
            if depth == 0:
                end = match.end() + parenthesis.start()
                break
        out.append(text[last : match.start()])
        last = end
    return "".join(out) + text[last:]


def subquery_projections(text: str) -> list[set[str]]:
    """The variables each nested SELECT projects (for ``SELECT *``, those its pattern
    binds outside FILTERs: a close reading of SPARQL's in-scope variables)."""
    out: list[set[str]] = []
    for brace in code_matches(_OPEN_BRACE, text):
        i = brace.start()
        if _SUBQUERY.match(text, i):
            head = text[i + 1 : where_group(text[i + 1 :])[0] + i + 1]
            if re.search(r"SELECT\s+(DISTINCT\s+|REDUCED\s+)?\*", head, re.IGNORECASE):
                start = i + 1 + len(head)
                out.append(variables(_without_filters(text[start : matching_brace(text, start)])))
            else:
                out.append(
                    variables(re.sub(r"\bAS\s+[?$]\w+", "", head, flags=re.I))
                    | {m.group(1) for m in re.finditer(r"\bAS\s+[?$](\w+)", head, re.I)}
                )
    return out


def _one_unit(expr: str) -> bool:
    """``expr`` is one primary expression: a parenthesized expression, a function call
    or an EXISTS group, closed by its last character."""
    match = re.match(r"(?:NOT\s+EXISTS|EXISTS|[A-Za-z_][\w:]*)?\s*([({])", expr, re.IGNORECASE)
    if not match:
        return False
    depth = 0
    for bracket in code_matches(_BRACKETS, expr):
        i = bracket.start()
        if i < match.start(1):
            continue
        depth += 1 if bracket.group() in "({" else -1
        if depth == 0:
            return i == len(expr) - 1
    return False


def negate(expr: str) -> str:
    """``!expr`` with double negations and redundant parentheses removed: the same
    expression, written so that Virtuoso 7 (which answers a negated negation of EXISTS
    wrongly) evaluates it like every other store."""
    e = expr.strip()
    while e.startswith("(") and _one_unit(e):
        e = e[1:-1].strip()
    if e.startswith("!") and _one_unit(e[1:].strip()):
        inner = e[1:].strip()
        while inner.startswith("(") and _one_unit(inner):
            inner = inner[1:-1].strip()
        return inner if _one_unit(inner) else f"({inner})"
    return f"!{e}" if _one_unit(e) else f"!({e})"
