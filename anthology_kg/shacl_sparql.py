"""SHACL shapes compiled to SPARQL SELECT queries: the fast engine's validator.

Each constraint of each shape becomes one query whose rows are the validation results
(``?this`` the focus node, ``?value`` the value node where the constraint has one).
The queries run on any SPARQL 1.1 engine; the fast engine runs them on pyoxigraph.
Constraints the compiler does not know raise ``Unsupported``, so that a caller can
fall back to the reference engine (pySHACL) rather than give a partial answer.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.namespace import OWL, SH
from rdflib.term import Node

from .export import nt_term
from .queries import _where_brace

TYPE_PATH = f"<{RDF.type}>/<{RDFS.subClassOf}>*"


class Unsupported(Exception):
    """A shape uses SHACL the compiler does not handle."""


@dataclass(frozen=True)
class CompiledConstraint:
    """One query; each row is a result of ``shape`` with ``component``."""

    shape: Node
    component: URIRef
    severity: URIRef
    path: Node | None  # the shape's sh:path, copied into the report
    sparql: str
    value_is_focus: bool  # node-level constraints report the focus as the value


def term(node: Node) -> str:
    """A constant in SPARQL syntax (N-Triples syntax is valid SPARQL)."""
    if isinstance(node, BNode):
        raise Unsupported(f"blank node {node} used as a constant")
    return nt_term(node)


class Compiler:
    """Compiles the shapes of one shapes graph."""

    def __init__(self, shapes: Graph):
        self.g = shapes
        self.fresh = itertools.count()

    def var(self) -> str:
        return f"?_v{next(self.fresh)}"

    def items(self, node: Node) -> list[Node]:
        return list(self.g.collection(node))

    # -- paths and targets -----------------------------------------------------------
    def path(self, node: Node) -> str:
        g = self.g
        if isinstance(node, URIRef):
            return f"<{node}>"
        if (node, RDF.first, None) in g:
            return "(" + "/".join(self.path(p) for p in self.items(node)) + ")"
        for predicate, suffix in (
            (SH.zeroOrMorePath, "*"),
            (SH.oneOrMorePath, "+"),
            (SH.zeroOrOnePath, "?"),
        ):
            inner = g.value(node, predicate)
            if inner is not None:
                return f"({self.path(inner)}){suffix}"
        inverse = g.value(node, SH.inversePath)
        if inverse is not None:
            return f"^({self.path(inverse)})"
        alternative = g.value(node, SH.alternativePath)
        if alternative is not None:
            return "(" + "|".join(self.path(p) for p in self.items(alternative)) + ")"
        raise Unsupported(f"path {node}")

    def targets(self, shape: Node) -> str | None:
        g, parts = self.g, []
        for cls in g.objects(shape, SH.targetClass):
            parts.append(f"{{ ?this {TYPE_PATH} {term(cls)} . }}")
        if (shape, RDF.type, RDFS.Class) in g or (shape, RDF.type, OWL.Class) in g:
            parts.append(f"{{ ?this {TYPE_PATH} {term(shape)} . }}")
        for node in g.objects(shape, SH.targetNode):
            parts.append(f"{{ VALUES ?this {{ {term(node)} }} }}")
        for p in g.objects(shape, SH.targetSubjectsOf):
            parts.append(f"{{ ?this {term(p)} ?_ts . }}")
        for p in g.objects(shape, SH.targetObjectsOf):
            parts.append(f"{{ ?_to {term(p)} ?this . }}")
        if (shape, SH.target, None) in g:
            raise Unsupported("sh:target (SHACL-AF)")
        if not parts:
            return None
        return "{ SELECT DISTINCT ?this WHERE { " + " UNION ".join(sorted(parts)) + " } }"

    # -- conformance of a node to a shape, as a SPARQL boolean expression -------------
    def conforms(self, shape: Node, node: str) -> str:
        g, tests = self.g, []
        path = g.value(shape, SH.path)
        if path is not None:
            values = self.var()
            tests += self.value_tests(shape, node, path, values)
        else:
            tests += self.node_tests(shape, node)
        for nested in g.objects(shape, SH.property):
            tests.append(self.conforms(nested, node))
        return "(" + " && ".join(tests) + ")" if tests else "true"

    def node_tests(self, shape: Node, node: str) -> list[str]:
        tests = []
        for p, o in self.g.predicate_objects(shape):
            if p == SH.hasValue:
                tests.append(f"sameTerm({node}, {term(o)})")
            elif p in _NODE_TESTS:
                tests += self._one_node_test(p, o, shape, node)
            elif p in _IGNORED or p in _TARGETS or p == SH.property:
                continue
            elif str(p).startswith(str(SH)):
                raise Unsupported(f"{p} inside a shape")
        return tests

    def triples(self, subject: str, path: Node, obj: str) -> str:
        """``subject path obj`` as triple patterns: a chain of predicates and inverse
        predicates is spelled out, which engines evaluate far faster inside EXISTS than
        the same property path; any other path stays a property path."""
        g = self.g
        if isinstance(path, URIRef):
            return f"{subject} <{path}> {obj} ."
        inverse = g.value(path, SH.inversePath)
        if isinstance(inverse, URIRef):
            return f"{obj} <{inverse}> {subject} ."
        if (path, RDF.first, None) in g:
            steps = self.items(path)
            if all(
                isinstance(st, URIRef) or isinstance(g.value(st, SH.inversePath), URIRef)
                for st in steps
            ):
                nodes = [subject] + [self.var() for _ in steps[:-1]] + [obj]
                return " ".join(
                    self.triples(a, st, b)
                    for a, st, b in zip(nodes, steps, nodes[1:], strict=False)
                )
        return f"{subject} {self.path(path)} {obj} ."

    def value_tests(self, shape: Node, node: str, path: Node, values: str) -> list[str]:
        g, tests = self.g, []
        pattern = self.triples(node, path, values)
        for p, o in g.predicate_objects(shape):
            if p == SH.minCount:
                tests.append(self.count_at_least(node, path, int(o)))
            elif p == SH.maxCount:
                tests.append("!" + self.count_at_least(node, path, int(o) + 1))
            elif p == SH.hasValue:
                tests.append(f"EXISTS {{ {self.triples(node, path, term(o))} }}")
            elif p in _NODE_TESTS:
                inner = self.node_tests_for(p, o, shape, values)
                tests.append(f"NOT EXISTS {{ {pattern} FILTER (!{inner}) }}")
            elif p in _IGNORED or p == SH.path:
                continue
            elif str(p).startswith(str(SH)):
                raise Unsupported(f"{p} inside a shape")
        return tests

    def node_tests_for(self, p: URIRef, o: Node, shape: Node, node: str) -> str:
        if p == SH.hasValue:
            return f"sameTerm({node}, {term(o)})"
        return "(" + " && ".join(self._one_node_test(p, o, shape, node)) + ")"

    def _one_node_test(self, p: URIRef, o: Node, shape: Node, node: str) -> list[str]:
        if p == SH["class"]:
            return [f"EXISTS {{ {node} {TYPE_PATH} {term(o)} }}"]
        if p == SH.datatype:
            return [f"(isLiteral({node}) && datatype({node}) = {term(o)})"]
        if p == SH["in"]:
            return [f"{node} IN ({', '.join(term(i) for i in self.items(o))})"]
        if p == SH.nodeKind:
            return [self.node_kind(node, o)]
        if p == SH["not"]:
            return [f"!{self.conforms(o, node)}"]
        if p == SH.node:
            return [self.conforms(o, node)]
        if p == SH.pattern:
            return [self.pattern_test(shape, node, o)]
        if p == SH["or"]:
            return ["(" + " || ".join(self.conforms(s, node) for s in self.items(o)) + ")"]
        if p == SH["and"]:
            return ["(" + " && ".join(self.conforms(s, node) for s in self.items(o)) + ")"]
        if p == SH.xone:
            ones = " + ".join(f"IF({self.conforms(s, node)}, 1, 0)" for s in self.items(o))
            return [f"(({ones}) = 1)"]
        if p in _RANGES:
            return [f"COALESCE(({node} {_RANGES[p]} {term(o)}), false)"]
        if p == SH.minLength:
            return [f"(!isBlank({node}) && STRLEN(STR({node})) >= {int(o)})"]
        if p == SH.maxLength:
            return [f"(!isBlank({node}) && STRLEN(STR({node})) <= {int(o)})"]
        if p == SH.languageIn:
            tags = " || ".join(f"langMatches(lang({node}), {term(t)})" for t in self.items(o))
            return [f"(isLiteral({node}) && ({tags or 'false'}))"]
        raise Unsupported(str(p))

    def exists_path(self, node: str, path: Node) -> str:
        """EXISTS a value of ``path`` from ``node``; a chain of steps becomes nested
        EXISTS, one step each, which keeps engines from joining the whole chain first."""
        g = self.g
        if (path, RDF.first, None) in g:
            steps = self.items(path)
            if len(steps) > 1:
                return self._exists_steps(node, steps)
        return f"EXISTS {{ {self.triples(node, path, self.var())} }}"

    def _exists_steps(self, node: str, steps: list[Node]) -> str:
        if len(steps) == 1:
            return f"EXISTS {{ {self.triples(node, steps[0], self.var())} }}"
        middle = self.var()
        return (
            f"EXISTS {{ {self.triples(node, steps[0], middle)} "
            f"FILTER ({self._exists_steps(middle, steps[1:])}) }}"
        )

    def count_at_least(self, node: str, path: Node, n: int) -> str:
        if n <= 0:
            return "true"
        if n == 1:
            return self.exists_path(node, path)
        names = [self.var() for _ in range(n)]
        triples = " ".join(self.triples(node, path, v) for v in names)
        distinct = " && ".join(f"{a} != {b}" for a, b in itertools.combinations(names, 2))
        return f"EXISTS {{ {triples} {'FILTER (' + distinct + ')' if distinct else ''} }}"

    def node_kind(self, node: str, kind: Node) -> str:
        tests = {
            SH.IRI: f"isIRI({node})",
            SH.BlankNode: f"isBlank({node})",
            SH.Literal: f"isLiteral({node})",
            SH.BlankNodeOrIRI: f"(isBlank({node}) || isIRI({node}))",
            SH.BlankNodeOrLiteral: f"(isBlank({node}) || isLiteral({node}))",
            SH.IRIOrLiteral: f"(isIRI({node}) || isLiteral({node}))",
        }
        if kind not in tests:
            raise Unsupported(f"sh:nodeKind {kind}")
        return tests[kind]

    def pattern_test(self, shape: Node, node: str, pattern: Node) -> str:
        flags = self.g.value(shape, SH.flags)
        extra = f", {term(Literal(str(flags)))}" if flags is not None else ""
        return f"(!isBlank({node}) && REGEX(STR({node}), {term(Literal(str(pattern)))}{extra}))"

    # -- whole shapes ----------------------------------------------------------------
    def compile(self) -> list[CompiledConstraint]:
        g, out = self.g, []
        if (None, RDF.type, SH.ConstraintComponent) in g or any(
            (None, p, None) in g
            for p in (SH.validator, SH.nodeValidator, SH.propertyValidator, SH.parameter)
        ):
            raise Unsupported("SPARQL-based constraint components")
        shapes = set(g.subjects(RDF.type, SH.NodeShape)) | set(
            g.subjects(RDF.type, SH.PropertyShape)
        )
        for predicate in (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf):
            shapes |= set(g.subjects(predicate, None))
        for shape in sorted(shapes, key=str):
            if (shape, SH.deactivated, Literal(True)) in g:
                continue
            targets = self.targets(shape)
            if targets is None:
                continue
            out += self.compile_shape(shape, targets)
        return out

    def severity(self, shape: Node) -> URIRef:
        return self.g.value(shape, SH.severity) or SH.Violation

    def compile_shape(self, shape: Node, targets: str) -> list[CompiledConstraint]:
        g, out = self.g, []
        path = g.value(shape, SH.path)
        if path is not None:
            out += self.property_constraints(shape, targets, path)
        else:
            out += self.node_constraints(shape, targets)
        inner = targets
        if path is not None:  # the value nodes of a property shape are its nested shapes' focus
            inner = (
                "{ SELECT DISTINCT ?this WHERE { { SELECT (?this AS ?_outer) WHERE { "
                f"{targets} }} }} ?_outer {self.path(path)} ?this }} }}"
            )
        for nested in g.objects(shape, SH.property):
            if (nested, SH.deactivated, Literal(True)) not in g:
                out += self.compile_shape(nested, inner)
        for sparql in g.objects(shape, SH.sparql):
            out.append(self.sparql_constraint(shape, sparql, targets, path))
        return out

    def node_constraints(self, shape: Node, targets: str) -> list[CompiledConstraint]:
        out = []
        for p, o in sorted(self.g.predicate_objects(shape), key=lambda po: str(po[0])):
            component = _COMPONENTS.get(p)
            if component is None:
                if p in _IGNORED or p in (SH.property, SH.sparql) or not str(p).startswith(str(SH)):
                    continue
                if p in _TARGETS:
                    continue
                raise Unsupported(str(p))
            if p == SH.closed:
                if isinstance(o, Literal) and o.toPython() is True:
                    out.append(self.closed(shape, targets))
                continue
            severity = self.severity(shape)
            if p in _PAIRS:
                query = self.pair_query(p, o, targets, None)
                out.append(CompiledConstraint(shape, component, severity, None, query, False))
                continue
            test = self.node_test_for_component(p, o, shape, "?this")
            query = f"SELECT DISTINCT ?this WHERE {{ {targets} FILTER (!{test}) }}"
            # sh:hasValue reports no value node; the other node-level constraints the focus.
            out.append(
                CompiledConstraint(shape, component, severity, None, query, p != SH.hasValue)
            )
        return out

    def closed(self, shape: Node, targets: str) -> CompiledConstraint:
        allowed = {
            term(path)
            for nested in self.g.objects(shape, SH.property)
            for path in self.g.objects(nested, SH.path)
            if isinstance(path, URIRef)
        }
        for ignored in self.g.objects(shape, SH.ignoredProperties):
            allowed |= {term(i) for i in self.items(ignored)}
        not_in = f"FILTER (?path NOT IN ({', '.join(sorted(allowed))}))" if allowed else ""
        query = (
            f"SELECT DISTINCT ?this ?path ?value WHERE {{ {targets} ?this ?path ?value {not_in} }}"
        )
        return CompiledConstraint(
            shape, SH.ClosedConstraintComponent, self.severity(shape), None, query, False
        )

    def pair_query(self, p: URIRef, other: Node, targets: str, step: str | None) -> str:
        """sh:equals, sh:disjoint, sh:lessThan, sh:lessThanOrEquals: the value nodes (those
        of ``step``, or the focus itself on a node shape) against another property's."""
        own = f"?this {step} ?value" if step else "BIND (?this AS ?value)"
        is_own = f"?this {step} ?value" if step else "FILTER (sameTerm(?value, ?this))"
        o = term(other)
        if p == SH.equals:
            body = (
                f"{{ {own} FILTER NOT EXISTS {{ ?this {o} ?value }} }} UNION "
                f"{{ ?this {o} ?value FILTER NOT EXISTS {{ {is_own} }} }}"
            )
        elif p == SH.disjoint:
            body = f"{own} . ?this {o} ?value"
        else:
            op = "<" if p == SH.lessThan else "<="
            body = f"{own} . ?this {o} ?_other FILTER (!COALESCE((?value {op} ?_other), false))"
        return f"SELECT DISTINCT ?this ?value WHERE {{ {targets} {body} }}"

    def node_test_for_component(self, p: URIRef, o: Node, shape: Node, node: str) -> str:
        if p == SH.hasValue:
            return f"sameTerm({node}, {term(o)})"
        if p == SH.xone:
            parts = [self.conforms(s, node) for s in self.items(o)]
            ones = " + ".join(f"IF({c}, 1, 0)" for c in parts)
            return f"(({ones}) = 1)"
        if p == SH.closed:
            raise Unsupported("sh:closed")
        return "(" + " && ".join(self._one_node_test(p, o, shape, node)) + ")"

    def property_constraints(
        self, shape: Node, targets: str, path: Node
    ) -> list[CompiledConstraint]:
        if path is None:
            raise Unsupported("a property shape without sh:path")
        g, out = self.g, []
        step = self.path(path)
        severity = self.severity(shape)
        for p, o in sorted(g.predicate_objects(shape), key=lambda po: str(po[0])):
            component = _COMPONENTS.get(p)
            if component is None:
                if (
                    p in _IGNORED
                    or p in _TARGETS
                    or p in (SH.path, SH.property, SH.sparql)
                    or (not str(p).startswith(str(SH)))
                ):
                    continue
                raise Unsupported(str(p))
            if p in (SH.minCount, SH.maxCount):
                n = int(o)
                comparison = f"?count < {n}" if p == SH.minCount else f"?count > {n}"
                query = (
                    "SELECT ?this WHERE { { SELECT ?this (COUNT(DISTINCT ?value) AS ?count) "
                    f"WHERE {{ {targets} OPTIONAL {{ ?this {step} ?value }} }} GROUP BY ?this }} "
                    f"FILTER ({comparison}) }}"
                )
            elif p == SH.hasValue:
                query = (
                    f"SELECT DISTINCT ?this WHERE {{ {targets} "
                    f"FILTER NOT EXISTS {{ ?this {step} {term(o)} }} }}"
                )
            elif p in (SH.uniqueLang,):
                if not (isinstance(o, Literal) and o.toPython() is True):
                    continue
                query = (
                    f"SELECT DISTINCT ?this ?_lang WHERE {{ {targets} ?this {step} ?a, ?b . "
                    "FILTER (?a != ?b && lang(?a) != '' && lang(?a) = lang(?b)) "
                    "BIND (lang(?a) AS ?_lang) }"
                )
                out.append(CompiledConstraint(shape, component, severity, path, query, False))
                continue
            elif p in _PAIRS:
                query = self.pair_query(p, o, targets, step)
            elif p == SH.closed:
                raise Unsupported("sh:closed on a property shape")
            else:
                test = self.node_test_for_component(p, o, shape, "?value")
                query = (
                    f"SELECT DISTINCT ?this ?value WHERE {{ {targets} ?this {step} ?value . "
                    f"FILTER (!{test}) }}"
                )
            out.append(CompiledConstraint(shape, component, severity, path, query, False))
        return out

    def sparql_constraint(
        self, shape: Node, constraint: Node, targets: str, path: Node | None
    ) -> CompiledConstraint:
        g = self.g
        select = g.value(constraint, SH.select)
        if select is None:
            raise Unsupported("a SPARQL constraint without sh:select")
        text = str(select)
        for unsupported in ("$shapesGraph", "$currentShape", "$PATH"):
            if unsupported in text:
                raise Unsupported(f"{unsupported} in a SPARQL constraint")
        if re.search(r"\bAS\s+[?$]this\b", text, re.IGNORECASE):
            raise Unsupported("AS rebinds a pre-bound variable in a SPARQL constraint")
        if re.search(r"\{\s*SELECT\b", text, re.IGNORECASE):
            raise Unsupported("a nested SELECT in a SPARQL constraint")
        if re.search(r"\b(MINUS|VALUES|SERVICE)\b", text, re.IGNORECASE):
            raise Unsupported("MINUS, VALUES or SERVICE in a SPARQL constraint")
        prefixes = []
        for source in g.objects(constraint, SH.prefixes):
            for declaration in g.objects(source, SH.declare):
                prefix = g.value(declaration, SH.prefix)
                namespace = g.value(declaration, SH.namespace)
                prefixes.append(f"PREFIX {prefix}: <{namespace}>")
        body = text.replace("$this", "?this")
        if not re.search(r"SELECT\s+(DISTINCT\s+|REDUCED\s+)?(\*|[^{]*\?this\b)", body, re.I):
            body = re.sub(
                r"SELECT\s+(DISTINCT\s+|REDUCED\s+)?", r"SELECT \1?this ", body, count=1, flags=re.I
            )
        # ?this is bound first inside the constraint's own WHERE group, so that its
        # FILTERs see the focus node as SHACL's pre-binding would.
        brace = _where_brace(body)
        body = body[: brace + 1] + f" {targets} " + body[brace + 1 :]
        query = (
            "\n".join(sorted(set(prefixes)))
            + f"\nSELECT DISTINCT ?this ?path ?value WHERE {{ {{ {body} }} }}"
        )
        return CompiledConstraint(
            shape, SH.SPARQLConstraintComponent, self.severity(shape), path, query, path is None
        )


_COMPONENTS = {
    SH["class"]: SH.ClassConstraintComponent,
    SH.datatype: SH.DatatypeConstraintComponent,
    SH.nodeKind: SH.NodeKindConstraintComponent,
    SH.minCount: SH.MinCountConstraintComponent,
    SH.maxCount: SH.MaxCountConstraintComponent,
    SH.pattern: SH.PatternConstraintComponent,
    SH.hasValue: SH.HasValueConstraintComponent,
    SH["in"]: SH.InConstraintComponent,
    SH["not"]: SH.NotConstraintComponent,
    SH["or"]: SH.OrConstraintComponent,
    SH["and"]: SH.AndConstraintComponent,
    SH.xone: SH.XoneConstraintComponent,
    SH.node: SH.NodeConstraintComponent,
    SH.uniqueLang: SH.UniqueLangConstraintComponent,
    SH.minLength: SH.MinLengthConstraintComponent,
    SH.maxLength: SH.MaxLengthConstraintComponent,
    SH.languageIn: SH.LanguageInConstraintComponent,
    SH.minInclusive: SH.MinInclusiveConstraintComponent,
    SH.minExclusive: SH.MinExclusiveConstraintComponent,
    SH.maxInclusive: SH.MaxInclusiveConstraintComponent,
    SH.maxExclusive: SH.MaxExclusiveConstraintComponent,
    SH.equals: SH.EqualsConstraintComponent,
    SH.disjoint: SH.DisjointConstraintComponent,
    SH.lessThan: SH.LessThanConstraintComponent,
    SH.lessThanOrEquals: SH.LessThanOrEqualsConstraintComponent,
    SH.closed: SH.ClosedConstraintComponent,
}
_RANGES = {
    SH.minInclusive: ">=",
    SH.minExclusive: ">",
    SH.maxInclusive: "<=",
    SH.maxExclusive: "<",
}
_NODE_TESTS = {
    SH["class"], SH.datatype, SH["in"], SH.nodeKind, SH["not"], SH.node, SH.pattern, SH["or"],
    SH["and"], SH.xone, SH.minLength, SH.maxLength, SH.languageIn, *_RANGES,
}  # fmt: skip
_PAIRS = {SH.equals, SH.disjoint, SH.lessThan, SH.lessThanOrEquals}
_TARGETS = {SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf}
_IGNORED = {
    SH.message,
    SH.severity,
    SH.name,
    SH.description,
    SH.order,
    SH.group,
    SH.deactivated,
    SH.flags,
    SH.defaultValue,
    SH.prefixes,
    SH.declare,
    SH.ignoredProperties,
}
