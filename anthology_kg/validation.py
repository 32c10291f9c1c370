"""Checking an anthology against its rules: pySHACL, results located in source files, waivers.

``validate(anthology)`` runs the SHACL shapes over the data and returns a Report whose
results each carry severity, focus entry, path, value, message, shape, rule, ADR and the
file and line of the focus entry. Waived results are kept, marked, and not counted.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import pyshacl
import rdflib
from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.plugins.sparql import processor as sparql_processor
from rdflib.term import Node

from .config import FAIL_ON
from .errors import AnthologyError, display_path
from .loader import Anthology, vocabulary
from .namespaces import AK, SH
from .rules import WAIVER_SHAPE, Rule, rule_catalog, rule_code
from .sourcemap import file_positions, locate

INFERENCE_CHOICES = ("none", "rdfs", "owlrl")
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

    def sort_key(self) -> tuple:
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

    def as_dict(self) -> dict:
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
    # The engine's W3C sh:ValidationReport: every result, before waivers and selection.
    shacl: Graph | None = field(default=None, compare=False, repr=False)

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


@contextlib.contextmanager
def _parsed_queries_cached() -> Iterator[None]:
    """Parse each SPARQL text once while pySHACL runs.

    pySHACL sends the same query text for every focus node (with the focus as an
    initial binding), and rdflib parses it anew each time, which dominates the run.
    A translated query is reusable with other bindings, so caching it is safe.
    """
    original = sparql_processor.SPARQLProcessor.query

    @functools.lru_cache(maxsize=256)
    def prepare(text: str, base: str | None, namespaces: tuple):
        parsed = sparql_processor.parseQuery(text)
        return sparql_processor.translateQuery(parsed, base, dict(namespaces))

    def query(self, strOrQuery, initBindings=None, initNs=None, base=None, DEBUG=False):  # noqa: N803
        if isinstance(strOrQuery, str):
            namespaces = tuple(sorted((str(k), str(v)) for k, v in (initNs or {}).items()))
            strOrQuery = prepare(strOrQuery, base, namespaces)
        return original(self, strOrQuery, initBindings, initNs, base, DEBUG)

    sparql_processor.SPARQLProcessor.query = query
    try:
        yield
    finally:
        sparql_processor.SPARQLProcessor.query = original


def shacl_report(
    data: Graph,
    shapes: Graph,
    ontology: Graph | None = None,
    inference: str = "none",
    allow_warnings: bool = False,
) -> tuple[bool, Graph]:
    """The reference engine: pySHACL, with each SPARQL text parsed once.

    Returns pySHACL's conforms flag and its sh:ValidationReport graph.
    """
    normalize = rdflib.NORMALIZE_LITERALS
    try:
        with _parsed_queries_cached():
            conforms, report_graph, _ = pyshacl.validate(
                data,
                shacl_graph=shapes,
                ont_graph=ontology,
                inference=inference,
                allow_warnings=allow_warnings,
                advanced=False,
            )
    finally:
        # pySHACL sets rdflib's global NORMALIZE_LITERALS back to True when it is done
        # (or fails).
        rdflib.NORMALIZE_LITERALS = normalize
    if not isinstance(report_graph, Graph):
        # pySHACL returns a ValidationFailure for shapes it refuses (unsupported SPARQL).
        raise AnthologyError(f"the shapes cannot be used: {report_graph}")
    return bool(conforms), report_graph


def run_shacl(anthology: Anthology, inference: str = "none") -> Graph:
    """Run pySHACL over the anthology's data with its shapes; return the report graph."""
    if inference not in INFERENCE_CHOICES:
        raise AnthologyError(f"unknown inference {inference!r}: use one of none, rdfs, owlrl")
    # Inference needs the whole ontology; without it, the vocabulary's skeleton will do
    # and keeps pySHACL from validating every axiom of the ontology as data.
    if inference == "none":
        data, ontology = anthology.data + vocabulary(anthology.ontology), None
    else:
        data, ontology = anthology.data, anthology.ontology
    return shacl_report(data, anthology.shapes, ontology, inference, allow_warnings=True)[1]


def validate(
    anthology: Anthology,
    inference: str = "none",
    today: dt.date | None = None,
    report_graph: Graph | None = None,
) -> Report:
    """Validate ``anthology`` and return the located, waived and sorted results.

    A FastAnthology is checked by the fast engine (shapes compiled to SPARQL on
    pyoxigraph), an Anthology by the reference engine (pySHACL).
    """
    from .fast import FastAnthology, fast_shacl

    # ``report_graph``: validated elsewhere already (pushed down to a SPARQL store).
    if report_graph is None and isinstance(anthology, FastAnthology):
        if inference != "none":
            raise AnthologyError(
                "the fast engine validates without inference: "
                "use --engine reference with --inference"
            )
        report_graph = fast_shacl(anthology)
    elif report_graph is None:
        report_graph = run_shacl(anthology, inference)
    rules = rule_catalog(anthology)
    by_shape = {rule.node: rule for rule in rules}
    results = [
        _result(anthology, report_graph, node, by_shape)
        for node in report_graph.subjects(RDF.type, SH.ValidationResult)
    ]
    results = _apply_waivers(anthology, results, today or dt.date.today())
    return Report(
        results=sorted(set(results), key=RuleResult.sort_key), rules=rules, shacl=report_graph
    )


def short(anthology: Anthology, node: Node | None) -> str | None:
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
    return anthology.normalize(node).strip("<>")


def _path_text(anthology: Anthology, graph: Graph, path: Node | None) -> str | None:
    """A SHACL path in SPARQL property-path syntax, with prefixed names."""
    if path is None:
        return None
    if isinstance(path, URIRef):
        return anthology.normalize(path)
    inverse = graph.value(path, SH.inversePath)
    if inverse is not None:
        return "^" + _path_text(anthology, graph, inverse)
    alternative = graph.value(path, SH.alternativePath)
    if alternative is not None:
        members = graph.collection(alternative)
        return "(" + "|".join(_path_text(anthology, graph, m) for m in members) + ")"
    if (path, RDF.first, None) in graph:
        return "/".join(_path_text(anthology, graph, m) for m in graph.collection(path))
    return str(path)


def _result(anthology: Anthology, graph: Graph, node: Node, by_shape: dict) -> RuleResult:
    focus_node = graph.value(node, SH.focusNode)
    shape_node = graph.value(node, SH.sourceShape)
    rule = by_shape.get(shape_node) or _enclosing_rule(anthology.shapes, shape_node, by_shape)
    messages = sorted(str(m) for m in graph.objects(node, SH.resultMessage))
    message = rule.message if rule and rule.message else (messages[0] if messages else "")
    severity = graph.value(node, SH.resultSeverity)
    owner = anthology.owner(focus_node)
    location = anthology.location(focus_node)
    value = graph.value(node, SH.value)
    component = graph.value(node, SH.sourceConstraintComponent)
    path = graph.value(node, SH.resultPath)
    where = (
        locate(file_positions(location.path, anthology.base), focus_node, owner, path, value)
        if location
        else None
    )
    return RuleResult(
        severity=str(severity).rsplit("#", 1)[-1] if severity else "Violation",
        focus=short(anthology, owner if owner is not None else focus_node),
        path=_path_text(anthology, graph, path),
        value=short(anthology, value),
        message=message,
        shape=rule.name if rule else str(shape_node),
        rule=rule.number if rule else None,
        adr=rule.adr if rule else None,
        file=display_path(location.path) if location else None,
        line=where[0] if where else location.line if location else None,
        column=where[1] if where else None,
        component=str(component).rsplit("#", 1)[-1] if component else None,
    )


def _enclosing_rule(shapes: Graph, shape: Node, by_shape: dict) -> Rule | None:
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
    anthology: Anthology, results: list[RuleResult], today: dt.date
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
        where = {
            "file": display_path(location.path) if location else None,
            "line": location.line if location else None,
            "column": start[waiver][1] if waiver in start else None,
        }
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
        if problem:
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
                    **where,
                )
            )
            continue
        # A waiver names the rule by its shape or by its code (ak:rule "AK009").
        rule_name = (
            str(shape)
            if isinstance(shape, Literal)
            else anthology.shapes.namespace_manager.normalizeUri(shape)
        )
        active[(short(anthology, focus), rule_name)] = str(reason)
    for result in results:
        reason = active.get((result.focus, result.shape)) or active.get((result.focus, result.code))
        out.append(replace(result, waived=True, waiver_reason=reason) if reason else result)
    return out
