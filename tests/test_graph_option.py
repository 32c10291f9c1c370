"""Every --graph IRI (validate, query, sparql, publish) is an absolute IRI, checked
before any request (hunt1 F17: 'not an iri' was sent to the store as is, 'added to
<not an iri>', exit 0; with --update or validate, rdflib's traceback, exit 1)."""

from __future__ import annotations

import pytest
from conftest import run_cli
from stores import recording_store

from anthology_kg.choices import ONTOLOGY_GRAPH, SHAPES_GRAPH

CASES = [
    (("publish", "--endpoint", "{url}/store"), "not an iri", "Invalid IRI code point ' '"),
    (("publish", "--update", "{url}/update"), "not an iri", "Invalid IRI code point ' '"),
    (("validate", "--endpoint", "{url}/query"), "x> } DROP", "Invalid IRI code point '>'"),
    (("query", "unread", "--endpoint", "{url}/q", "--graph", "urn:x"), "rel/x", "No scheme"),
    (("sparql", "-", "--endpoint", "{url}/q"), "", "No scheme"),
]


@pytest.mark.parametrize(
    ("command", "graph", "why"),
    CASES,
    ids=["publish", "publish-update", "validate", "query", "sparql"],
)
def test_a_graph_that_is_no_absolute_iri_is_a_usage_error_before_any_request(command, graph, why):
    with recording_store() as (url, seen):
        args = [a.format(url=url) for a in command]
        result = run_cli(*args, "--graph", graph, input="SELECT * {}")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    said = f"Invalid value for '--graph': {graph!r} is not an absolute IRI: {why}"
    assert said in result.stderr, result.stderr
    assert seen == []


def test_a_graph_that_is_an_iri_is_sent():
    with recording_store(status=204) as (url, seen):
        result = run_cli("publish", "--add", "--endpoint", f"{url}/store", "--graph", "urn:x:data")
    assert result.exit_code == 0, result.output
    assert seen[0] == "POST /store?graph=urn%3Ax%3Adata", seen


@pytest.mark.parametrize(
    ("graph", "part"), [(ONTOLOGY_GRAPH, "ontology"), (SHAPES_GRAPH, "shapes")]
)
@pytest.mark.parametrize("command", CASES[:2], ids=["publish", "publish-update"])
def test_publish_refuses_the_ontology_or_shapes_graph_for_the_data(command, graph, part):
    """The data graph named as the ontology's or the shapes': refused before any request.
    Before, --replace replaced the data just sent with the ontology, exit 0 (hunt4 #3)."""
    with recording_store(status=204) as (url, seen):
        args = [a.format(url=url) for a in command[0]]
        result = run_cli(*args, "--replace", "--graph", graph)
    assert result.exit_code == 2, result.output
    said = f"Invalid value for '--graph': <{graph}> is the {part} graph; the data needs a graph"
    assert said in result.stderr, result.stderr
    assert seen == []


def test_the_library_refuses_the_ontology_graph_for_the_data():
    from anthology_kg.errors import AnthologyError
    from anthology_kg.triplestore import publish_update

    with pytest.raises(AnthologyError, match="is the ontology graph"):
        publish_update(None, "http://127.0.0.1:1/update", ONTOLOGY_GRAPH)  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_validate_refuses_the_ontology_graph_for_the_data(engine):
    """validate --endpoint reads the data from --graph: the ontology's graph there read
    the ontology as the data (the reference engine's read-back ran before any check)."""
    with recording_store(status=204) as (url, seen):
        result = run_cli(
            "validate", "--endpoint", f"{url}/sparql", "--graph", ONTOLOGY_GRAPH,
            "--engine", engine,
        )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--graph': <" in result.stderr and "is the ontology graph" in (
        result.stderr
    )
    assert seen == []
