"""``+``, ``-``, ``*`` and ``/`` (SPARQL 1.1, 17.3) answer alike on both engines: the
reference engine takes the fast engine's value of each step (``sparql_logic.arithmetic``),
where rdflib made a product of integers an xsd:decimal, a double divided by zero an
error (INF), a quotient of 28 digits (XSD's decimals: 18) and the difference of two dates
an xsd:duration (an xsd:dayTimeDuration)."""

from __future__ import annotations

from conftest import answered_alike

XSD = "http://www.w3.org/2001/XMLSchema#"
EXPRESSIONS = {
    "product": "2 * 3",
    "by_zero": "1 / 0.0e0",
    "nan": "0.0e0 / 0.0e0",
    "quotient": "1 / 3",
    "chain": "2 * 3 / 4 - 1 + 0.5",
    "negative": "5 -1",
    "mixed": "1.5 * 2",
    "dates": f'"2020-01-01"^^<{XSD}date> - "2019-01-01"^^<{XSD}date>',
    "string": '"a" + 1',
    "iri": "<urn:x-test:a> * 2",
    "decimal_by_zero": "1.0 / 0",
    "unbound": "?nothing + 1",
}
QUERY = "SELECT {} WHERE {{}}".format(
    " ".join(f"({expression} AS ?{name})" for name, expression in EXPRESSIONS.items())
)


def test_every_operation_answers_alike(tmp_path):
    query = tmp_path / "arithmetic.rq"
    query.write_text(QUERY, encoding="utf-8")
    header, row = answered_alike("sparql", str(query), "--format", "tsv").splitlines()
    said = dict(zip((name[1:] for name in header.split("\t")), row.split("\t"), strict=True))
    assert said["product"] == "6"
    assert said["by_zero"] == f'"INF"^^<{XSD}double>'
    assert said["quotient"] == "0.333333333333333333"
    assert said["dates"] == f'"P365D"^^<{XSD}dayTimeDuration>'
    assert said["negative"] == "4"
    assert said["string"] == said["iri"] == said["decimal_by_zero"] == said["unbound"] == ""
