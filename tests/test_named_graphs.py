"""The anthology is one default graph: a GRAPH pattern matches no named graph on the
Oxigraph engine, whose own graph names (``urn:anthology-kg:graph:…``) stay its own."""

from conftest import run_cli

GRAPHS = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"


def test_a_graph_pattern_matches_no_graph_and_names_none_of_the_store_s():
    result = run_cli("sparql", "-", "--format", "csv", input=GRAPHS)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["g,n"]
    named = run_cli(
        "sparql", "-", "--format", "csv",
        input="SELECT * FROM NAMED <urn:anthology-kg:graph:data> WHERE { GRAPH ?g { ?s ?p ?o } }",
    )  # fmt: skip
    assert named.exit_code == 0 and named.stdout.splitlines() == ["g,s,p,o"], named.output


def test_the_default_graph_is_still_the_data_and_the_ontology():
    ask = "ASK { ?s a <https://w3id.org/anthology-kg/ns#Comparison> }"
    result = run_cli("sparql", "-", "--format", "csv", input=ask)
    assert result.exit_code == 0 and result.stdout.strip() == "true", result.output
