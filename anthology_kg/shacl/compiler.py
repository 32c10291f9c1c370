"""The compiler: every constraint of every shape with targets becomes one SPARQL SELECT
whose solutions are the validation results (``?this`` the focus node, ``?value`` and
``?path`` where the result has them).

``COMPONENTS`` is the one table from a SHACL Core constraint component to its
translation (the sections' modules); ``NON_VALIDATING`` and the components' parameters
are the one definition of what the compiler supports: a shape using any other ``sh:``
property raises ``Unsupported``.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import pyoxigraph as ox

from . import (
    cardinality,
    logical,
    other,
    property_pair,
    shape_based,
    sparql_based,
    string_based,
    value_range,
    value_type,
)
from .errors import Unsupported
from .graph import ShapesGraph
from .model import Component, Constraint, Out
from .paths import exists_value, path_triples, pattern_path
from .sparql_rewrite import joined, negate, rename, term
from .targets import (
    FOCUS_NODE,
    TARGET_PREDICATES,
    Hierarchy,
    every_typed_node,
    focus_nodes,
    focus_pattern,
    has_targets,
    ox_hierarchy,
    read_hierarchy,
)
from .vocabulary import RDF, SH, TRUE, short_name, text
from .vocabulary import Term as ShapeTerm

if TYPE_CHECKING:
    from rdflib import Graph

    from ..kinds import Term

C = Component
COMPONENTS: tuple[Component, ...] = (
    # 4.1 value type
    C(SH.ClassConstraintComponent, (SH["class"],), test=value_type.class_test),
    C(SH.DatatypeConstraintComponent, (SH.datatype,), test=value_type.datatype_test),
    C(SH.NodeKindConstraintComponent, (SH.nodeKind,), test=value_type.node_kind_test),
    # 4.2 cardinality
    C(SH.MinCountConstraintComponent, (SH.minCount,), violations=cardinality.min_count),
    C(SH.MaxCountConstraintComponent, (SH.maxCount,), violations=cardinality.max_count),
    # 4.3 value range
    C(SH.MinExclusiveConstraintComponent, (SH.minExclusive,), test=value_range.min_exclusive),
    C(SH.MinInclusiveConstraintComponent, (SH.minInclusive,), test=value_range.min_inclusive),
    C(SH.MaxExclusiveConstraintComponent, (SH.maxExclusive,), test=value_range.max_exclusive),
    C(SH.MaxInclusiveConstraintComponent, (SH.maxInclusive,), test=value_range.max_inclusive),
    # 4.4 string-based
    C(SH.MinLengthConstraintComponent, (SH.minLength,), test=string_based.min_length),
    C(SH.MaxLengthConstraintComponent, (SH.maxLength,), test=string_based.max_length),
    C(SH.PatternConstraintComponent, (SH.pattern,), (SH.flags,), test=string_based.pattern),
    C(SH.LanguageInConstraintComponent, (SH.languageIn,), test=string_based.language_in),
    C(SH.UniqueLangConstraintComponent, (SH.uniqueLang,), violations=string_based.unique_lang),
    # 4.5 property pair
    C(SH.EqualsConstraintComponent, (SH.equals,), violations=property_pair.equals),
    C(SH.DisjointConstraintComponent, (SH.disjoint,), violations=property_pair.disjoint),
    C(SH.LessThanConstraintComponent, (SH.lessThan,), violations=property_pair.less_than),
    C(
        SH.LessThanOrEqualsConstraintComponent,
        (SH.lessThanOrEquals,),
        violations=property_pair.less_than_or_equals,
    ),
    # 4.6 logical
    C(SH.NotConstraintComponent, (SH["not"],), test=logical.not_test),
    C(SH.AndConstraintComponent, (SH["and"],), test=logical.and_test),
    C(SH.OrConstraintComponent, (SH["or"],), test=logical.or_test),
    C(SH.XoneConstraintComponent, (SH.xone,), test=logical.xone_test),
    # 4.7 shape-based (sh:property is the compiler's own structure, see compile_shape)
    C(SH.NodeConstraintComponent, (SH.node,), test=shape_based.node_test),
    C(
        SH.QualifiedMinCountConstraintComponent,
        (SH.qualifiedValueShape, SH.qualifiedMinCount),
        (SH.qualifiedValueShapesDisjoint,),
        violations=shape_based.qualified_min_count,
    ),
    C(
        SH.QualifiedMaxCountConstraintComponent,
        (SH.qualifiedValueShape, SH.qualifiedMaxCount),
        (SH.qualifiedValueShapesDisjoint,),
        violations=shape_based.qualified_max_count,
    ),
    # 4.8 other
    C(SH.ClosedConstraintComponent, (SH.closed,), (SH.ignoredProperties,), violations=other.closed),
    C(SH.HasValueConstraintComponent, (SH.hasValue,), violations=other.has_value),
    C(SH.InConstraintComponent, (SH["in"],), test=other.in_test),
)
# sh: properties of a shape that declare or describe it rather than constrain it.
NON_VALIDATING = {
    *TARGET_PREDICATES,
    SH.path,
    SH.property,
    SH.sparql,
    SH.select,  # a shape may be its own SPARQL constraint (read through sh:sparql)
    SH.message,
    SH.severity,
    SH.deactivated,
    SH.name,
    SH.description,
    SH.order,
    SH.group,
    SH.defaultValue,
    SH.declare,
    SH.prefixes,
}
# SHACL Advanced Features: defined by no W3C test of the core or SPARQL-based suites.
ADVANCED = {SH[name] for name in ("rule", "target", "condition", "expression")}
# Up to this many values, "at least n values" is n pairwise distinct variables (fast
# inside EXISTS); above it, a COUNT.
PAIRWISE_LIMIT = 4
#: The constraints compiled lately (``Compiler.compile``), by everything the compilation
#: reads (``Compiler._inputs``): every check, validation, push-down and server request
#: compiles the same bundled shapes for the same hierarchy again, ~5 ms each. Equal
#: inputs give equal constraints (the compiler reads nothing else: no clock, no
#: randomness, no global that changes), and what is kept is immutable (frozen
#: dataclasses of immutable terms and strings, in a tuple; each caller gets a list of
#: its own). At most ``_COMPILED_KEPT`` entries, the least recently used dropped first;
#: read and written under ``_COMPILED_LOCK`` (compilers in several threads may then both
#: compile the same inputs, and keep one of the equal answers). A refusal (Unsupported)
#: is not kept.
_COMPILED: OrderedDict[tuple[object, ...], tuple[tuple[CompiledConstraint, ...], int]] = (
    OrderedDict()
)
_COMPILED_KEPT = 16
_COMPILED_LOCK = threading.Lock()


def _filter_only(pattern: str) -> str | None:
    """The expression of a pattern that is one ``FILTER (...)`` and nothing else."""
    text = pattern.strip()
    if not (text.startswith("FILTER (") and text.endswith(")")):
        return None
    depth = 0
    for i, c in enumerate(text[7:], start=7):  # strings inside hold no unbalanced ( )
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0:
            return text[8:-1] if i == len(text) - 1 else None
    return None


@dataclass(frozen=True)
class CompiledConstraint:
    """One query; each solution is a result of ``shape`` with ``component``.

    ``value_is_focus``: a solution without ?value reports the focus node as the value
    (SPARQL-based constraints of node shapes). ``messages``: the result messages, whose
    templates' placeholders (SPARQL-based constraints) take the solution's variables, or
    ``message_terms``: the constraint component's parameter values by name. The terms
    are pyoxigraph's, or rdflib's after ``as_rdflib``."""

    shape: Term
    component: Term
    severity: Term
    path: Term | None
    sparql: str
    value_is_focus: bool = False
    source_constraint: Term | None = None
    messages: tuple[Term, ...] = ()
    message_terms: tuple[tuple[str, Term], ...] = ()

    def as_rdflib(self) -> CompiledConstraint:
        """The same constraint with rdflib's terms (for a caller that gave rdflib's)."""
        from ..terms import rdflib_term

        def optional(term: Term | None) -> Term | None:
            return rdflib_term(term) if term is not None else None

        return replace(
            self,
            shape=rdflib_term(self.shape),
            component=rdflib_term(self.component),
            severity=rdflib_term(self.severity),
            path=optional(self.path),
            source_constraint=optional(self.source_constraint),
            messages=tuple(rdflib_term(m) for m in self.messages),
            message_terms=tuple((name, rdflib_term(t)) for name, t in self.message_terms),
        )


class Compiler:
    """Compiles the shapes of one shapes graph. ``shapes`` is read on pyoxigraph terms
    (a ``ShapesGraph``); an rdflib graph is converted, and the constraints compiled from
    it then carry rdflib's terms. ``shapes_graph`` names the store graph
    holding the shapes, for ``$shapesGraph``; without it a query using it is refused.
    ``hierarchy``, the data's class hierarchy read beforehand, replaces the
    ``rdfs:subClassOf*`` paths of class targets and sh:class (see targets.instance_of);
    ``path_targets`` keeps the paths of class targets but those of one class without
    subclasses (see targets.focus_nodes): the form that Oxigraph answers fastest.
    ``tested_after``: a SPARQL constraint of a shape whose focus nodes include every
    typed node is answered once and its ``$this`` tested against them, where it can be
    (``sparql_based.select_query``): Oxigraph's cheaper form of such a query.
    ``bound_paths``: each path in the form pyoxigraph walks from the node its pattern
    starts at (``paths.pattern_path``), not walked from every node of the graph: a
    ``sh:oneOrMorePath`` as ``(p)+``, not the ``p/(p)*`` Virtuoso 7.2 needs.
    ``grouped_targets``: each focus node bound once, by a GROUP BY (``targets.focus_nodes``),
    where a node may be a focus once for each value of a ``sh:targetSubjectsOf``.
    ``focus_graph``: a shape named by an IRI takes its focus nodes from that graph of the
    store, where the caller has put each as the triple ``shape FOCUS_NODE node`` from the
    answers to ``focus_queries``: its targets found once, not again by each query of its
    constraints (SHACL-SHACL's ShapeShape, a union of 44 target patterns, is the shape
    of 62 of its 87 queries)."""

    def __init__(
        self,
        shapes: ShapesGraph | Graph,
        shapes_graph: str | None = None,
        hierarchy: Hierarchy | Mapping[Term, Sequence[Term]] | None = None,
        path_targets: bool = False,
        tested_after: bool = False,
        bound_paths: bool = False,
        grouped_targets: bool = False,
        focus_graph: ox.NamedNode | None = None,
    ):
        self._rdflib = not isinstance(shapes, ShapesGraph)
        self.g = shapes if isinstance(shapes, ShapesGraph) else ShapesGraph.of_rdflib(shapes)
        self.shapes_graph = shapes_graph
        self.hierarchy = ox_hierarchy(hierarchy) if hierarchy is not None else None
        self.path_targets = path_targets
        self.tested_after = tested_after
        self.bound_paths = bound_paths
        self.grouped_targets = grouped_targets
        self.focus_graph = focus_graph
        self.focus_block = ""
        #: The BASE the ASK validators of the query being compiled declare
        #: (``sparql_based.ask_violations``), written at the top of that query.
        self.base: str | None = None
        self._fresh = 0  # the number of the next fresh variable
        self._stack: list[ShapeTerm] = []
        self.components = COMPONENTS + tuple(sparql_based.components(self.g))
        self._parameters = {p for c in self.components for p in (*c.parameters, *c.optional)}

    @classmethod
    def for_store(
        cls,
        shapes: ShapesGraph | Graph,
        shapes_graph: str | None,
        select: Callable[[str], Iterable[Mapping[str, object]]],
        path_targets: bool = True,
    ) -> Compiler:
        """The compiler for a pyoxigraph store's data graph, which ``select`` queries:
        its class hierarchy read first, in the forms Oxigraph answers fastest
        (``path_targets``), or, without them, in the forms that hold the least memory:
        a class target's focus nodes looked up one by one instead of hash-joined. Either
        way a SPARQL constraint on every typed node is ``tested_after`` and each path is
        walked from the node its pattern starts at (``bound_paths``)."""
        return cls(
            shapes,
            shapes_graph,
            read_hierarchy(select),
            path_targets=path_targets,
            tested_after=True,
            bound_paths=True,
        )

    # -- helpers the translations use -----------------------------------------------
    def fresh(self) -> str:
        number, self._fresh = self._fresh, self._fresh + 1
        return f"?_v{number}"

    def path_triples(self, subject: str, path: ShapeTerm, obj: str) -> str:
        return path_triples(self.g, subject, path, obj, self.fresh, self.bound_paths)

    def at_least(
        self, focus: str, path: ShapeTerm, n: int, condition: str | None = None, var: str = ""
    ) -> str:
        """The expression: ``focus`` has at least ``n`` distinct values of ``path``
        (that satisfy ``condition``, written over the variable ``var``)."""
        if n <= 0:
            return "true"
        if n == 1 and condition is None:
            return exists_value(self.g, focus, path, self.fresh, self.bound_paths)
        if n > PAIRWISE_LIMIT:
            v, count = self.fresh(), self.fresh()
            test = f"FILTER ({rename(condition, {var[1:]: v})})" if condition else ""
            return (
                f"EXISTS {{ {{ SELECT {focus} (COUNT(DISTINCT {v}) AS {count}) WHERE {{ "
                f"{self.path_triples(focus, path, v)} {test} }} GROUP BY {focus} }} "
                f"FILTER ({count} >= {n}) }}"
            )
        return f"EXISTS {{ {self.distinct_values(focus, path, n, condition, var)} }}"

    def distinct_values(
        self, focus: str, path: ShapeTerm, n: int, condition: str | None = None, var: str = ""
    ) -> str | None:
        """A pattern with a solution where ``focus`` has ``n`` pairwise distinct values
        of ``path`` (that satisfy ``condition``, written over ``var``); None above
        PAIRWISE_LIMIT. Joined with the focus nodes rather than inside EXISTS, Oxigraph
        answers it by hash joins instead of a lookup per focus node (sh:maxCount 1 on
        every entry: a third less time)."""
        if n > PAIRWISE_LIMIT:
            return None
        names = [self.fresh() for _ in range(n)]
        parts = [self.path_triples(focus, path, v) for v in names]
        tests = [f"!sameTerm({a}, {b})" for a, b in itertools.combinations(names, 2)]
        if condition is not None:
            tests += [rename(condition, {var[1:]: v}) for v in names]
        test = f"FILTER ({' && '.join(tests)})" if tests else ""
        return f"{' '.join(parts)} {test}"

    # -- the one definition of a shape's constraints ---------------------------------
    def constraints(self, shape: ShapeTerm) -> list[Constraint]:
        """The constraints ``shape`` declares, in a stable order; Unsupported for any
        sh: property that is neither a parameter nor non-validating."""
        g = self.g
        for p in g.predicates(shape):
            if p in ADVANCED:
                raise Unsupported(f"{short_name(p)} on shape {shape.value} (SHACL-AF)")
            if p.value.startswith(SH.iri) and p not in NON_VALIDATING | self._parameters:
                raise Unsupported(f"{short_name(p)} on shape {shape.value}")
        path = g.value(shape, SH.path)
        out = []
        for component in self.components:
            if path is None and not component.node_shapes:
                continue
            if path is not None and not component.property_shapes:
                continue
            values = [sorted(g.objects(shape, p), key=text) for p in component.parameters]
            if not all(values):
                continue
            optional = {p: g.value(shape, p) for p in component.optional}
            for combination in itertools.product(*values):
                params = dict(zip(component.parameters, combination, strict=True))
                params.update({p: v for p, v in optional.items() if v is not None})
                out.append(Constraint(shape, component, params, path))
        return out

    def severity(self, shape: ShapeTerm) -> ox.NamedNode:
        severity = self.g.value(shape, SH.severity)
        return severity if isinstance(severity, ox.NamedNode) else SH.Violation

    def deactivated(self, node: ShapeTerm) -> bool:
        return self.g.has(node, SH.deactivated, TRUE)

    # -- a constraint's results at one focus node --------------------------------------
    def violations(self, c: Constraint, focus: str, out: Out) -> str | None:
        """A pattern whose solutions at ``focus`` are the results of ``c``."""
        component = c.component
        if component.test is not None:
            if c.path is None:
                test = negate(component.test(self, c, focus))
                return f"FILTER ({test}) BIND ({focus} AS {out.value})"
            return (
                f"{self.path_triples(focus, c.path, out.value)} "
                f"FILTER ({negate(component.test(self, c, out.value))})"
            )
        if component.violations is not None:
            return component.violations(self, c, focus, out)
        validators = component.select
        assert isinstance(validators, sparql_based.Validators)
        validator = validators.property if c.path is not None else validators.node
        if validator is None or not validator.ask:
            raise Unsupported(f"a SELECT validator of {component.iri.value} inside another shape")
        return sparql_based.ask_violations(self, c, validator, focus, out, self.shapes_graph)

    # -- conformance of a node to a shape (sh:node, sh:not, sh:or, ...) ---------------
    def conforms(self, shape: ShapeTerm, node: str) -> str:
        """A SPARQL expression true when ``node`` conforms to ``shape``."""
        if self.deactivated(shape):
            return "true"
        if shape in self._stack:
            raise Unsupported(f"recursive shape {shape.value}")
        self._stack.append(shape)
        try:
            tests = []
            saved, self.focus_block = self.focus_block, ""
            for c in self.constraints(shape):
                if c.component.test is not None and c.path is None:
                    tests.append(c.component.test(self, c, node))
                    continue
                out = Out(self.fresh(), self.fresh(), self.fresh())
                pattern = self.violations(c, node, out)
                if pattern is not None:
                    condition = _filter_only(pattern)
                    # A group of one FILTER is its expression: Virtuoso 7 does not see
                    # the outer bindings in an EXISTS group that has no triple pattern.
                    tests.append(negate(condition) if condition else f"NOT EXISTS {{ {pattern} }}")
            self.focus_block = saved
            if self.g.has(shape, SH.sparql):
                raise Unsupported(f"sh:sparql inside another shape ({shape.value})")
            path = self.g.value(shape, SH.path)
            for nested in sorted(self.g.objects(shape, SH.property), key=text):
                if path is None:
                    tests.append(self.conforms(nested, node))
                else:
                    v = self.fresh()
                    tests.append(
                        f"NOT EXISTS {{ {self.path_triples(node, path, v)} "
                        f"FILTER ({negate(self.conforms(nested, v))}) }}"
                    )
            return joined(tests, "&&", "true")
        finally:
            self._stack.pop()

    # -- whole shapes ------------------------------------------------------------------
    def shapes(self) -> list[ShapeTerm]:
        """The shapes with targets (SHACL 2.1.3), in a stable order."""
        g = self.g
        candidates = set(g.subjects(RDF.type, SH.NodeShape)) | set(
            g.subjects(RDF.type, SH.PropertyShape)
        )
        for predicate in (*TARGET_PREDICATES, SH.target):
            candidates |= set(g.subjects(predicate))
        return sorted((s for s in candidates if has_targets(g, s) or g.has(s, SH.target)), key=text)

    def focus_queries(self) -> list[tuple[ox.NamedNode, str]]:
        """For ``focus_graph``: each shape named by an IRI that has targets, and the
        query whose ``?this`` are its focus nodes, each once."""
        found = []
        for shape in self.shapes():
            if isinstance(shape, ox.NamedNode) and not self.deactivated(shape):
                pattern = focus_pattern(self.g, shape, self.hierarchy, self.path_targets)
                if pattern is not None:
                    found.append((shape, f"SELECT DISTINCT ?this WHERE {{ {pattern} }}"))
        return found

    def compile(self) -> list[CompiledConstraint]:
        """The queries of every shape with targets, in a stable order (on rdflib's
        terms when the shapes were given as an rdflib graph). A compiler that has
        written nothing yet takes them from ``_COMPILED`` when one with the same inputs
        compiled them before (the same list; its fresh variables numbered on as after
        compiling)."""
        untouched = self._fresh == 0 and not self.focus_block and not self._stack
        key = self._inputs() if untouched else None
        if key is not None:
            with _COMPILED_LOCK:
                found = _COMPILED.get(key)
                if found is not None:
                    _COMPILED.move_to_end(key)
            if found is not None:
                constraints, self._fresh = found
                return list(constraints)
        out = self._compile()
        out = [c.as_rdflib() for c in out] if self._rdflib else out
        if key is not None:
            with _COMPILED_LOCK:
                _COMPILED[key] = (tuple(out), self._fresh)
                while len(_COMPILED) > _COMPILED_KEPT:
                    _COMPILED.popitem(last=False)
        return out

    def _inputs(self) -> tuple[object, ...]:
        """Everything ``_compile`` reads, as a hashable value: both indexes of the shapes
        graph in their order (all a ShapesGraph answers from; it is never changed), the
        class hierarchy in its order, the options, and the library of the terms given."""
        g = self.g
        hierarchy = (
            None
            if self.hierarchy is None
            else tuple((cls, tuple(subs)) for cls, subs in self.hierarchy.items())
        )
        return (
            tuple(g),
            tuple((o, tuple(holders)) for o, holders in g._in.items()),
            hierarchy,
            self.shapes_graph,
            self.path_targets,
            self.tested_after,
            self.bound_paths,
            self.grouped_targets,
            self.focus_graph,
            self._rdflib,
        )

    def _compile(self) -> list[CompiledConstraint]:
        out = []
        for shape in self.shapes():
            if self.deactivated(shape):
                continue
            try:
                targets = focus_nodes(
                    self.g, shape, self.hierarchy, self.path_targets, grouped=self.grouped_targets
                )
                if targets is None:
                    continue
                if self.focus_graph is not None and isinstance(shape, ox.NamedNode):
                    given = (
                        f"{{ SELECT ?this WHERE {{ GRAPH {term(self.focus_graph)} "
                        f"{{ {term(shape)} {term(FOCUS_NODE)} ?this }} }} }}"
                    )
                    out += self.compile_shape(shape, given, (), given)
                    continue
                repeated = (
                    targets
                    if self.grouped_targets
                    else focus_nodes(self.g, shape, self.hierarchy, self.path_targets, False)
                )
                after = None
                if self.tested_after and every_typed_node(self.g, shape):
                    after = focus_pattern(self.g, shape, self.hierarchy, self.path_targets)
                out += self.compile_shape(shape, targets, (), repeated, after)
            except Unsupported as exc:
                exc.shape = exc.shape or shape  # (for the caller to say where it is written)
                raise
        return out

    def compile_shape(
        self,
        shape: ShapeTerm,
        targets: str,
        origins: tuple[str, ...],
        repeated: str | None = None,
        tested_after: str | None = None,
    ) -> list[CompiledConstraint]:
        """The queries of ``shape`` at the focus nodes ``targets`` (a pattern binding
        ?this), and of its property shapes at its value nodes. ``origins`` are the
        variables of the outer focus nodes a nested shape's focus node was reached
        from: a node reached from two is validated twice (the W3C suite's property-001).
        ``repeated`` binds the same focus nodes, some maybe more than once: the cheaper
        form, used where the query's answer is a set no aggregate counts (every core
        constraint's query is a SELECT DISTINCT of a join with its focus nodes).
        ``tested_after``: the focus nodes as a pattern, which the shape's SELECT
        constraints test their ``$this`` against (``sparql_based.select_query``)."""
        g, out = self.g, []
        repeated = repeated or targets
        path = g.value(shape, SH.path)
        severity, messages = self.severity(shape), tuple(g.objects(shape, SH.message))
        for c in self.constraints(shape):
            validators = c.component.select
            if isinstance(validators, sparql_based.Validators):
                validator = validators.property if path is not None else validators.node
                if validator is not None and not validator.ask:
                    focus = repeated if sparql_based.counts_nothing(validator.text) else targets
                    said = validator.messages or messages
                    names = sparql_based.template_names(said)
                    query = sparql_based.select_query(
                        g, c, validator.text, focus, sparql_based.prefixes(g, validator.node),
                        self.shapes_graph, names, tested_after,
                    )  # fmt: skip
                    parameters = sparql_based.parameter_terms(c)
                    out.append(
                        CompiledConstraint(
                            shape, c.component.iri, severity, path, query, path is None,
                            validator.node, said,
                            tuple((n, parameters[n]) for n in names if n in parameters),
                        )
                    )  # fmt: skip
                    continue
            self.focus_block, self.base = repeated, None
            pattern = self.violations(c, "?this", Out("?value", "?path", "?_key"))
            self.focus_block = ""
            if pattern is None:
                continue
            keep = " ".join(("?this", "?value", "?path", "?_key", *origins))
            base = "" if self.base is None else f"BASE <{self.base}>\n"
            query = f"{base}SELECT DISTINCT {keep} WHERE {{ {repeated} {pattern} }}"
            if isinstance(validators, sparql_based.Validators) and validator is not None:
                # An ASK validator: its messages, templates of the parameters and
                # $this, $value, $PATH (SHACL 6.2.2), as a SELECT validator's are.
                said = validator.messages or messages
                parameters = sparql_based.parameter_terms(c)
                out.append(
                    CompiledConstraint(
                        shape, c.component.iri, severity, path, query,
                        source_constraint=validator.node, messages=said,
                        message_terms=tuple(
                            (n, parameters[n])
                            for n in sparql_based.template_names(said)
                            if n in parameters
                        ),
                    )
                )  # fmt: skip
                continue
            out.append(
                CompiledConstraint(shape, c.component.iri, severity, path, query, messages=messages)
            )
        for sparql in sorted(g.objects(shape, SH.sparql), key=text):
            if self.deactivated(sparql):
                continue
            select = g.value(sparql, SH.select)
            if select is None:
                raise Unsupported(f"SPARQL constraint {sparql.value} without sh:select")
            c = Constraint(shape, sparql_based.SPARQL_CONSTRAINT, {}, path)
            focus = repeated if sparql_based.counts_nothing(select.value) else targets
            said = tuple(g.objects(sparql, SH.message)) or messages
            names = sparql_based.template_names(said)
            query = sparql_based.select_query(
                g, c, select.value, focus, sparql_based.prefixes(g, sparql), self.shapes_graph,
                names, tested_after,
            )  # fmt: skip
            out.append(
                CompiledConstraint(
                    shape, SH.SPARQLConstraintComponent, severity, path, query, path is None,
                    sparql, said,
                )
            )  # fmt: skip
        inner, inner_origins = targets, origins
        if path is not None:  # the value nodes of a property shape are its nested shapes' focus
            outer = self.fresh()
            inner_origins = (*origins, outer)
            kept = " ".join(origins)
            inner = (
                f"{{ SELECT DISTINCT ?this {' '.join(inner_origins)} WHERE {{ "
                f"{{ SELECT (?this AS {outer}) {kept} WHERE {{ {targets} }} }} "
                f"{outer} {pattern_path(g, path, self.bound_paths)} ?this }} }}"
            )
        for nested in sorted(g.objects(shape, SH.property), key=text):
            if not self.deactivated(nested):
                out += self.compile_shape(nested, inner, inner_origins)
        return out
