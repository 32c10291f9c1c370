"""Checking an anthology against its rules: results located in source files, waivers.

``validate(anthology)`` runs the SHACL shapes over the data with the anthology's engine
(compiled SPARQL on Oxigraph, or pySHACL) and returns a Report whose
results each carry severity, focus entry, path, value, message, shape, rule, ADR and the
file and line of the focus entry. Waived results are kept, marked, and not counted.
The rows, rules and waivers are read on pyoxigraph terms (no rdflib on the Oxigraph
engine's path); the W3C report graph is built with rdflib when a caller asks for it.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import urllib.parse
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pyoxigraph as ox

from .choices import INFERENCE_CHOICES as INFERENCE_CHOICES
from .config import FAIL_ON, closest, did_you_mean, suggested
from .entries import iri_of
from .errors import AnthologyError, clipped, display_path, first_of
from .kinds import is_blank, is_iri, is_literal, text
from .layout import LayoutWarning
from .rules import (
    AK,
    SEVERITIES,
    WAIVER_SHAPE,
    Rule,
    graded,
    preferred_message,
    rule_catalog,
    rule_code,
    severity_name,
)
from .shacl import ResultRow
from .shacl.graph import ShapesGraph
from .shacl.vocabulary import RDF, RDFS, SH, ox_term
from .shacl.vocabulary import Term as ShapeTerm  # a node of the shapes graph (pyoxigraph's)
from .sourcemap import (
    Positions,
    Written,
    as_written,
    blank_bucket,
    blank_subjects,
    file_positions,
    locate,
    object_triples,
    value_key,
    written_alike,
    written_blank,
    written_triple,
)
from .sparql_text import code_matches, where_brace

if TYPE_CHECKING:
    from rdflib import Graph

    from .engine import Engine
    from .entries import Location
    from .kinds import Term

_OX_TERMS = (ox.NamedNode, ox.BlankNode, ox.Literal)


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
    #: The focus node itself where it is a named node other than the entry ``focus``
    #: names (a claim of the entry, as ``short`` writes it); None for the entry itself
    #: and for a blank node.
    node: str | None = None
    #: ``value`` as the text report shows it where its bare text is ambiguous: a literal
    #: in Turtle (``"c"@en``, ``"1"^^xsd:boolean``, ``"5"`` a string), else None.
    shown_value: str | None = None

    @property
    def code(self) -> str:
        """The rule's short stable code (``AK002``), see rules.rule_code."""
        return rule_code(self.rule, self.shape)

    def sort_key(self) -> tuple[str, int, int, int, str, str, str, str, str, str, str, str, str]:
        return (
            self.file or "\uffff",
            self.line or 0,
            self.column or 0,
            self.rule or 0,
            self.shape,
            self.focus,
            self.node or "",
            self.path or "",
            self.value or "",
            self.shown_value or "",  # an IRI and a string of one text: one order
            self.message,
            self.severity,
            self.component or "",
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
    # The engine's rows (on the terms its lookups take): every SHACL result, before
    # waivers and selection; and the engine, whose shapes their paths are nodes of.
    rows: list[ResultRow] = field(default_factory=list, compare=False, repr=False)
    engine: Engine | None = field(default=None, compare=False, repr=False)
    #: What is said on stderr and changes no exit code: a waiver that names nothing in
    #: the data (``_apply_waivers``), at its file and line.
    warnings: list[LayoutWarning] = field(default_factory=list)

    @property
    def shapes(self) -> Graph | None:
        """The engine's shapes as an rdflib graph (parsed when first asked for)."""
        return self.engine.shapes if self.engine is not None else None

    @property
    def shacl(self) -> Graph | None:
        """The W3C sh:ValidationReport of the rows, built when a caller asks for RDF."""
        from .shacl import report_graph

        shapes = self.shapes
        if shapes is None:
            return None
        return report_graph(self.rows, shapes)

    @property
    def counted(self) -> list[RuleResult]:
        """The results that count: not waived, and new when compared to a baseline."""
        return [r for r in self.results if not r.waived and r.baseline in (None, "new")]

    def count(self, severity: str) -> int:
        """The counted results of ``severity``, one of another IRI as a Violation."""
        return sum(1 for r in self.counted if graded(r.severity) == severity)

    @property
    def other_severities(self) -> dict[str, int]:
        """The counted results of each severity other than SHACL's three, by its IRI
        (counted among the violations too)."""
        found = Counter(r.severity for r in self.counted if r.severity not in SEVERITIES)
        return dict(sorted(found.items()))

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
        """True when no counted result is a violation (warnings do not break conformance;
        a result of a severity other than SHACL's three does, ``rules.graded``)."""
        return self.count("Violation") == 0

    def fails(self, fail_on: str = "violation") -> bool:
        """Whether CI should fail: on counted results of ``fail_on``'s severity or a
        graver one (``none``: never; ``info``: on any result)."""
        return any(self.count(s) for s in failing_severities(fail_on))


def failing_severities(fail_on: str = "violation") -> tuple[str, ...]:
    """The severities whose counted results make ``--fail-on fail_on`` exit 1
    (Report.fails): ``fail_on``'s and the graver ones, none for ``none``."""
    if fail_on not in FAIL_ON:
        raise AnthologyError(f"--fail-on is one of {', '.join(FAIL_ON)}")
    if fail_on == "none":
        return ()
    return SEVERITIES[: len(SEVERITIES) - FAIL_ON.index(fail_on) + 1]


def _warn_caller(why: str) -> None:
    """A UserWarning at the line of validate's caller (through validating_engine)."""
    warnings.warn(why, stacklevel=4)


def validate(
    anthology: Engine,
    inference: str = "none",
    today: dt.date | None = None,
    *,
    allow_service: bool = False,
) -> Report:
    """Validate ``anthology`` with its engine and return the located, waived and sorted
    results (the same model whichever engine found them). A shape whose SPARQL calls a
    remote endpoint (SERVICE) is an AnthologyError unless ``allow_service``: validation
    reaches the network only when the user asks (no engine pushes such a shape down to
    a store: the compiler refuses SERVICE, so it would run here). A waiver has expired
    when its ak:expires date is before ``today``, by default the UTC date (not the
    machine's, so that CI and a laptop agree). A fast engine not opened to validate
    (``open_engine(validates=True)``) is checked here as it would have been: where it
    cannot give SHACL's verdict, the reference engine validates, with a UserWarning
    saying why (``engine.validating_engine``), and is the report's engine."""
    from .engine import validating_engine
    from .guards import refuse_service_in_shapes, service_timeout

    anthology = validating_engine(anthology, _warn_caller)
    calls_service = refuse_service_in_shapes(anthology.rules.shapes_view, allow_service)
    with service_timeout(calls_service):
        rows = anthology.shacl_rows(inference)
    rules = rule_catalog(anthology)
    by_shape = {rule.shape: rule for rule in rules}
    referrers = functools.cache(anthology.referrers)  # (blank focus nodes ask again)
    objects = functools.cache(anthology.objects)
    blank_places = _BlankSubjects(anthology, objects)
    # One result per distinct row, not per distinct result: two blank nodes of one entry
    # failing one shape are two results, though neither has a name to tell them apart.
    results = [
        one
        for row in dict.fromkeys(rows)
        for one in _per_language(
            anthology, row, _result(anthology, row, by_shape, referrers, objects, blank_places)
        )
    ]
    today = today or dt.datetime.now(dt.timezone.utc).date()
    results, warnings = _apply_waivers(anthology, results, rules, today)
    return Report(
        results=sorted(results, key=RuleResult.sort_key),
        rules=rules,
        rows=rows,
        engine=anthology,
        warnings=warnings,
    )


def short(anthology: Engine, node: Term | None) -> str | None:
    """A node as people read it: an entry's identifier, a prefixed name, or a literal
    (``node``: a term of either library)."""
    if node is None:
        return None
    if is_literal(node):
        return text(node)
    if is_blank(node):
        owner = anthology.owner(node)
        return f"[] of {anthology.identifier(owner)}" if owner is not None else "[]"
    identifier = anthology.identifier(node)
    if identifier is not None:
        return identifier
    return anthology.normalize(text(node)).strip("<>") if is_iri(node) else text(node)


_XSD = "http://www.w3.org/2001/XMLSchema#"
#: The datatypes whose Turtle shorthand is the bare text (``5``, ``1.5``, ``1e3``, ``true``).
_SHORTHAND = {
    _XSD + "integer": re.compile(r"[+-]?[0-9]+"),
    _XSD + "decimal": re.compile(r"[+-]?[0-9]*\.[0-9]+"),
    _XSD + "double": re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]+"),
    _XSD + "boolean": re.compile(r"true|false"),
}
#: A string that a reader would take for a number, a boolean or an IRI if shown bare.
_NOT_A_BARE_STRING = re.compile(r"[+-]?[0-9.]+([eE][+-]?[0-9]+)?|true|false|\S*:\S*|")


def literal_shown(anthology: Engine, node: Term | None) -> str | None:
    """A literal ``node`` in Turtle where its bare text would be ambiguous (a language
    tag, a datatype its text does not show, a string that reads as a number or an
    IRI), for the text report; None where the bare text says it (``short``)."""
    if node is None or not is_literal(node):
        return None
    lexical = text(node)
    language = getattr(node, "language", None)
    datatype = getattr(node, "datatype", None)
    iri = str(getattr(datatype, "value", datatype)) if datatype is not None else _XSD + "string"
    quoted = ox.Literal(lexical).__str__()  # escaped as Turtle writes a string
    if language:
        return f"{quoted}@{language}"
    if iri == _XSD + "string":
        return quoted if _NOT_A_BARE_STRING.fullmatch(lexical) else None
    shorthand = _SHORTHAND.get(iri)
    if shorthand is not None and shorthand.fullmatch(lexical):
        return None
    return f"{quoted}^^{anthology.normalize(iri)}"


_PATH_SUFFIX = {SH.zeroOrMorePath: "*", SH.oneOrMorePath: "+", SH.zeroOrOnePath: "?"}


def _path_text(anthology: Engine, path: ShapeTerm | None) -> str | None:
    """A SHACL path (a node of the shapes graph) in SPARQL property-path syntax, with
    prefixed names."""
    if path is None:
        return None
    if isinstance(path, ox.NamedNode):
        return anthology.normalize(path.value)
    shapes = anthology.rules.shapes_view
    if shapes.has(path, RDF.first):
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
    return text(path)


def _per_language(anthology: Engine, row: ResultRow, result: RuleResult) -> list[RuleResult]:
    """``result``, or for an ``sh:uniqueLang`` result on a predicate path one result per
    language its values repeat, as SHACL reports them (each shown with ``@tag``): its
    rows carry no value to tell them apart, and equal rows are one result."""
    if not is_iri(row.path):
        return [result]
    if text(row.source_constraint_component) != SH.UniqueLangConstraintComponent.value:
        return [result]
    from rdflib import URIRef
    from rdflib.term import Node

    from .terms import from_ox

    focus = cast(Node, from_ox(row.focus) if isinstance(row.focus, _OX_TERMS) else row.focus)
    said = anthology.describe(focus)
    tags = Counter(
        language.lower()
        for value in said.objects(focus, URIRef(text(row.path)))
        if (language := getattr(value, "language", None))
    )
    repeated = sorted(tag for tag, n in tags.items() if n > 1)
    return [replace(result, shown_value=f"@{tag}") for tag in repeated] or [result]


def _result(
    anthology: Engine,
    row: ResultRow,
    by_shape: dict[ShapeTerm, Rule],
    referrers: Callable[[Term], Iterable[object]],
    objects: Callable[[Term], Iterable[object]],
    blank_places: _BlankSubjects,
) -> RuleResult:
    # The shapes' nodes (shape, path) read on pyoxigraph terms; the focus node and value
    # stay the engine's own (an rdflib engine's blank node may have no pyoxigraph label:
    # Virtuoso's nodeID://...), which its lookups take.
    shape = ox_term(row.source_shape)
    rule = by_shape.get(shape) or _enclosing_rule(anthology.rules.shapes_view, shape, by_shape)
    shown = preferred_message(row.messages)
    message = rule.message if rule and rule.message else (text(shown) if shown else "")
    if not message:
        message = default_message(anthology, shape, row.source_constraint_component)
    value = None if _value_is_the_focus_by_default(anthology.rules.shapes_view, row) else row.value
    owner = anthology.owner(row.focus)
    location = anthology.location(row.focus)
    where = None
    focus = row.focus  # as written, where the engine's store holds it in another form
    if location is None and is_literal(row.focus):
        placed = _literal_place(anthology, row.focus, shape, referrers, objects)
        if placed is not None:
            location, written = placed
            where = written.line, written.column
            focus = as_written(written, row.focus)
            if value == row.focus:
                value = focus
    elif location is None and is_blank(row.focus):
        subject_at = blank_places.place(row.focus)
        if subject_at is not None:
            location, where = subject_at
    elif location:
        positions = file_positions(location.path, anthology.base, isinstance(row.focus, _OX_TERMS))
        # A blank focus node is placed where the entry writes it, its parser's label
        # saying nothing of that: two of one entry are two places.
        holding = (
            written_blank(positions, row.focus, referrers, objects) if is_blank(row.focus) else None
        )
        subject = holding.object if holding is not None else row.focus
        predicate = _value_property(anthology, shape, row, positions, subject, value)
        where = locate(positions, row.focus, owner, predicate, value, holding)
        if is_literal(value) and is_iri(predicate):
            value = as_written(written_triple(positions, subject, predicate, value), value)
        if (
            predicate is not None
            and value is not None
            and is_iri(row.focus)
            and is_iri(predicate)
            and (is_iri(value) or is_literal(value))
            and written_triple(positions, row.focus, predicate, value) is None
        ):
            # The triple at fault is not in the file of the focus node's entry: another
            # file that writes the node as a subject may hold it (the layout rule warns
            # of such a file). Only then are all the data files' subjects read.
            elsewhere = _written_elsewhere(anthology, row.focus, predicate, value, location.path)
            if elsewhere is not None:
                location, written = elsewhere
                where = written.line, written.column
                value = as_written(written, value)
    own_node = owner is not None and owner != row.focus and not is_blank(row.focus)
    return RuleResult(
        severity=severity_name(text(row.severity)),
        focus=short(anthology, owner if owner is not None else focus) or "",
        node=short(anthology, row.focus) if own_node else None,
        path=_path_text(anthology, ox_term(row.path) if row.path is not None else None),
        value=short(anthology, value),
        shown_value=literal_shown(anthology, value),
        message=message,
        shape=rule.name if rule else own_shape_name(anthology.rules.shapes_view, shape),
        rule=rule.number if rule else None,
        adr=rule.adr if rule else None,
        file=display_path(location.path) if location else None,
        line=where[0] if where else location.line if location else None,
        column=where[1] if where else None,
        component=text(row.source_constraint_component).rsplit("#", 1)[-1],
    )


def _value_property(
    anthology: Engine,
    shape: ShapeTerm,
    row: ResultRow,
    positions: Positions,
    subject: object,
    value: Term | None,
) -> Term | None:
    """The property of the triple that gives ``row``'s value: its path, but for an
    sh:equals result whose value the file writes as a value of the property sh:equals
    names and not of the path, that property (SHACL 4.5.1 gives such a value too, on
    the shape's path: the triple to mend is the other one)."""
    path = row.path
    if (
        value is None
        or not is_iri(path)
        or text(row.source_constraint_component) != SH.EqualsConstraintComponent.value
        or written_triple(positions, subject, path, value) is not None
    ):
        return path
    named = anthology.rules.shapes_view.value(shape, SH.equals)
    if not isinstance(named, ox.NamedNode):
        return path
    other: Term = named
    if not isinstance(path, ox.NamedNode):  # the reference engine's terms: rdflib's
        from .terms import from_ox

        other = cast("Term", from_ox(named))
    return other if written_triple(positions, subject, other, value) is not None else path


def _written_elsewhere(
    anthology: Engine, focus: Term, predicate: Term, value: Term, home: Path
) -> tuple[Location, Written] | None:
    """The first data file other than ``home`` that writes ``focus predicate value``,
    and the triple as written there; None when none does."""
    ox_terms = isinstance(focus, _OX_TERMS)
    for place in anthology.written_in(focus):
        if place.path != home:
            positions = file_positions(place.path, anthology.base, ox_terms)
            found = written_triple(positions, focus, predicate, value)
            if found is not None:
                return place, found
    return None


class _BlankSubjects:
    """Where the data files write blank nodes as top-level subjects
    (``sourcemap.blank_subjects``), by ``blank_bucket``: read from every file on the first
    question, once a validation (only a result on a blank node no entry holds asks)."""

    def __init__(self, anthology: Engine, objects: Callable[[Term], Iterable[object]]):
        self.anthology, self.objects = anthology, objects
        self.found: dict[
            bool, dict[object, list[tuple[Path, tuple[int, int], list[set[object]]]]]
        ] = {}

    def place(self, node: Term) -> tuple[Location, tuple[int, int]] | None:
        """Where the blank ``node`` is written as a top-level subject whose objects as
        written are its own; None when no place fits, or several alike do."""
        from .entries import Location

        ox_terms = isinstance(node, _OX_TERMS)
        if ox_terms not in self.found:
            buckets: dict[object, list[tuple[Path, tuple[int, int], list[set[object]]]]] = {}
            for path in self.anthology.data_files:
                positions = file_positions(path, self.anthology.base, ox_terms)
                for at, bucket, keys in blank_subjects(positions):
                    buckets.setdefault(bucket, []).append((path, at, keys))
            self.found[ox_terms] = buckets
        own = list(self.objects(node))
        candidates = self.found[ox_terms].get(blank_bucket(own), [])
        fits = [(path, at) for path, at, keys in candidates if written_alike(own, keys)]
        return (Location(fits[0][0], fits[0][1][0]), fits[0][1]) if len(fits) == 1 else None


def _literal_place(
    anthology: Engine,
    literal: Term,
    shape: ShapeTerm,
    referrers: Callable[[Term], Iterable[object]],
    objects: Callable[[Term], Iterable[object]],
) -> tuple[Location, Written] | None:
    """Where a literal focus node (of ``sh:targetObjectsOf``, say) is written: the first
    triple, by file, line and column, that has it as its object, one of a predicate
    ``shape`` targets the objects of first, then one that writes it as the engine holds
    it before one that writes a literal the engine's store keeps so (``3e0`` for
    ``"3"^^xsd:double``: ``sourcemap._keys``); None if no file says."""
    targeted = {text(p) for p in anthology.rules.shapes_view.objects(shape, SH.targetObjectsOf)}
    subjects: list[tuple[Location, Positions, object]] = []
    for subject in referrers(literal):
        location = anthology.location(subject)  # type: ignore[arg-type]  # (a subject)
        if location is None:
            continue
        positions = file_positions(location.path, anthology.base, isinstance(literal, _OX_TERMS))
        holding = (
            written_blank(positions, subject, referrers, objects) if is_blank(subject) else None
        )
        subjects.append((location, positions, holding.object if holding else subject))
    found: list[tuple[bool, bool, str, int, int, Location, Written]] = []
    for stored in (False, True):
        if any(not place[0] for place in found):
            break  # a targeted triple writes it as held: none written otherwise comes first
        form = "stored" if stored else "written"
        for location, positions, written_subject in subjects:
            for w in object_triples(positions, written_subject, literal, form):
                untargeted = text(w.predicate) not in targeted
                place = (untargeted, stored, str(location.path), w.line, w.column)
                found.append((*place, location, w))
    if not found:
        return None
    *_, line, _, location, written = min(found, key=lambda place: place[:5])
    return replace(location, line=line), written


_SHACL = "http://www.w3.org/ns/shacl#"


def default_message(anthology: Engine, shape: ShapeTerm, component: Term) -> str:
    """The message of a result whose shape gives none (no sh:message): the constraint it
    fails, with the shape's values of its parameter (``fails sh:minCount 1``), the same
    on both engines (pySHACL's own text is left out: ``reference_shacl``)."""
    iri = text(component)
    if not iri.startswith(_SHACL):  # a component of one's own
        return f"fails {anthology.normalize(iri)}"
    name = iri[len(_SHACL) :].removesuffix("ConstraintComponent")
    if name == "SPARQL":
        return "fails a SPARQL constraint (sh:sparql)"
    parameter = name[0].lower() + name[1:]
    shapes = anthology.rules.shapes_view
    values = sorted(
        anthology.normalize(v.value) if isinstance(v, ox.NamedNode) else text(v)
        for v in shapes.objects(shape, SH[parameter])
        if not isinstance(v, ox.BlankNode)  # a list or a shape: named alone
    )
    return " ".join(["fails", f"sh:{parameter}", *values])


def own_shape_name(shapes: ShapesGraph, shape: ShapeTerm) -> str:
    """The name, and code, of the results of ``shape``, a shape of no rule number (the
    anthology's own): its IRI; for a blank node, the IRI of the nearest named shape it is
    nested in (a property shape takes its node shape's), else the first ``rdfs:label`` or
    ``sh:name`` found on it or the blank shapes it is nested in, else ``shape-`` and
    eight hex digits of the outermost one's label, which is a hash of its content
    (``bnodes``): the same on both engines, in every run."""
    if isinstance(shape, ox.NamedNode):
        return shape.value
    level, outermost = [shape], shape
    seen: set[ShapeTerm] = {shape}
    named: list[str] = []
    labels: list[str] = []
    while level and not named:
        for node in level:
            if not labels:
                labels = sorted(
                    str(label.value)
                    for predicate in (RDFS.label, SH.name)
                    for label in shapes.objects(node, predicate)
                    if isinstance(label, ox.Literal)
                )[:1]
        parents = sorted(
            {parent for node in level for parent in shapes.subjects(None, node)} - seen, key=str
        )
        named = sorted(p.value for p in parents if isinstance(p, ox.NamedNode))
        level = [p for p in parents if isinstance(p, ox.BlankNode)]
        seen.update(parents)
        if level:
            outermost = level[0]
    if named:
        return named[0]
    if labels:
        return labels[0]
    return f"shape-{text(outermost).removeprefix('b')[:8]}"


def own_shape_names(shapes: ShapesGraph) -> set[str]:
    """``own_shape_name`` of every blank-node shape of ``shapes`` (one with a target, a
    path or a shape's type, or a shape's sh:property): what --select and --ignore may name
    when the shape has no result to show it."""
    found: set[ShapeTerm] = set()
    for subject, predicate, value in shapes:
        if predicate in _TARGETS or predicate == SH.path:
            found.add(subject)
        elif predicate == RDF.type and value in _SHAPE_TYPES:
            found.add(subject)
        elif predicate == SH.property:
            found.add(value)
    return {own_shape_name(shapes, node) for node in found if isinstance(node, ox.BlankNode)}


#: A SELECT clause that projects ?value (or every variable).
_PROJECTS_VALUE = re.compile(r"[?$]value\b|\bSELECT\s+(?:(?:DISTINCT|REDUCED)\s+)?\*", re.I)


def _value_is_the_focus_by_default(shapes: ShapesGraph, row: ResultRow) -> bool:
    """Whether ``row``'s value is its focus node only because SHACL says so: a SPARQL
    constraint, or the SELECT validator of a node shape's constraint component, whose
    SELECT projects no ?value has the focus node as sh:value (SHACL 5.3.2, 6.3), as the
    W3C report graph keeps it; shown to people it would read as the value at fault
    (``(LIT-001, ak:category LIT-001)`` for a missing category). Read from the shapes
    alone (the engines differ in the source constraint they give a component's result),
    so both engines agree."""
    if row.value is None or row.value != row.focus:
        return False
    component = ox_term(row.source_constraint_component)
    if component == SH.SPARQLConstraintComponent:
        if row.source_constraint is None:
            return False
        select = shapes.value(ox_term(row.source_constraint), SH.select)
    elif shapes.value(ox_term(row.source_shape), SH.path) is None:  # a node shape's
        validator = shapes.value(component, SH.nodeValidator) or shapes.value(
            component, SH.validator
        )
        select = shapes.value(validator, SH.select) if validator is not None else None
    else:
        return False
    if not isinstance(select, ox.Literal):
        return False
    try:
        head = select.value[: where_brace(select.value)]
    except AnthologyError:  # (the engine ran it, so it has one)
        return False
    return next(code_matches(_PROJECTS_VALUE, head), None) is None


def _enclosing_rule(
    shapes: ShapesGraph, shape: ShapeTerm, by_shape: dict[ShapeTerm, Rule]
) -> Rule | None:
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
    anthology: Engine, results: list[RuleResult], rules: list[Rule], today: dt.date
) -> tuple[list[RuleResult], list[LayoutWarning]]:
    """Mark waived results; add a violation (AK000, at the waiver) for each waiver that is
    incomplete (a reason of blanks alone too), gives more than one focus entry, rule,
    reason or expiry date, or an expiry that is not a date, names no rule of ``rules``
    nor a shape (it would waive nothing), or has expired. A waiver whose focus names
    nothing in the data (``_names_nothing``: a typo, or a relative IRI read against
    another base) is a warning: it waives nothing, and the result it meant stays."""
    waivers = anthology.rules.waivers_view
    active: dict[tuple[str, str], str] = {}
    out: list[RuleResult] = []
    warnings: list[LayoutWarning] = []
    known: dict[str, None] | None = None  # what ak:rule may name, read at the first waiver
    for waiver in sorted(waivers.subjects(RDF.type, AK.Waiver), key=text):
        focuses = waivers.objects(waiver, AK.waives)
        shapes = waivers.objects(waiver, AK.rule)
        reasons = waivers.objects(waiver, RDFS.comment)
        dates = waivers.objects(waiver, AK.expires)
        # One of each is read; several are a problem, stated below (one shown: the first
        # by its text, whatever the order the parser gave them in).
        focus = min(focuses, key=text, default=None)
        shape = shapes[0] if len(shapes) == 1 else None
        reason = reasons[0] if len(reasons) == 1 else None
        names = _rule_names(anthology, shape) if shape is not None else []
        problem = None
        if not focuses or not shapes or not reasons or not dates:
            problem = "a waiver names the focus entry, the rule, a reason and an expiry date"
        elif reason is not None and not text(reason).strip():
            problem = (
                "a waiver names the focus entry, the rule, a reason and an expiry date: "
                "its reason (rdfs:comment) is empty"
            )
        elif several := _several(anthology, focuses, shapes, reasons, dates):
            problem = several
        else:
            assert shape is not None and reason is not None  # (one of each, above)
            if known is None:
                known = _waivable(anthology, rules)
            expiry = xsd_date(text(dates[0]))
            if expiry is None:
                problem = (
                    f"the waiver's expiry {text(dates[0])} is not a date (YYYY-MM-DD, "
                    "xsd:date's form, a time zone allowed)"
                )
            if not any(name in known for name in names):
                problem = (
                    f"the waiver names no rule {clipped(names[0])}{did_you_mean(names[0], known)}"
                )
            elif expiry is not None and expiry < (today.year, today.month, today.day):
                written = text(dates[0]).strip(_XML_SPACE)
                problem = f"the waiver expired on {written}: {reason.value}"
        if problem or focus is None:  # (no focus always states a problem)
            place = _waiver_place(anthology, waiver)
            out.append(
                RuleResult(
                    severity="Violation",
                    focus=(short(anthology, focus) or "") if focus is not None else text(waiver),
                    path=None,
                    value=None,
                    message=f"Waiver: {problem}",
                    shape=WAIVER_SHAPE,
                    rule=None,
                    adr=None,
                    file=display_path(place[0]) if place else None,
                    line=place[1] if place else None,
                    column=place[2] if place else None,
                )
            )
            continue
        assert reason is not None  # (else a problem, above)
        if _names_nothing(anthology, focus):
            place = _waiver_place(anthology, waiver)
            path = place[0] if place else anthology.rules.waivers_file
            if path is not None:
                said = _waives_nothing(anthology, focus, place[1] if place else None)
                warnings.append(LayoutWarning(path, place[1] if place else None, said))
        for name in names:
            active[(short(anthology, focus) or "", name)] = reason.value
    for result in results:
        why = active.get((result.focus, result.shape))
        if why is None:
            why = active.get((result.focus, result.code))
        out.append(result if why is None else replace(result, waived=True, waiver_reason=why))
    return out, sorted(warnings, key=lambda w: (w.path, w.line or 0))


def _names_nothing(anthology: Engine, focus: ShapeTerm) -> bool:
    """Whether ``focus``, an IRI, has no statement of it or about it in the data (a
    result's focus is an entry or another node of the data): a waiver of it waives
    nothing."""
    if iri_of(focus) is None or anthology.identifier(focus) is not None:
        return False
    return not (anthology.objects(focus) or anthology.referrers(focus))


def _waives_nothing(anthology: Engine, focus: ShapeTerm, line: int | None) -> str:
    """Why a waiver of the IRI ``focus`` (``_names_nothing``), written at ``line`` of
    waivers.ttl (None: not known, the file's last directives hold), waives nothing. The
    base a relative IRI resolves against there is named where ``focus`` is under it:
    the file's ``@base`` in force (with its line), else the configured one. The entries
    whose identifiers are closest to the IRI's last part are offered as waivers.ttl
    would write them there: the identifier where the relative IRI of it reaches the
    entry, else a prefixed name the file declares, else the entry's whole IRI."""
    iri = iri_of(focus)
    assert iri is not None  # (_names_nothing)
    base, base_line, prefixes = _waivers_terms(anthology, line)
    under = iri.startswith(base) and len(iri) > len(base)
    word = iri[len(base) :] if under else re.split("[/#]", iri)[-1]
    entries: dict[str, str] = {}
    for node, identifier in anthology.identifier_pairs():
        entry = iri_of(node)
        if entry is not None:
            entries.setdefault(identifier, entry)
    waivers = anthology.rules.waivers_file
    set_by = (
        f", set by {display_path(waivers)}:{base_line}"
        if base_line is not None and waivers is not None
        else ""
    )
    resolved = f" (a relative IRI resolves against the base <{base}>{set_by})" if under else ""
    offered = [
        _written_as(entries[identifier], identifier, base, prefixes)
        for identifier in closest(word, sorted(entries))
    ]
    return (
        f"the waiver waives <{iri}>, which names nothing in the data, and so waives "
        f"nothing{resolved}{suggested(offered)}"
    )


def _waivers_terms(anthology: Engine, line: int | None) -> tuple[str, int | None, dict[str, str]]:
    """The base in force at ``line`` of waivers.ttl (the configured base, or the last
    ``@base``/``BASE`` written before it, resolved), the line of that directive (None
    for the configured base), and the prefixes declared before it."""
    base, base_line = anthology.base, None
    prefixes: dict[str, str] = {}
    path = anthology.rules.waivers_file
    if path is None:
        return base, base_line, prefixes
    for at, prefix, value in file_positions(path, anthology.base, ox_terms=True).directives:
        if line is not None and at >= line:
            break
        if prefix is None:
            base, base_line = value, at
        else:
            prefixes[prefix] = value
    return base, base_line, prefixes


#: A prefixed name's local part written without escapes (Turtle's PN_LOCAL, simplified).
_PLAIN_LOCAL = re.compile(r"[\w](?:[\w.-]*[\w-])?")


def _written_as(entry: str, identifier: str, base: str, prefixes: dict[str, str]) -> str:
    """How waivers.ttl would name the IRI ``entry`` of the entry ``identifier`` where
    ``base`` and ``prefixes`` are in force: the identifier, where ``<identifier>``
    resolves to it (as 4a083df offered it); a prefixed name, the longest namespace
    first; else the whole IRI."""
    if urllib.parse.urljoin(base, identifier) == entry:
        return identifier
    named = [
        (-len(namespace), prefix)
        for prefix, namespace in prefixes.items()
        if entry.startswith(namespace) and _PLAIN_LOCAL.fullmatch(entry[len(namespace) :])
    ]
    if named:
        _, prefix = min(named)
        return f"{prefix}:{entry[len(prefixes[prefix]) :]}"
    return f"<{entry}>"


def _waiver_place(anthology: Engine, waiver: ShapeTerm) -> tuple[Path, int, int | None] | None:
    """The file, line and column where ``waiver`` is written: a named one by its IRI, a
    blank one (``[] a ak:Waiver``) as the one statement of the file that writes its
    triples (its parser's label says nothing of where it is)."""
    path = anthology.rules.waivers_file
    if path is None:
        return None
    positions = file_positions(path, anthology.base, ox_terms=True)
    iri = iri_of(waiver)
    if iri is not None:
        location = anthology.rules.waiver_lines.get(iri)
        if location is None:
            return None
        start = positions.subjects.get(waiver)
        return location.path, location.line, start[1] if start else None
    waivers = anthology.rules.waivers_view
    triples = {
        (predicate, value_key(value))
        for predicate in waivers.predicates(waiver)
        for value in waivers.objects(waiver, predicate)
    }
    alike = positions.blank_statements.get(frozenset(triples), [])
    if len(alike) != 1:
        return None
    line, column = positions.subjects[alike[0]]
    return path, line, column


def _several(
    anthology: Engine,
    focuses: list[ShapeTerm],
    shapes: list[ShapeTerm],
    reasons: list[ShapeTerm],
    dates: list[ShapeTerm],
) -> str | None:
    """The problem of a waiver that gives more than one focus entry, rule, reason or
    expiry date (a waiver waives one rule of one entry; a value past the first was
    dropped without a word), or None."""

    def named(value: ShapeTerm) -> str:
        return short(anthology, value) or ""

    def quoted(value: ShapeTerm) -> str:
        return clipped(text(value))

    for values, what, shown in (
        (focuses, "focus entry (ak:waives)", named),
        (shapes, "rule (ak:rule)", named),
        (reasons, "reason (rdfs:comment)", quoted),
        (dates, "expiry date (ak:expires)", text),
    ):
        if len(values) > 1:
            listed = sorted(shown(value) for value in values)
            return f"a waiver has one {what}, not {len(values)}: {first_of(listed)}"
    return None


#: xsd:date's lexical form (XSD 1.1, 3.3.9): a year of four digits or more (a leading
#: zero only to make four; negative allowed), month, day, and an optional time zone.
#: Not ``date.fromisoformat``: since Python 3.11 it also takes ``20240101`` and week
#: dates (``2024-W01-1``), which no RDF tool reads as an xsd:date.
_XSD_DATE = re.compile(
    r"(-?(?:[1-9][0-9]{3,}|0[0-9]{3}))-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
)
#: The whitespace xsd:date's lexical space collapses (XSD's whiteSpace facet).
_XML_SPACE = " \t\n\r"


def xsd_date(lexical: str) -> tuple[int, int, int] | None:
    """The (year, month, day) of an xsd:date lexical form, its time zone left out (a
    waiver expires by the UTC date: see ``validate``); None when ``lexical`` is not one,
    or names a day its month lacks (``2023-02-29``). Years outside 1-9999 are kept
    (proleptic Gregorian, year 0 a leap year, as XSD 1.1 says)."""
    found = _XSD_DATE.fullmatch(lexical.strip(_XML_SPACE))
    if found is None:
        return None
    year, month, day = (int(part) for part in found.groups())
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
    return (year, month, day) if day <= days else None


def _rule_names(anthology: Engine, shape: ShapeTerm) -> list[str]:
    """The names a waiver's ``ak:rule`` value is matched by, the one to show first: a
    code or shape name as written ("AK009"), or a shape's IRI as a prefixed name (as a
    numbered rule's results give it) and as it is (as a shape of no number gives it)."""
    if isinstance(shape, ox.NamedNode):
        return [anthology.normalize(shape.value), shape.value]
    return [text(shape)]


def _waivable(anthology: Engine, rules: list[Rule]) -> dict[str, None]:
    """What a waiver's ``ak:rule`` may name, in order for "did you mean": each rule's code
    and shape name, then the IRI of each named shape (a NodeShape, a PropertyShape or one
    with a target) of no rule number, which its results carry as their shape, then the
    name of each blank-node shape (``own_shape_names``), as --select and --ignore take."""
    known = dict.fromkeys([rule.code for rule in rules] + [rule.name for rule in rules])
    numbered = {rule.shape for rule in rules}
    shapes = anthology.rules.shapes_view
    for subject, predicate, value in shapes:
        if not isinstance(subject, ox.NamedNode) or subject in numbered:
            continue
        if predicate in _TARGETS or (predicate == RDF.type and value in _SHAPE_TYPES):
            known[subject.value] = None
    # (A blank shape nested in a rule's is named by that shape's IRI, which its results
    # do not carry: they carry the rule's name.)
    numbered_iris = {text(shape) for shape in numbered}
    known.update(dict.fromkeys(sorted(own_shape_names(shapes) - numbered_iris)))
    return known


_SHAPE_TYPES = (SH.NodeShape, SH.PropertyShape)
_TARGETS = (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf, SH.target)
