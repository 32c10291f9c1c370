"""What the compiler works on: constraint components, constraints, and the context
a component's translation is written in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox

from .errors import Unsupported
from .vocabulary import Term as Node

if TYPE_CHECKING:
    from .graph import ShapesGraph
    from .targets import Hierarchy


@dataclass(frozen=True)
class Out:
    """The variables a violation pattern binds: the result's value node and path (each
    only where the result has one), and ``key``, which only keeps results apart."""

    value: str
    path: str
    key: str


class Context(Protocol):
    """What a translation may ask of the compiler."""

    g: ShapesGraph
    hierarchy: Hierarchy | None  # the class hierarchy, when read beforehand (targets.py)
    focus_block: str  # binds the focus variable again inside a UNION branch ("" if bound)
    base: str | None  # the BASE of the ASK validators of the query being compiled, if any

    def fresh(self) -> str: ...
    def conforms(self, shape: Node, node: str) -> str: ...
    def path_triples(self, subject: str, path: Node, obj: str) -> str: ...
    def at_least(
        self, focus: str, path: Node, n: int, condition: str | None = None, var: str = ""
    ) -> str: ...
    def distinct_values(
        self, focus: str, path: Node, n: int, condition: str | None = None, var: str = ""
    ) -> str | None: ...


@dataclass(frozen=True)
class Constraint:
    """One use of a component by a shape: its parameter values, and the shape's path
    (None on a node shape)."""

    shape: Node
    component: Component
    params: dict[ox.NamedNode, Node] = field(hash=False)
    path: Node | None

    def integer(self, parameter: ox.NamedNode) -> int:
        """The parameter's value as an integer (minCount, maxLength, ...)."""
        value = self.params[parameter]
        try:
            return int(value.value)
        except ValueError:
            raise Unsupported(
                f"{parameter.value} {value.value} on {self.shape.value} is not an integer"
            ) from None

    def own_values(self, ctx: Context, focus: str, value: str) -> str:
        """A pattern binding ``value`` to each value node of ``focus``."""
        if self.path is None:
            return f"BIND ({focus} AS {value})"
        return ctx.path_triples(focus, self.path, value)


ValueTest = Callable[[Context, Constraint, str], str]
Violations = Callable[[Context, Constraint, str, Out], str | None]


@dataclass(frozen=True)
class Component:
    """A constraint component (SHACL 4, 6): its parameters and its SPARQL translation.

    ``test`` is a boolean expression true when one value node satisfies the
    constraint (a result per failing value node, with that value); ``violations`` is a
    graph pattern whose solutions at one focus node are the results (None: the
    constraint yields none). ``select`` translations (SPARQL-based SELECT) are whole
    queries and exist only at the top level."""

    iri: ox.NamedNode
    parameters: tuple[ox.NamedNode, ...]
    optional: tuple[ox.NamedNode, ...] = ()
    test: ValueTest | None = None
    violations: Violations | None = None
    node_shapes: bool = True
    property_shapes: bool = True
    select: object | None = None  # a SPARQL-based component's validators (sparql_based)
