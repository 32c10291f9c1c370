"""Checking an anthology against its rules: results located in source files, waivers.

``validate(anthology)`` runs the SHACL shapes over the data with the anthology's engine
(compiled SPARQL on Oxigraph, or pySHACL) and returns a Report whose
results each carry severity, focus entry, path, value, message, shape, rule, ADR and the
file and line of the focus entry. Waived results are kept, marked, and not counted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, overload

from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.term import Node

from .choices import INFERENCE_CHOICES as INFERENCE_CHOICES
from .config import FAIL_ON
from .errors import AnthologyError, display_path
from .namespaces import AK, SH
from .rules import WAIVER_SHAPE, Rule, rule_catalog, rule_code
from .shacl import ResultRow, report_graph
from .sourcemap import file_positions, locate

if TYPE_CHECKING:
    from .engine import Engine
SEVERITIES = ("Violation", "Warning", "Info")


@dataclass(frozen=True)
class RuleResult:
    """One validation result, as reported to people and to CI."""

    severity: str
    focus: str
    path: str | None
    value: str | None
    message: str
    shape: str
    rule: int | None
    adr: str | None
    file: str | None
    line: int | None
    component: str | None = None
    waived: bool = False
    waiver_reason: str | None = None
    #: The 1-based column of the triple at fault (of the focus subject when none is).
    column: int | None = None
    #: Against a baseline (baseline.py): "new", "unchanged" (there before, not counted)
    #: or "absent" (fixed: in the baseline only, not counted); None without one.
    baseline: str | None = None

    @property
    def code(self) -> str:
        """The rule's short stable code (``AK002``), see rules.rule_code."""
        return rule_code(self.rule, self.shape)

    def sort_key(self) -> tuple[str, int, int, int, str, str, str, str, str]:
        return (
            self.file or "\uffff",
            self.line or 0,
            self.column or 0,
            self.rule or 0,
            self.shape,
            self.focus,
            self.path or "",
            self.value or "",
            self.message,
        )

    def as_dict(self) -> dict[str, str | int | bool | None]:
        return {
            "code": self.code,
            "severity": self.severity,
            "focus": self.focus,
            "path": self.path,
            "value": self.value,
            "message": self.message,
            "shape": self.shape,
            "rule": self.rule,
            "adr": self.adr,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "component": self.component,
            "waived": self.waived,
            "waiverReason": self.waiver_reason,
        } | ({"baselineState": self.baseline} if self.baseline else {})


@dataclass
class Report:
    """The outcome of a validation: results sorted by file and line, and the rules run."""

    results: list[RuleResult]
    rules: list[Rule] = field(default_factory=list)
    # The engine's rows: every SHACL result, before waivers and selection, and the
    # shapes graph their paths are nodes of.
    rows: list[ResultRow] = field(default_factory=list, compare=False, repr=False)
    shapes: Graph | None = field(default=None, compare=False, repr=False)

    @property
    def shacl(self) -> Graph | None:
        """The W3C sh:ValidationReport of the rows, built when a caller asks for RDF."""
        return report_graph(self.rows, self.shapes) if self.shapes is not None else None

    @property
    def counted(self) -> list[RuleResult]:
        """The results that count: not waived, and new when compared to a baseline."""
        return [r for r in self.results if not r.waived and r.baseline in (None, "new")]

    def count(self, severity: str) -> int:
        return sum(1 for r in self.counted if r.severity == severity)

    @property
    def counts(self) -> dict[str, int]:
        counts = {s.lower() + "s": self.count(s) for s in SEVERITIES}
        counts["waived"] = sum(1 for r in self.results if r.waived)
        if any(r.baseline for r in self.results):
            counts["existing"] = sum(1 for r in self.results if r.baseline == "unchanged")
            counts["fixed"] = sum(1 for r in self.results if r.baseline == "absent")
        return counts

    @property
    def conforms(self) -> bool:
        """True when no counted result is a violation (warnings do not break conformance)."""
        return self.count("Violation") == 0

    def fails(self, fail_on: str = "violation") -> bool:
        """Whether CI should fail: on counted results of ``fail_on``'s severity or a
        graver one (``none``: never; ``info``: on any result)."""
        if fail_on not in FAIL_ON:
            raise AnthologyError(f"--fail-on is one of {', '.join(FAIL_ON)}")
        graver = SEVERITIES[: len(SEVERITIES) - FAIL_ON.index(fail_on) + 1]
        return fail_on != "none" and any(self.count(s) for s in graver)


def validate(anthology: Engine, inference: str = "none", today: dt.date | None = None) -> Report:
    """Validate ``anthology`` with its engine and return the located, waived and sorted
    results (the same model whichever engine found them)."""
    rows = anthology.shacl_rows(inference)
    rules = rule_catalog(anthology)
    by_shape = {rule.node: rule for rule in rules}
    results = [_result(anthology, row, by_shape) for row in rows]
    results = _apply_waivers(anthology, results, today or dt.date.today())
    return Report(
        results=sorted(set(results), key=RuleResult.sort_key),
        rules=rules,
        rows=rows,
        shapes=anthology.shapes,
    )


@overload
def short(anthology: Engine, node: Node) -> str: ...
@overload
def short(anthology: Engine, node: None) -> None: ...
@overload
def short(anthology: Engine, node: Node | None) -> str | None: ...
def short(anthology: Engine, node: Node | None) -> str | None:
    """A node as people read it: an entry's identifier, a prefixed name, or a literal."""
    if node is None:
        return None
    if isinstance(node, Literal):
        return str(node)
    if isinstance(node, BNode):
        owner = anthology.owner(node)
        return f"[] of {anthology.identifier(owner)}" if owner is not None else "[]"
    identifier = anthology.identifier(node)
    if identifier is not None:
        return identifier
    return anthology.normalize(node).strip("<>") if isinstance(node, URIRef) else str(node)


_PATH_SUFFIX = {SH.zeroOrMorePath: "*", SH.oneOrMorePath: "+", SH.zeroOrOnePath: "?"}


def _path_text(anthology: Engine, path: Node | None) -> str | None:
    """A SHACL path (a node of the shapes graph) in SPARQL property-path syntax, with
    prefixed names."""
    if path is None:
        return None
    if isinstance(path, URIRef):
        return anthology.normalize(path)
    shapes = anthology.shapes
    if (path, RDF.first, None) in shapes:
        return "/".join(_path_text(anthology, m) or "" for m in shapes.items(path))
    inverse = shapes.value(path, SH.inversePath)
    if inverse is not None:
        return "^" + (_path_text(anthology, inverse) or "")
    alternative = shapes.value(path, SH.alternativePath)
    if alternative is not None:
        members = shapes.items(alternative)
        return "(" + "|".join(_path_text(anthology, m) or "" for m in members) + ")"
    for predicate, suffix in _PATH_SUFFIX.items():
        inner = shapes.value(path, predicate)
        if inner is not None:
            return f"({_path_text(anthology, inner)}){suffix}"
    return str(path)


def _result(anthology: Engine, row: ResultRow, by_shape: dict[Node, Rule]) -> RuleResult:
    rule = by_shape.get(row.source_shape) or _enclosing_rule(
        anthology.shapes, row.source_shape, by_shape
    )
    messages = sorted(str(m) for m in row.messages)
    message = rule.message if rule and rule.message else (messages[0] if messages else "")
    owner = anthology.owner(row.focus)
    location = anthology.location(row.focus)
    where = (
        locate(file_positions(location.path, anthology.base), row.focus, owner, row.path, row.value)
        if location
        else None
    )
    return RuleResult(
        severity=str(row.severity).rsplit("#", 1)[-1],
        focus=short(anthology, owner if owner is not None else row.focus) or "",
        path=_path_text(anthology, row.path),
        value=short(anthology, row.value),
        message=message,
        shape=rule.name if rule else str(row.source_shape),
        rule=rule.number if rule else None,
        adr=rule.adr if rule else None,
        file=display_path(location.path) if location else None,
        line=where[0] if where else location.line if location else None,
        column=where[1] if where else None,
        component=str(row.source_constraint_component).rsplit("#", 1)[-1],
    )


def _enclosing_rule(shapes: Graph, shape: Node, by_shape: dict[Node, Rule]) -> Rule | None:
    """The named rule shape that a nested (blank) shape belongs to."""
    seen, todo = {shape}, [shape]
    while todo:
        current = todo.pop()
        if current in by_shape:
            return by_shape[current]
        for parent in shapes.subjects(None, current):
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return None


def _apply_waivers(
    anthology: Engine, results: list[RuleResult], today: dt.date
) -> list[RuleResult]:
    """Mark waived results; add a violation for each expired waiver."""
    waivers = anthology.waivers
    active: dict[tuple[str, str], str] = {}
    out: list[RuleResult] = []
    for waiver in sorted(waivers.subjects(RDF.type, AK.Waiver), key=str):
        focus = waivers.value(waiver, AK.waives)
        shape = waivers.value(waiver, AK.rule)
        reason = waivers.value(waiver, RDFS.comment)
        expires = waivers.value(waiver, AK.expires)
        location = anthology.locations.get(waiver)
        start = file_positions(location.path, anthology.base).subjects if location else {}
        problem = None
        if focus is None or shape is None or reason is None or expires is None:
            problem = "a waiver names the focus entry, the rule, a reason and an expiry date"
        else:
            try:
                expiry = dt.date.fromisoformat(str(expires))
            except ValueError:
                expiry = None
                problem = f"the waiver's expiry {expires} is not a date (YYYY-MM-DD)"
            if expiry is not None and expiry < today:
                problem = f"the waiver expired on {expiry.isoformat()}: {reason}"
        if problem or focus is None:  # (no focus always states a problem)
            out.append(
                RuleResult(
                    severity="Violation",
                    focus=short(anthology, focus) if focus is not None else str(waiver),
                    path=None,
                    value=None,
                    message=f"Waiver: {problem}",
                    shape=WAIVER_SHAPE,
                    rule=None,
                    adr=None,
                    file=display_path(location.path) if location else None,
                    line=location.line if location else None,
                    column=start[waiver][1] if waiver in start else None,
                )
            )
            continue
        # A waiver names the rule by its shape or by its code (ak:rule "AK009").
        rule_name = (
            anthology.shapes.namespace_manager.normalizeUri(shape)
            if isinstance(shape, URIRef)
            else str(shape)
        )
        active[(short(anthology, focus), rule_name)] = str(reason)
    for result in results:
        why = active.get((result.focus, result.shape)) or active.get((result.focus, result.code))
        out.append(replace(result, waived=True, waiver_reason=why) if why else result)
    return out
