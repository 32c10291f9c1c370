"""A store's answer read as a local run gives it: literals as the store wrote them, triple
terms refused, CONSTRUCT answers written as canonical Turtle on every engine."""

import json

import pytest
from conftest import run_cli
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic
from test_server import GRAPH, JSON, RawServer, http_answer, probed_then

from anthology_kg.endpoint import run_remote
from anthology_kg.engine import ENGINES
from anthology_kg.errors import AnthologyError
from anthology_kg.loader import load_anthology

XSD = "http://www.w3.org/2001/XMLSchema#"
AS_WRITTEN = {  # (type, datatype, text): the text a local run gives too
    "token": ("literal", XSD + "token", "  x  "),
    "normalized": ("typed-literal", XSD + "normalizedString", "a\n b"),
    "double": ("literal", XSD + "double", "1000"),
    "boolean": ("literal", XSD + "boolean", "1"),
    "integer": ("literal", XSD + "integer", "007"),
    "ill_typed": ("literal", XSD + "integer", "abc"),
}


def json_answer(bindings: dict) -> bytes:
    document = {"head": {"vars": sorted(bindings)}, "results": {"bindings": [bindings]}}
    return http_answer(json.dumps(document).encode(), content_type=JSON)


def serving(answer: bytes) -> RawServer:
    return RawServer(lambda request: answer)


def test_literals_keep_the_text_the_store_wrote():
    """Called as a library (no CLI block around it), as the README's SPARQL answers do."""
    bindings = {
        name: {"type": kind, "datatype": datatype, "value": text}
        for name, (kind, datatype, text) in AS_WRITTEN.items()
    }
    bindings["tagged"] = {"type": "literal", "xml:lang": "en", "value": " a  b "}
    server = serving(json_answer(bindings))
    try:
        result = run_remote(f"{server.url}/sparql", "SELECT * WHERE { ?s ?p ?o }", "select")
    finally:
        server.close()
    (row,) = result.rows
    answered = dict(zip(result.variables, row, strict=True))
    for name, (_, datatype, text) in AS_WRITTEN.items():
        assert str(answered[name]) == text, name
        assert answered[name].datatype == URIRef(datatype), name
    assert answered["tagged"] == Literal(" a  b ", lang="en")


def test_an_ill_typed_literal_prints_no_traceback(caplog):
    """rdflib logs a traceback when it cannot convert a literal (pytest's log capture
    holds what would reach stderr): such a literal is data, not a program error."""
    _, datatype, text = AS_WRITTEN["ill_typed"]
    answer = json_answer({"n": {"type": "literal", "datatype": datatype, "value": text}})
    server = serving(answer)
    try:
        result = run_cli(
            "sparql", "-", "--endpoint", f"{server.url}/sparql", "--format", "tsv",
            input="SELECT ?n WHERE { ?s ?p ?n }",
        )  # fmt: skip
    finally:
        server.close()
    assert result.exit_code == 0, result.output
    assert result.stdout == f'?n\n"abc"^^<{datatype}>\n'
    assert "Traceback" not in result.stderr and result.stderr == ""
    assert [record for record in caplog.records if record.name.startswith("rdflib")] == []


TRIPLE = {
    "subject": {"type": "uri", "value": "http://example.org/a"},
    "predicate": {"type": "uri", "value": "http://example.org/p"},
    "object": {"type": "literal", "value": "x"},
}


@pytest.mark.parametrize(
    "answer",
    [
        json_answer({"t": {"type": "triple", "value": TRIPLE}}),
        http_answer(
            b"<http://example.org/a> <http://example.org/says> "
            b'<<( <http://example.org/a> <http://example.org/p> "x" )>> .\n',
            content_type="text/turtle",
        ),
    ],
    ids=["json", "turtle"],
)
def test_a_triple_term_in_an_answer_is_refused_as_locally(answer):
    text = "SELECT ?t WHERE { ?s ?p ?t }" if b"sparql-results" in answer else "DESCRIBE <urn:x>"
    server = RawServer(probed_then(answer))
    try:
        # --graph: the probe asks for that graph, which this server holds
        url = f"{server.url}/sparql"
        result = run_cli("sparql", "-", "--endpoint", url, "--graph", GRAPH, input=text)
    finally:
        server.close()
    assert result.exit_code == 2, result.output
    assert "RDF 1.2 triple terms are not supported" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["bnode-object", "object"])
def test_a_binding_of_another_shape_is_no_sparql_json(kind):
    binding = {"type": "unknown", "value": "x"} if kind == "object" else {"type": "bnode"}
    server = serving(json_answer({"v": binding}))
    try:
        with pytest.raises(AnthologyError, match="not SPARQL JSON results"):
            run_remote(f"{server.url}/sparql", "SELECT ?v {}", "select")
    finally:
        server.close()


def test_a_turtle_answer_keeps_its_literals_as_written():
    answer = http_answer(
        b'<urn:a> <urn:b> "  x  "^^<http://www.w3.org/2001/XMLSchema#token> .\n',
        content_type="text/turtle",
    )
    server = serving(answer)
    try:
        result = run_remote(f"{server.url}/sparql", "DESCRIBE <urn:a>", "graph")
    finally:
        server.close()
    assert result.graph is not None
    ((_, _, literal),) = list(result.graph)
    assert str(literal) == "  x  "


CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o FILTER isBlank(?s) }"


def test_a_construct_answer_is_canonical_turtle_on_both_engines():
    """Blank nodes labelled by RDFC-1.0 and the tool's prefixes: the same bytes from
    each engine and run (rdflib's serializer gave a new labelling each run)."""
    runs = [run_cli("sparql", "-", "--engine", e, input=CONSTRUCT) for e in ENGINES + ENGINES]
    assert [run.exit_code for run in runs] == [0] * len(runs)
    assert len({run.stdout for run in runs}) == 1
    turtle = runs[0].stdout
    assert "@prefix id: <https://w3id.org/anthology-kg/id/> ." in turtle
    assert "_:c14n" in turtle
    answer = load_anthology().query(CONSTRUCT).graph
    assert answer is not None and len(answer) > 0
    assert isomorphic(Graph().parse(data=turtle, format="turtle"), answer)
