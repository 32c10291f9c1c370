"""`rules` and `queries` print one line per rule or query whatever the text of the
anthology's own shapes and query files holds: line breaks and ESC shown escaped."""

from conftest import run_cli

SHAPE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
<https://example.org/shapes#Mine> a sh:NodeShape ;
    ak:ruleNumber 99 ;
    rdfs:label "first line\\n::error::forged \\u001b[2J" ;
    sh:targetNode <https://example.org/x> ;
    sh:nodeKind sh:IRI .
"""

QUERY = """#+ summary: "mine\\n::error::forged \\e[2J"
SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s
"""


def test_rules_lists_a_shape_label_on_one_line(bundled_copy):
    (bundled_copy / "ontology" / "shapes").mkdir(parents=True)
    (bundled_copy / "ontology" / "shapes" / "mine.ttl").write_text(SHAPE, encoding="utf-8")
    result = run_cli("--root", str(bundled_copy), "rules")
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stdout.splitlines() if "Mine" in line]
    assert line.endswith("\tfirst line\\n::error::forged \\x1b[2J")
    assert not any(line.startswith("::") for line in result.stdout.splitlines())


def test_queries_lists_a_summary_on_one_line(bundled_copy):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "mine.rq").write_text(QUERY, encoding="utf-8")
    result = run_cli("--root", str(bundled_copy), "queries")
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("mine\t")]
    assert line == "mine\tmine\\n::error::forged \\x1b[2J"
    assert not any(line.startswith("::") for line in result.stdout.splitlines())
