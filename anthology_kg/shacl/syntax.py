"""The syntax rules of SHACL for a shapes graph, checked before its shapes are used.

SHACL states, section by section, what a well-formed shape is ("Each property shape has
exactly one value for sh:path"; "the values of sh:minCount are literals of datatype
xsd:integer"), and leaves open what a processor does with an ill-formed one: pySHACL
refuses some and stops on others, the compiler would read the first value and go on. So
both engines ask this module first. The rules are the W3C's own shapes for shapes graphs
(SHACL Appendix C, ``shacl-shacl.ttl``), compiled and run like any shapes, and more that
pySHACL also enforces, in the shapes of ``_MORE``: a shape with ``sh:path`` has one,
well-formed; a ``sh:PropertyShape`` has one and a ``sh:NodeShape`` none (SHACL 2.3,
2.2), and a shape with a count has one (Appendix C checks these only for the objects
of ``sh:property`` and ``sh:node``); no count is below zero;
``sh:qualifiedValueShape`` comes with a count, and a count with it; a ``sh:pattern`` is
one SPARQL's REGEX takes (a rule Appendix C leaves out). Last, each SPARQL query of the
shapes is parsed (``_query_results``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources

import pyoxigraph as ox

from ..sparql_text import sparql_error_text, too_deep
from .compiler import CompiledConstraint, Compiler
from .graph import ShapesGraph
from .targets import FOCUS_NODE
from .validator import ResultRow, run_compiled, store_select
from .vocabulary import RDF, SH, SHACL_12_DRAFT_TERMS, SHACL_TERMS, XSD, Term, text

SHSH = "http://www.w3.org/ns/shacl-shacl#"
#: The rules added to Appendix C's, in their own namespace.
MORE_RULES = "https://w3id.org/anthology-kg/shacl-syntax#"
_COUNTS = (
    "minCount",
    "maxCount",
    "minLength",
    "maxLength",
    "qualifiedMinCount",
    "qualifiedMaxCount",
)
#: What Appendix C refuses on a node shape (for the objects of sh:node alone).
_PROPERTY_ONLY = ", ".join(
    f"sh:{name}"
    for name in ("minCount", "maxCount", "lessThan", "lessThanOrEquals", "qualifiedValueShape")
)
_ONLY_PROPERTY_SHAPES = f"only a property shape (one with sh:path) has {_PROPERTY_ONLY}"
_NOT_BELOW_0 = " ; ".join(f"sh:property [ sh:path sh:{n} ; sh:minInclusive 0 ]" for n in _COUNTS)
_MORE = f"""
@prefix sh: <{SH.iri}> .
@prefix more: <{MORE_RULES}> .
more:OnePathShape a sh:NodeShape ;
    sh:targetSubjectsOf sh:path ;
    sh:property [ sh:path sh:path ; sh:maxCount 1 ; sh:node <{SHSH}PathShape> ] .
more:DeclaredPropertyShape a sh:NodeShape ;
    sh:targetClass sh:PropertyShape ;
    sh:property [ sh:path sh:path ; sh:minCount 1 ; sh:message "missing on a sh:PropertyShape" ] .
more:DeclaredNodeShape a sh:NodeShape ;
    sh:targetClass sh:NodeShape ;
    sh:property [ sh:path sh:path ; sh:maxCount 0 ;
        sh:message "not allowed on a sh:NodeShape" ] .
more:PropertyParametersShape a sh:NodeShape ;
    sh:targetSubjectsOf {_PROPERTY_ONLY} ;
    sh:property [ sh:path sh:path ; sh:minCount 1 ;
        sh:message "missing: {_ONLY_PROPERTY_SHAPES}" ] .
more:CountShape a sh:NodeShape ;
    sh:targetSubjectsOf {", ".join(f"sh:{name}" for name in _COUNTS)} ;
    {_NOT_BELOW_0} .
more:QualifiedShape a sh:NodeShape ;
    sh:targetSubjectsOf sh:qualifiedValueShape ;
    sh:sparql [
        sh:message "neither sh:qualifiedMinCount nor sh:qualifiedMaxCount beside it" ;
        sh:select \"\"\"SELECT $this ?path ?value WHERE {{
            $this <{SH.qualifiedValueShape.value}> ?value .
            BIND (<{SH.qualifiedValueShape.value}> AS ?path)
            FILTER NOT EXISTS {{ $this <{SH.qualifiedMinCount.value}> ?min }}
            FILTER NOT EXISTS {{ $this <{SH.qualifiedMaxCount.value}> ?max }}
        }}\"\"\" ] .
more:QualifiedCountShape a sh:NodeShape ;
    sh:targetSubjectsOf sh:qualifiedMinCount, sh:qualifiedMaxCount ;
    sh:property [ sh:path sh:qualifiedValueShape ; sh:minCount 1 ;
        sh:message "missing beside sh:qualifiedMinCount or sh:qualifiedMaxCount" ] .
more:PatternShape a sh:NodeShape ;
    sh:targetSubjectsOf sh:pattern ;
    sh:sparql [
        sh:message "not a regular expression SPARQL's REGEX takes (with the shape's sh:flags)" ;
        sh:select \"\"\"SELECT $this ?path ?value WHERE {{
            $this <{SH.pattern.value}> ?value .
            OPTIONAL {{ $this <{SH.flags.value}> ?flags }}
            BIND (<{SH.pattern.value}> AS ?path)
            FILTER (sameTerm(COALESCE(REGEX("", STR(?value), COALESCE(STR(?flags), "")), 0), 0))
        }}\"\"\" ] .
"""
#: Components whose results are about value nodes, one by one: none without a value.
_PER_VALUE = frozenset(
    SH[name + "ConstraintComponent"]
    for name in (
        "MaxCount",
        "Datatype",
        "NodeKind",
        "In",
        "Node",
        "Class",
        "Pattern",
        "MinInclusive",
        "MinLength",
        "MaxLength",
        "Or",
        "And",
        "Not",
        "Xone",
    )
)
# Where the shapes under check are, for the queries (no SPARQL-based rule reads it).
_CHECKED = ox.NamedNode(MORE_RULES + "checked")
#: Where each rule shape's focus nodes are put before its constraints run (one query a
#: shape, not one a constraint: 25 -> 10 ms for the bundled shapes).
_FOCUS = ox.NamedNode(MORE_RULES + "focus")


@functools.cache
def _rules(
    own: str | None = None,
) -> tuple[
    ShapesGraph,
    tuple[CompiledConstraint, ...],
    dict[str, str],
    tuple[tuple[ox.NamedNode, str], ...],
]:
    """The rules' shapes graph, its compiled constraints, the prefixes its text declares
    and the queries of its shapes' focus nodes (``Compiler.focus_queries``: the
    constraints read them from ``_FOCUS``), made once per process for each text:
    SHACL's, or the caller's ``own``."""
    if own is None:
        text = resources.files(__package__).joinpath("shacl-shacl.ttl").read_bytes()
        parsers = [
            ox.parse(text, format=ox.RdfFormat.TURTLE, base_iri=SHSH),
            ox.parse(_MORE, format=ox.RdfFormat.TURTLE),
        ]
    else:
        parsers = [ox.parse(own, format=ox.RdfFormat.TURTLE)]
    quads = [quad for parser in parsers for quad in parser]
    prefixes = {name: iri for parser in parsers for name, iri in parser.prefixes.items()}
    rules = ShapesGraph((q.subject, q.predicate, q.object) for q in quads)
    # (bound_paths: the rules run on a pyoxigraph store only)
    compiler = Compiler(
        rules, MORE_RULES + "rules", bound_paths=True, grouped_targets=True, focus_graph=_FOCUS
    )
    compiled = compiler.compile()
    return rules, tuple(compiled), prefixes, tuple(compiler.focus_queries())


def syntax_results(
    triples: Iterable[tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode, Term]],
    skip_unused: bool = True,
    own: str | None = None,
) -> list[ResultRow]:
    """Where the shapes graph of ``triples`` breaks a syntax rule, each problem once: its
    ``focus`` the shape (or list, or path) that breaks it, ``path`` the property of the
    shape at fault (None: the shape as a whole). A problem is not given again as the
    failure of the shape holding it (a member of sh:or), nor a count that is no integer
    as one below 0. ``skip_unused`` False runs every rule (the same rows, slower).
    ``own`` (Turtle) runs an application's rules for its shapes in place of SHACL's:
    shapes whose ``sh:message`` says what is wrong (``explain`` with the same text)."""
    checked = list(triples)
    store = ox.Store()
    store.bulk_extend(ox.Quad(s, p, o, _CHECKED) for s, p, o in checked)
    _, compiled, _, focus_queries = _rules(own)
    select = store_select(store, [_CHECKED], ox_terms=True)
    for shape, query in focus_queries:
        focus = [row["this"] for row in select(query)]
        store.extend(
            ox.Quad(shape, FOCUS_NODE, node, _FOCUS)
            for node in focus
            if isinstance(node, ox.NamedNode | ox.BlankNode | ox.Literal)
        )
    used = {p for _, p, _ in checked}
    # A constraint on the values of a property the shapes never use finds nothing: the
    # queries of most of Appendix C's ~90 are not run (each costs ~1 ms to plan).
    needed = [
        c
        for c in compiled
        if not (skip_unused and isinstance(c.path, ox.NamedNode) and c.path not in used)
        or c.component not in _PER_VALUE
    ]
    rows = run_compiled(select, needed)
    if own is None:
        rows += _query_results(ShapesGraph(checked))
    inner = {row.focus for row in rows if row.path is not None}
    return [
        row
        for row in rows
        if not (row.path is None and row.focus in inner)
        and row.value not in inner
        and not (
            row.source_constraint_component == SH.MinInclusiveConstraintComponent
            and sum((r.focus, r.path) == (row.focus, row.path) for r in rows) > 1
        )
    ]


#: The SHACL this tool reads (``vocabulary.SHACL_TERMS``), as the messages name it.
_READ = "SHACL 1.0 or its 2017 notes, which this tool reads"


def undefined_terms(
    triples: Iterable[tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode, Term]],
) -> list[ResultRow]:
    """Each triple of ``triples`` that names an IRI of SHACL's namespace SHACL does not
    define (``vocabulary.SHACL_TERMS``): a misspelt ``sh:targetClas`` or ``sh:NodeShap``,
    which a processor reads as no term of SHACL, so that the shape written with it
    checks nothing, or not what was meant; SHACL-SHACL allows it. One row a triple (the
    first such term of it), its ``focus``, ``path`` and ``value`` the triple's, its
    message the term at fault and the closest term SHACL has, where one is close; a term
    of the SHACL 1.2 drafts (``vocabulary.SHACL_12_DRAFT_TERMS``: ``sh:reifierShape``)
    is said to be one, which this tool does not read, with no term offered for it."""
    from ..config import did_you_mean

    rows = []
    for subject, predicate, value in triples:
        for term in (predicate, value, subject):
            if not isinstance(term, ox.NamedNode) or not term.value.startswith(SH.iri):
                continue
            local = term.value[len(SH.iri) :]
            if local in SHACL_TERMS:
                continue
            said = _shown(term) if term != value else f"{_shown(predicate)} {_shown(term)}"
            if local in SHACL_12_DRAFT_TERMS:
                said += f": a term of the SHACL 1.2 drafts, not of {_READ}"
            else:
                said += f": not a term of {_READ}"
                said += did_you_mean(local, sorted(SHACL_TERMS), prefix="sh:")
            rows.append(problem_row("VocabularyShape", subject, predicate, value, said))
            break
    return rows


def _refusal(text: str) -> str | None:
    """``rdflib_sparql.refusal`` of ``text``, rdflib read only when asked (a refused
    text whose error names no reason)."""
    from ..rdflib_sparql import refusal

    return refusal(text)


def _place(text: str) -> tuple[int, int] | None:
    """``rdflib_sparql.syntax_error_place`` of ``text``, rdflib read only when asked (a
    refused text whose error pyoxigraph places where it stopped reading, the end)."""
    from ..rdflib_sparql import syntax_error_place

    return syntax_error_place(text)


def _parse_problem(
    empty: ox.Store, declared: str, text: str, form: str, answer: type
) -> str | None:
    """What is wrong with the SPARQL ``text`` of a ``form`` (SELECT, ASK) constraint,
    parsed by pyoxigraph on an ``empty`` store after its ``declared`` prefixes; None
    when it is a query of that form (projecting $this, for SELECT)."""
    whole = f"{declared}\n{text}"
    try:
        parsed = empty.query(whole)
    except SyntaxError as error:
        found = sparql_error_text(
            error,
            declared.count("\n") + 1,
            whole,
            functools.partial(_refusal, whole),
            functools.partial(_place, whole),
        )
        problem = f"not a SPARQL {form} query"
        if found is not None:
            said, line, column = found
            said = said.replace("by no PREFIX", "by no sh:prefixes nor PREFIX")
            said = said.replace("no PREFIX declares", "no sh:prefixes declares")
            where = "" if line is None else f" at line {line}, column {column}:"
            problem += f":{where} {said}"
        return problem
    except RuntimeError as error:  # an extension function pyoxigraph lacks
        return f"not a query the fast engine runs: {error}"
    if not isinstance(parsed, answer):
        return f"not a SPARQL {form} query"
    if isinstance(parsed, ox.QuerySolutions) and _THIS not in parsed.variables:
        return "the query does not project $this"
    return None


#: The forms of SPARQL each property of a SPARQL-based constraint or validator holds.
_FORMS = {SH.select: ("SELECT", ox.QuerySolutions), SH.ask: ("ASK", ox.QueryBoolean)}
_THIS = ox.Variable("this")


def _query_results(shapes: ShapesGraph) -> list[ResultRow]:
    """SHACL 5.1 and 6.2: every sh:select is a SPARQL SELECT query projecting ``$this``
    and every sh:ask an ASK query, the prefixes of its sh:prefixes declared (``$PATH``
    read as an IRI), and only a property shape's SPARQL constraints use ``$PATH``
    (5.3.1): each query is parsed by pyoxigraph, on an empty store (pyoxigraph parses
    only to evaluate), except one with SERVICE, which is not sent anywhere. One row a
    query that breaks a rule."""
    from ..guards import uses_service
    from .errors import Unsupported
    from .sparql_based import declarations, declared_prefixes, prefixes
    from .sparql_rewrite import rename, variables

    empty, rows = ox.Store(), _declaration_results(shapes)
    ill_declared = {row.focus for row in rows}
    for predicate, (form, answer) in _FORMS.items():
        for holder in shapes.subjects(predicate):
            for query in shapes.objects(holder, predicate):
                if not isinstance(query, ox.Literal):
                    continue  # (no SPARQL: said by the rules as a datatype)
                try:
                    declared = prefixes(shapes, holder)
                except Unsupported:
                    declared = ""  # an incomplete sh:declare: the compiler says so
                if uses_service(f"{declared_prefixes(shapes, holder)}\n{query.value}") or any(
                    declaration in ill_declared
                    for _, declaration, _, _ in declarations(shapes, holder)
                ):
                    # Parsing here means evaluating: a SERVICE would reach the network
                    # when the shapes are read. Such a query is refused, or allowed by
                    # --allow-service, by guards.refuse_service_in_shapes; one whose
                    # declarations are not fit for a query is refused by their rows.
                    continue
                text = rename(query.value, {"PATH": "<urn:x-path>"})
                # Not parsed when it nests too deep (the parser's recursion would overflow
                # its stack, a crash) or holds a clause SHACL forbids: parsing evaluates,
                # and a refused query's VALUES blocks would be joined and sorted first.
                deep = too_deep(text)
                problem = (
                    f"not a query the engines follow: it {deep}"
                    if deep is not None
                    else _prebinding_problem(query.value)
                )
                if problem is None:
                    problem = _parse_problem(empty, declared, text, form, answer)
                owners = shapes.subjects(SH.sparql, holder)
                if problem is None and owners and "PATH" in variables(query.value):
                    if not any(shapes.value(owner, SH.path) for owner in owners):
                        problem = "$PATH in a constraint of a node shape, which has no path"
                if problem is not None:
                    rows.append(problem_row("QueryShape", holder, predicate, query, problem))
    return rows + _constraint_results(shapes)


def _prebinding_problem(query: str) -> str | None:
    """SHACL 1.0, Appendix A (Pre-binding of Variables in SPARQL Queries): a SHACL-SPARQL
    query has no MINUS or VALUES clause, where its pre-bound variables would not be
    bound; found in the text, before the query is parsed (which evaluates it), the
    keyword as SPARQL reads it (``sparql_text.has_keyword``), not a name or string that
    spells it (``?values``, ``ex:MINUS``)."""
    from ..sparql_text import has_keyword

    for keyword in ("MINUS", "VALUES"):
        if has_keyword(query, keyword):
            said = "which SHACL-SPARQL forbids (SHACL 1.0, Appendix A: pre-binding)"
            return f"a {keyword} clause, {said}"
    return None


def _constraint_results(shapes: ShapesGraph) -> list[ResultRow]:
    """SHACL 5.1: a SPARQL-based constraint (a value of sh:sparql) has exactly one
    sh:select (sh:ask is a validator's, 6.2): one row for each that has none, given at
    the shape's sh:sparql, or several, given at its sh:select."""
    rows = []
    for shape in shapes.subjects(SH.sparql):
        for constraint in shapes.objects(shape, SH.sparql):
            if isinstance(constraint, ox.Literal):
                continue  # (said by the rules: not a node)
            selects = sorted(shapes.objects(constraint, SH.select), key=text)
            if len(selects) == 1:
                continue
            asks = "; sh:ask is a validator's (6.2)" if shapes.value(constraint, SH.ask) else ""
            rows.append(
                problem_row(
                    "ConstraintShape",
                    shape if not selects else constraint,
                    SH.sparql if not selects else SH.select,
                    constraint if not selects else selects[-1],
                    f"no sh:select (SHACL 5.1: a SPARQL constraint has exactly one{asks})"
                    if not selects
                    else "more than one value (SHACL 5.1: a SPARQL constraint has one)",
                )
            )
    return rows


def reference_results(
    triples: Iterable[tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode, Term]],
) -> list[ResultRow]:
    """What the reference engine (pySHACL) cannot run in well-formed shapes, where it
    would crash: a SHACL-SPARQL query using ``$shapesGraph``, which pySHACL does not
    bind (the fast engine does). One row a query, given at its sh:select or sh:ask."""
    from .sparql_rewrite import variables

    shapes, rows = ShapesGraph(triples), []
    for predicate in _FORMS:
        for holder in shapes.subjects(predicate):
            for query in shapes.objects(holder, predicate):
                if isinstance(query, ox.Literal) and "shapesGraph" in variables(query.value):
                    rows.append(
                        problem_row(
                            "ReferenceShape",
                            holder,
                            predicate,
                            query,
                            (
                                "uses $shapesGraph, which the reference engine (pySHACL) "
                                "does not bind: the fast engine runs it"
                            ),
                        )
                    )
    return rows


def _declaration_results(shapes: ShapesGraph) -> list[ResultRow]:
    """SHACL 5.2.1: each sh:declare gives every query naming it ``PREFIX prefix:
    <namespace>``, so a prefix that is not a prefix name or a namespace that is not an
    IRI would write the query's text (a namespace ``http://x/> SELECT … #`` another
    query): one row for each such declaration."""
    from .sparql_based import declaration_problem

    found, seen = [], set()
    for declaring in shapes.subjects(SH.declare):
        for declaration in shapes.objects(declaring, SH.declare):
            prefixes = sorted(shapes.objects(declaration, SH.prefix), key=text)
            namespaces = sorted(shapes.objects(declaration, SH.namespace), key=text)
            if prefixes and namespaces and declaration not in seen:  # (else said by the rules)
                seen.add(declaration)
                found.append(
                    (text(prefixes[0]), text(namespaces[0]), declaration, prefixes, namespaces)
                )
    rows = []
    for _, _, declaration, prefixes, namespaces in sorted(found, key=lambda f: f[:2]):
        problem = declaration_problem(prefixes[0], namespaces[0])
        for path, values in ((SH.prefix, prefixes), (SH.namespace, namespaces)):
            if len(values) > 1:  # pySHACL refuses it, the fast engine read one of them
                problem = path, "one of several values (SHACL 5.2.1: exactly one)"
        if problem is not None:
            path, said = problem
            value = prefixes[-1] if path == SH.prefix else namespaces[-1]
            rows.append(problem_row("DeclarationShape", declaration, path, value, said))
    return rows


def problem_row(shape: str, focus: Term, path: ox.NamedNode, value: Term, said: str) -> ResultRow:
    """A violation of SHACL's rules (for a SPARQL constraint, its prefixes, the terms of
    SHACL's namespace) found here, not by the rules' shapes: ``said`` of ``value`` at
    ``focus``'s ``path``, its source shape MORE_RULES' ``shape``."""
    return ResultRow(
        focus=focus,
        path=path,
        value=value,
        source_shape=ox.NamedNode(MORE_RULES + shape),
        source_constraint_component=SH.SPARQLConstraintComponent,
        severity=SH.Violation,
        messages=(ox.Literal(said),),
    )


def explain(row: ResultRow, own: str | None = None) -> str:
    """What ``row`` of ``syntax_results`` (run with the rules ``own``) says is wrong, in
    a few words, naming the property of the shape (``sh:minCount``) and the value where
    there is one."""
    rules, _, declared, _ = _rules(own)
    component, rule = row.source_constraint_component, row.source_shape
    path = row.path if isinstance(row.path, ox.NamedNode) else None
    what = _shown(path, declared) if path is not None else "the shape"
    if path is not None and isinstance(row.value, ox.NamedNode | ox.BlankNode | ox.Literal):
        if path not in _FORMS:  # (a query is too long to repeat)
            what += f" {_shown(row.value, declared)}"

    if row.messages:  # the rules added here say it themselves
        message = str(getattr(row.messages[0], "value", row.messages[0]))
        return f"{what}: {message}" if path else message

    def parameter(name: str) -> Term | None:
        return (
            rules.value(rule, SH[name]) if isinstance(rule, ox.NamedNode | ox.BlankNode) else None
        )

    if component == SH.MaxCountConstraintComponent:
        if parameter("maxCount") == ox.Literal("0", datatype=XSD.integer):
            return f"{what}: a node shape has none (only a property shape has {what})"
        return f"{what}: more than one value"
    if component == SH.MinCountConstraintComponent:
        return f"{what}: missing"
    if component == SH.DatatypeConstraintComponent:
        return f"{what}: not a literal of datatype {_shown(parameter('datatype'))}"
    if component == SH.NodeKindConstraintComponent:
        kind = parameter("nodeKind")
        return f"{what}: not {_NODE_KINDS.get(kind, _shown(kind))}"
    if component == SH.InConstraintComponent:
        listed = parameter("in")
        members = rules.items(listed) if listed is not None else []
        return f"{what}: not one of {', '.join(_shown(m) for m in members)}"
    if component == SH.MinInclusiveConstraintComponent:
        return f"{what}: not a number of at least 0"
    if component == SH.NodeConstraintComponent:
        return f"{what}: not a well-formed {_NODES.get(parameter('node'), 'value')}"
    if component == SH.XoneConstraintComponent:
        return f"{what}: neither a well-formed node shape nor a well-formed property shape"
    if component in (SH.HasValueConstraintComponent, SH.ClosedConstraintComponent):
        return f"{what}: not a well-formed list or path"
    return (
        f"{what}: breaks {_shown(component) if isinstance(component, ox.NamedNode) else component}"
    )


_NODE_KINDS: dict[Term | None, str] = {
    SH.IRI: "an IRI",
    SH.Literal: "a literal",
    SH.BlankNode: "a blank node",
    SH.IRIOrLiteral: "an IRI or a literal",
    SH.BlankNodeOrIRI: "an IRI or a blank node",
    SH.BlankNodeOrLiteral: "a blank node or a literal",
}
_NODES: dict[Term | None, str] = {
    ox.NamedNode(SHSH + "ListShape"): "list",
    ox.NamedNode(SHSH + "PathShape"): "path",
    ox.NamedNode(SHSH + "PathListWithAtLeast2Members"): "list of two paths or more",
    ox.NamedNode(SHSH + "ShapeShape"): "shape",
}


def _shown(term: Term | None, declared: dict[str, str] | None = None) -> str:
    """``term`` as a shapes file would write it: ``sh:IRI``, ``xsd:integer``, ``-1``,
    ``"one"``; with the prefixes of ``declared`` besides sh:, xsd: and rdf:."""
    if isinstance(term, ox.NamedNode):
        named = {"sh": SH.iri, "xsd": XSD.iri, "rdf": RDF.iri, **(declared or {})}
        for prefix, namespace in named.items():
            if term.value.startswith(namespace):
                return f"{prefix}:{term.value[len(namespace) :]}"
        return f"<{term.value}>"
    if isinstance(term, ox.Literal):
        numeric = (XSD.integer, XSD.decimal, XSD.double, XSD.boolean)
        if term.datatype in numeric and term.value and not any(c.isspace() for c in term.value):
            return term.value  # (with spaces, ill-formed: quoted below, as written)
        written = str(
            ox.Literal(term.value, language=term.language)
            if term.language
            else ox.Literal(term.value)
        )
        return (
            written
            if term.datatype == XSD.string or term.language
            else f"{written}^^{_shown(term.datatype)}"
        )
    return "[]" if term is not None else ""
