"""The rule catalog: which SHACL shape encodes which rule, of which decision record,
and the short stable code each rule is known by (``AK002``).

A rule's code is ``AK`` and its three-digit ``ak:ruleNumber`` (DESIGN.md numbers the
rules and never renumbers them), so the code lives where the number does, on the
shapes; the shapes that encode one rule share its code. A result no numbered rule
gives has the code of the waivers (``AK000``) or, for a shape of your own, its name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import pyoxigraph as ox

from .prefixes import PREFIXES
from .shacl.vocabulary import RDFS, SH, XSD, Namespace, text

if TYPE_CHECKING:
    from rdflib.term import Node

    from .engine import Engine
    from .shacl.vocabulary import Term

AK = Namespace(PREFIXES["ak"])

#: What a shape's ``ak:ruleNumber`` is, as shapes the shapes' syntax check runs on an
#: anthology's own shapes (ruleset.check_shape_syntax): one integer from 1, the digits of
#: the rule's code (0 would be the waivers' code, -1 ``AK-01``).
RULE_NUMBER_RULES = f"""
@prefix sh: <{SH.iri}> .
@prefix xsd: <{XSD.iri}> .
@prefix ak: <{AK.iri}> .
[] a sh:NodeShape ;
    sh:targetSubjectsOf ak:ruleNumber ;
    sh:property [ sh:path ak:ruleNumber ; sh:maxCount 1 ;
        sh:message "more than one value (a shape encodes one rule, with one number)" ] ;
    sh:property [ sh:path ak:ruleNumber ; sh:datatype xsd:integer ; sh:minInclusive 1 ;
        sh:message "not a rule's number, an integer from 1 (rule 2's code is AK002)" ] .
"""


#: A message term: pyoxigraph's or rdflib's literal (the reference engine's rows).
M = TypeVar("M")

#: SHACL's three severities, gravest first, as results name them.
SEVERITIES = ("Violation", "Warning", "Info")


def severity_name(iri: str) -> str:
    """The severity ``iri`` as results name it: ``Violation``, ``Warning`` or ``Info``
    for SHACL's three (the whole ``sh:`` IRI compared), any other IRI as written (SHACL
    3.6.2 allows any: ``http://ex.org/Blocker``)."""
    local = iri.removeprefix(SH.iri)
    return local if local != iri and local in SEVERITIES else iri


def graded(severity: str) -> str:
    """The SHACL severity a result of ``severity`` counts as: its own, and ``Violation``
    for any other IRI, which SHACL ranks nowhere (for CI, the safe choice: it breaks
    conformance and fails every ``--fail-on`` but ``none``)."""
    return severity if severity in SEVERITIES else "Violation"


def preferred_message(messages: Iterable[M]) -> M | None:
    """The one of a shape's ``sh:message`` values a result shows: one with no language
    tag, else an English one (``en``, ``en-GB``), else the first by tag and text, so
    that the choice is the same on both engines and in every run."""

    def order(message: M) -> tuple[int, str, str]:
        language = (getattr(message, "language", None) or "").lower()
        english = language == "en" or language.startswith("en-")
        lexical = str(getattr(message, "value", message))  # either library's literal
        return (0 if not language else 1 if english else 2, language, lexical)

    return min(messages, key=order, default=None)


@dataclass(frozen=True)
class Rule:
    """A named shape that encodes a rule: ``shape`` is the shape's node, a pyoxigraph
    term (``node`` gives it as rdflib's, loading rdflib)."""

    shape: Term
    name: str
    number: int | None
    label: str
    adr: str | None
    severity: str
    message: str | None

    @property
    def node(self) -> Node:
        """The shape's node as an rdflib term."""
        from .terms import from_ox

        return from_ox(self.shape)

    @property
    def code(self) -> str:
        """The rule's short stable code: ``AK`` and its number, ``AK002``."""
        return rule_code(self.number, self.name)

    @property
    def source(self) -> str:
        """Who the rule answers to: the decision record, or the record's integrity."""
        return self.adr or "integrity"


#: The code of results about the waivers file itself (an expired or incomplete waiver).
WAIVER_CODE = "AK000"
WAIVER_SHAPE = "aks:WaiverNotExpired"


def rule_code(number: int | None, shape: str) -> str:
    """The code of rule ``number``; a shape without a number is known by its name."""
    if number is not None:
        return f"AK{number:03d}"
    return WAIVER_CODE if shape == WAIVER_SHAPE else shape


def matches_code(code: str, shape: str, patterns: Sequence[str]) -> bool:
    """Whether a result of ``code`` (from ``shape``) is named by one of ``patterns``: a
    code, a code prefix as in ruff (``AK00`` names AK001–AK009) or a shape name. The
    waivers' own code is no rule's: a prefix does not name it, only ``AK000`` in full
    (ignoring rules 1-9 kept hiding an expired waiver)."""
    for pattern in patterns:
        wanted = pattern.strip()
        if not wanted:
            continue
        by_code = code.upper().startswith(wanted.upper())
        if code == WAIVER_CODE:
            by_code = wanted.upper() == WAIVER_CODE
        if by_code or shape == wanted:
            return True
        if shape.split(":")[-1] == wanted:
            return True
    return False


def rule_catalog(
    anthology: Engine, identifier: Callable[[Term], str | None] | None = None
) -> list[Rule]:
    """Every shape with an ``ak:ruleNumber``, and every named shape of one's own that
    states the decision record it enforces (``ak:enforces``) without one (its number
    None, its name and code its IRI, as its results carry without it), ordered by rule
    number (none first) and name (read from the shapes on pyoxigraph terms,
    ``Rules.shapes_view``); the identifier of the ADR each enforces found by
    ``identifier`` (default: the engine's)."""
    shapes = anthology.rules.shapes_view
    identifier = identifier or anthology.identifier
    rules = []
    enforcing = (node for node in shapes.subjects(AK.enforces) if isinstance(node, ox.NamedNode))
    for node in dict.fromkeys([*shapes.subjects(AK.ruleNumber), *enforcing]):
        adr = shapes.value(node, AK.enforces)
        severity = shapes.value(node, SH.severity)
        message = preferred_message(shapes.objects(node, SH.message))
        # (one integer from 1 where there is one: RULE_NUMBER_RULES)
        number = shapes.value(node, AK.ruleNumber)
        label = shapes.value(node, RDFS.label)
        if number is None:
            name = node.value
        elif isinstance(node, ox.NamedNode):
            name = anthology.normalize(node.value)
        else:
            name = node.value
        rules.append(
            Rule(
                shape=node,
                name=name,
                number=int(number.value) if number is not None else None,
                label=label.value if label is not None else "",
                adr=(identifier(adr) or text(adr).rsplit("/", 1)[-1]) if adr else None,
                severity=severity_name(text(severity)) if severity else "Violation",
                message=message.value if message is not None else None,
            )
        )
    return sorted(rules, key=lambda r: (r.number or 0, r.name))
