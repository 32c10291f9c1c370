"""XPath's ``fn:matches`` in linear time, for the reference engine's regular expressions.

pySHACL (``sh:pattern``) and rdflib (SPARQL's ``REGEX``) match with Python's ``re``, which
backtracks: ``^(a|a)+$`` on 70 characters runs for hours inside one C call that holds the
GIL, so neither ``--timeout`` (``guards.bounded``) nor a signal handler ever runs. Here a
pattern is matched by pyoxigraph's own ``REGEX`` (Rust's regex crate, linear in the text),
as on the fast engine: the same flags (``s``, ``m``, ``i``, ``x``, ``q``), and a pattern it
refuses (a back-reference, a look-around, an unknown flag) is ``Refused`` as the fast
engine's REGEX gives an error. In a query, ``REGEX``, ``REPLACE`` and the other
functions the reference engine takes from pyoxigraph (``rdflib_sparql``'s
``_FAST_ENGINE_FUNCTIONS``), its ``=``, ``<`` and the other comparisons
(``sparql_logic.compared``) and its arithmetic (``sparql_logic.arithmetic``) are
pyoxigraph's own, of the same terms (``evaluated``).
The store queried is empty and only read, and pyoxigraph's stores may be read from
several threads at once.
"""

from __future__ import annotations

import functools

import pyoxigraph as ox

_STORE = ox.Store()
_MATCHED = ox.Literal("true", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#boolean"))


class Refused(ValueError):
    """A pattern (or flags) that XPath's regular expressions, as pyoxigraph reads them,
    do not take."""


def search(pattern: str, flags: str, text: str) -> bool:
    """Whether ``pattern`` with ``flags`` matches somewhere in ``text`` (``fn:matches``);
    Refused when pyoxigraph's REGEX does not take the pattern or the flags."""
    terms = tuple(str(ox.Literal(value)) for value in (text, pattern, flags))
    matched = evaluated("REGEX", terms)
    if matched is None:
        raise Refused(f"not a regular expression SPARQL's REGEX takes: {pattern!r}")
    return matched == _MATCHED


#: SPARQL's relational and arithmetic operators (17.3), which ``evaluated`` writes between
#: two operands.
OPERATORS = frozenset(("=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/"))


@functools.lru_cache(maxsize=4096)
def evaluated(function: str, arguments: tuple[str, ...]) -> ox.Literal | None:
    """pyoxigraph's value of SPARQL's ``function`` (``REGEX``, ``REPLACE``, ``SUBSTR``...,
    or an operator of ``OPERATORS`` between two) of ``arguments``, terms in N-Triples
    syntax: the fast engine's answer for the same terms (a regular expression matched in
    linear time); None where it gives an error (a term of the wrong type, a pattern or
    flags it refuses, values that do not compare, a decimal divided by zero). Kept per
    process: a pattern value repeats, and a query of its own costs ~0.1 ms."""
    names = [f"?a{index}" for index in range(len(arguments))]
    if function in OPERATORS:
        expression = f" {function} ".join(names)
    else:
        expression = f"{function}({', '.join(names)})"
    query = (
        f"SELECT ?value WHERE {{ VALUES ({' '.join(names)}) {{ ({' '.join(arguments)}) }} "
        f"BIND ({expression} AS ?value) }}"
    )
    solutions = _STORE.query(query)
    assert isinstance(solutions, ox.QuerySolutions)
    for solution in solutions:
        value = solution["value"]
        return value if isinstance(value, ox.Literal) else None
    return None


class XPathPattern:
    """A compiled pattern as pySHACL's ``PatternConstraintComponent`` uses one (it asks
    ``match``, then ``search``): both say whether ``fn:matches`` holds, in linear time."""

    def __init__(self, pattern: str, flags: str) -> None:
        self.pattern, self.flags = pattern, flags

    def search(self, text: str) -> bool:
        return search(self.pattern, self.flags, text)

    match = search
