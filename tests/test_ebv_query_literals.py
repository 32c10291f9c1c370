"""A literal out of its derived type's range written in a query has SPARQL's effective
boolean value on the reference engine, as one read from the data has (review46, after
50e2ee4): rdflib's SPARQL parser leaves a literal's ``ill_typed`` unset, so
``!"300"^^xsd:byte`` was false and ``IF("300"^^xsd:byte, 1, 0)`` 1 (the fast engine's
answer), where SPARQL 1.1 (17.2.2: false for a lexical form not valid for the datatype)
and the same literal of the data gave true and 0."""

from conftest import answered

XSD = "http://www.w3.org/2001/XMLSchema#"


def test_a_query_s_literal_out_of_range_is_false_as_the_data_s(tmp_path):
    query = tmp_path / "q.rq"
    query.write_text(
        f'SELECT (!"300"^^<{XSD}byte> AS ?a) (IF("300"^^<{XSD}byte>, 1, 0) AS ?c)'
        f' (!"-1"^^<{XSD}nonNegativeInteger> AS ?d) (!"5"^^<{XSD}byte> AS ?e) {{}}\n',
        encoding="utf-8",
    )
    printed = answered("reference", "sparql", str(query), "--format", "csv")
    assert printed.splitlines()[1] == "true,0,true,false", printed

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "X-1.ttl").write_text(
        f'<http://ex.org/a> <http://ex.org/p> "300"^^<{XSD}byte> .\n', encoding="utf-8"
    )
    (tmp_path / "d.rq").write_text(
        "SELECT (!?v AS ?n) WHERE { <http://ex.org/a> <http://ex.org/p> ?v }\n", encoding="utf-8"
    )
    from_data = answered(
        "reference", "--root", str(tmp_path), "sparql", str(tmp_path / "d.rq"), "--format", "csv"
    )
    assert from_data.splitlines()[1] == "true", from_data
