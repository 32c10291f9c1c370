"""The rule catalog: which SHACL shape encodes which rule, of which decision record."""

from __future__ import annotations

from dataclasses import dataclass

from rdflib import RDFS, URIRef
from rdflib.term import Node

from .loader import Anthology
from .namespaces import AK, SH


@dataclass(frozen=True)
class Rule:
    """A named shape that encodes a rule."""

    node: Node
    name: str
    number: int | None
    label: str
    adr: str | None
    severity: str
    message: str | None

    @property
    def source(self) -> str:
        """Who the rule answers to: the decision record, or the record's integrity."""
        return self.adr or "integrity"


def rule_catalog(anthology: Anthology) -> list[Rule]:
    """Every shape with an ``ak:ruleNumber``, ordered by rule number and name."""
    shapes = anthology.shapes
    rules = []
    for node in set(shapes.subjects(AK.ruleNumber, None)):
        adr = shapes.value(node, AK.enforces)
        severity = shapes.value(node, SH.severity)
        message = shapes.value(node, SH.message)
        rules.append(
            Rule(
                node=node,
                name=shapes.namespace_manager.normalizeUri(node)
                if isinstance(node, URIRef)
                else str(node),
                number=int(shapes.value(node, AK.ruleNumber)),
                label=str(shapes.value(node, RDFS.label) or ""),
                adr=(anthology.identifier(adr) or str(adr).rsplit("/", 1)[-1]) if adr else None,
                severity=str(severity).rsplit("#", 1)[-1] if severity else "Violation",
                message=str(message) if message is not None else None,
            )
        )
    return sorted(rules, key=lambda r: (r.number or 0, r.name))
