"""The IRIs the compiler reads and writes, as pyoxigraph terms (no rdflib needed)."""

from __future__ import annotations

import pyoxigraph as ox

#: A term of a shapes graph or of a query's solution.
Term = ox.NamedNode | ox.BlankNode | ox.Literal


class Namespace:
    """IRIs under ``iri``: ``SH.path`` and ``SH["class"]`` are pyoxigraph NamedNodes."""

    def __init__(self, iri: str) -> None:
        self.iri = iri

    def __getattr__(self, name: str) -> ox.NamedNode:
        if name.startswith("__"):
            raise AttributeError(name)
        node = ox.NamedNode(self.iri + name)
        setattr(self, name, node)  # found as an attribute from now on, not made again
        return node

    def __getitem__(self, name: str) -> ox.NamedNode:
        return ox.NamedNode(self.iri + name)


SH = Namespace("http://www.w3.org/ns/shacl#")
RDF = Namespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")
OWL = Namespace("http://www.w3.org/2002/07/owl#")
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
TRUE = ox.Literal("true", datatype=XSD.boolean)


def text(node: Term | str) -> str:
    """A term's text as rdflib's ``str`` gives it (an IRI, a blank node's label, a
    literal's lexical form): the order the compiler sorts in, so that the queries are
    written in the same order whichever library read the shapes."""
    return str(node) if isinstance(node, str) else node.value  # (an rdflib term is a str)


def ox_term(node: object) -> Term:
    """``node`` as a pyoxigraph term (converted where it is an rdflib term)."""
    if isinstance(node, ox.NamedNode | ox.BlankNode | ox.Literal):
        return node
    from ..terms import to_ox

    converted: Term = to_ox(node)  # type: ignore[arg-type]
    return converted


def short_name(node: Term) -> str:
    """``sh:name`` for an IRI of SHACL's namespace, else ``<iri>`` (for messages)."""
    if isinstance(node, ox.NamedNode) and node.value.startswith(SH.iri):
        return "sh:" + node.value[len(SH.iri) :]
    return str(node)


#: Every term of SHACL's namespace, by local name: the W3C's SHACL vocabulary
#: (http://www.w3.org/ns/shacl.ttl, its version of 2017-07-20), which defines the terms
#: of SHACL 1.0 (W3C Recommendation, 20 July 2017) and of the two Working Group Notes of
#: 8 June 2017 that share its namespace, SHACL Advanced Features (targets, functions,
#: node expressions, rules) and SHACL JavaScript Extensions. An IRI of the namespace that
#: is not one of them is a misspelt term (tests/test_shape_syntax.py compares the list
#: with pySHACL's copy of the file).
SHACL_TERMS = (
    frozenset(
        f"{component}ConstraintComponent{'-' + parameter if parameter else ''}"
        for component, parameters in (
            ("And", "and"),
            ("Class", "class"),
            ("Closed", "closed ignoredProperties"),
            ("Datatype", "datatype"),
            ("Disjoint", "disjoint"),
            ("Equals", "equals"),
            ("Expression", "expression"),
            ("HasValue", "hasValue"),
            ("In", "in"),
            ("JS", ""),
            ("LanguageIn", "languageIn"),
            ("LessThan", "lessThan"),
            ("LessThanOrEquals", "lessThanOrEquals"),
            ("MaxCount", "maxCount"),
            ("MaxExclusive", "maxExclusive"),
            ("MaxInclusive", "maxInclusive"),
            ("MaxLength", "maxLength"),
            ("MinCount", "minCount"),
            ("MinExclusive", "minExclusive"),
            ("MinInclusive", "minInclusive"),
            ("MinLength", "minLength"),
            ("Node", "node"),
            ("NodeKind", "nodeKind"),
            ("Not", "not"),
            ("Or", "or"),
            ("Pattern", "flags pattern"),
            ("Property", "property"),
            (
                "QualifiedMaxCount",
                "qualifiedMaxCount qualifiedValueShape qualifiedValueShapesDisjoint",
            ),
            (
                "QualifiedMinCount",
                "qualifiedMinCount qualifiedValueShape qualifiedValueShapesDisjoint",
            ),
            ("SPARQL", "sparql"),
            ("UniqueLang", "uniqueLang"),
            ("Xone", "xone"),
        )
        for parameter in ("", *parameters.split())
    )
    | frozenset(
        """
    AbstractResult BlankNode BlankNodeOrIRI BlankNodeOrLiteral ConstraintComponent
    Function IRI IRIOrLiteral Info JSConstraint JSConstraint-js JSExecutable JSFunction
    JSLibrary JSRule JSTarget JSTargetType JSValidator Literal NodeKind NodeShape
    Parameter Parameterizable PrefixDeclaration PropertyGroup PropertyShape
    ResultAnnotation Rule SPARQLAskExecutable SPARQLAskValidator SPARQLConstraint
    SPARQLConstructExecutable SPARQLExecutable SPARQLFunction SPARQLRule
    SPARQLSelectExecutable SPARQLSelectValidator SPARQLTarget SPARQLTargetType
    SPARQLUpdateExecutable Severity Shape Target TargetType TripleRule ValidationReport
    ValidationResult Validator Violation Warning
    alternativePath and annotationProperty annotationValue annotationVarName ask class
    closed condition conforms construct datatype deactivated declare defaultValue
    description detail disjoint entailment equals expression filterShape flags focusNode
    group hasValue ignoredProperties in intersection inversePath js jsFunctionName
    jsLibrary jsLibraryURL labelTemplate languageIn lessThan lessThanOrEquals maxCount
    maxExclusive maxInclusive maxLength message minCount minExclusive minInclusive
    minLength name namespace node nodeKind nodeValidator nodes not object oneOrMorePath
    optional or order parameter path pattern predicate prefix prefixes property
    propertyValidator qualifiedMaxCount qualifiedMinCount qualifiedValueShape
    qualifiedValueShapesDisjoint result resultAnnotation resultMessage resultPath
    resultSeverity returnType rule select severity shapesGraph shapesGraphWellFormed
    sourceConstraint sourceConstraintComponent sourceShape sparql subject
    suggestedShapesGraph target targetClass targetNode targetObjectsOf targetSubjectsOf
    this union uniqueLang update validator value xone zeroOrMorePath zeroOrOnePath
    """.split()
    )
    | {""}
)  # (and ``sh:`` itself, the vocabulary's IRI)
#: The terms a draft of SHACL 1.2 adds to SHACL's namespace (its vocabulary,
#: w3c/data-shapes shacl12-vocabularies/shacl.ttl, read 2026-12): list members, reifiers,
#: single lines, node expressions, severities. This tool reads SHACL 1.0 and its 2017
#: notes (``SHACL_TERMS``): a shape naming one of these is refused as such, not as a
#: misspelt term.
SHACL_12_DRAFT_TERMS = frozenset(
    f"{component}ConstraintComponent{'-' + parameter if parameter else ''}"
    for component, parameters in (
        ("MemberShape", "memberShape"),
        ("MinListLength", "minListLength"),
        ("MaxListLength", "maxListLength"),
        ("UniqueMembers", "uniqueMembers"),
        ("NodeByExpression", "nodeByExpression"),
        ("ReifierShape", "reifierShape reificationRequired"),
        ("SingleLine", "singleLine"),
    )
    for parameter in ("", *parameters.split())
) | frozenset(
    """
    ShapeClass Trace Debug memberShape minListLength maxListLength uniqueMembers
    nodeByExpression reifierShape reificationRequired singleLine NodeExpression
    NamedParameterExpression ListParameterExpression keyParameter SelectExpression
    SelectExpression-select SelectExpression-prefixes SPARQLExprExpression
    SPARQLExprExpression-sparqlExpr SPARQLExprExpression-prefixes sparqlExpr
    """.split()
)
