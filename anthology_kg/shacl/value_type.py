"""SHACL 4.1 Value type constraint components: sh:class, sh:datatype, sh:nodeKind."""

from __future__ import annotations

import pyoxigraph as ox

from .errors import Unsupported
from .model import Constraint, Context
from .sparql_rewrite import same_term, term
from .targets import instance_of
from .vocabulary import RDF, SH, XSD, text

# Datatypes whose lexical space SPARQL can check: a cast from the lexical form fails
# exactly when the literal is ill-formed. (pyoxigraph keeps an ill-formed literal's
# lexical form and datatype as written, so datatype() alone cannot tell.)
CASTABLE = {
    XSD[name]
    for name in (
        "boolean integer decimal double float dateTime date time duration dayTimeDuration "
        "yearMonthDuration gYear gYearMonth gMonth gMonthDay gDay"
    ).split()
}

# Derived integer types (XSD 1.1 part 2, 3.4): an xsd:integer lexical form in a range.
INTEGER_RANGES = {
    XSD.byte: (-128, 127),
    XSD.short: (-32768, 32767),
    XSD.int: (-2147483648, 2147483647),
    XSD.long: (-9223372036854775808, 9223372036854775807),
    XSD.unsignedByte: (0, 255),
    XSD.unsignedShort: (0, 65535),
    XSD.unsignedInt: (0, 4294967295),
    XSD.unsignedLong: (0, 18446744073709551615),
    XSD.nonNegativeInteger: (0, None),
    XSD.positiveInteger: (1, None),
    XSD.nonPositiveInteger: (None, 0),
    XSD.negativeInteger: (None, -1),
}


def well_formed(node: str, datatype: ox.NamedNode | str) -> str | None:
    """A SPARQL test of the lexical form of ``node`` for ``datatype`` (a pyoxigraph
    IRI, or an rdflib one), where SPARQL can check it (a cast for the XSD types SPARQL
    casts to, a cast and a range for the derived integer types); None for the others."""
    datatype = ox.NamedNode(text(datatype))
    if datatype in CASTABLE:
        return f"COALESCE(isLiteral({term(datatype)}(STR({node}))), false)"
    if datatype in INTEGER_RANGES:
        low, high = INTEGER_RANGES[datatype]
        number = f"{XSD.integer}(STR({node}))"
        bounds = [f"{number} >= {low}" if low is not None else f"isLiteral({number})"]
        if high is not None:
            bounds.append(f"{number} <= {high}")
        return f"COALESCE({' && '.join(bounds)}, false)"
    return None


def class_test(ctx: Context, c: Constraint, node: str) -> str:
    cls = c.params[SH["class"]]
    return f"EXISTS {{ {instance_of(node, cls, ctx.hierarchy, ctx.fresh())} }}"


def datatype_test(ctx: Context, c: Constraint, node: str) -> str:
    datatype = c.params[SH.datatype]
    if not isinstance(datatype, ox.NamedNode):
        raise Unsupported(f"sh:datatype {datatype.value}")
    # Virtuoso 7.2 gives a language-tagged literal no datatype, where SPARQL 1.1 says
    # rdf:langString: its language tag tells that one, and COALESCE makes a missing
    # datatype unequal to any other (not an error, which would drop the result).
    if datatype == RDF.langString:
        test = f'isLiteral({node}) && lang({node}) != ""'
    else:
        test = f"isLiteral({node}) && COALESCE({same_term(f'datatype({node})', datatype)}, false)"
    lexical = well_formed(node, datatype)
    if lexical is not None:
        test += f" && {lexical}"
    return f"({test})"


NODE_KINDS = {
    SH.IRI: "isIRI({0})",
    SH.BlankNode: "isBlank({0})",
    SH.Literal: "isLiteral({0})",
    SH.BlankNodeOrIRI: "(isBlank({0}) || isIRI({0}))",
    SH.BlankNodeOrLiteral: "(isBlank({0}) || isLiteral({0}))",
    SH.IRIOrLiteral: "(isIRI({0}) || isLiteral({0}))",
}


def node_kind_test(ctx: Context, c: Constraint, node: str) -> str:
    kind = c.params[SH.nodeKind]
    if not isinstance(kind, ox.NamedNode) or kind not in NODE_KINDS:
        raise Unsupported(f"sh:nodeKind {kind.value}")
    return NODE_KINDS[kind].format(node)
