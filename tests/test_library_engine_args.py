"""``open_engine`` and the engines it opens give the same AnthologyError for the same
bad argument, whichever engine holds the anthology, where they raised KeyError,
AttributeError or TypeError, or answered (hunt12's findings 3 and 11)."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from anthology_kg import AnthologyError, load_anthology, open_engine, run_local
from anthology_kg.endpoint import Connection

ROOT = FIXTURES / "minimal"
#: Nothing listens there: an engine that sent a request would fail otherwise.
NOWHERE = "http://127.0.0.1:9/query"


@pytest.mark.parametrize("inference", ["bogus", "RDFS", "owl", ""])
@pytest.mark.parametrize("endpoint", [None, NOWHERE], ids=["local", "endpoint"])
@pytest.mark.parametrize("kind", ["fast", "reference"])
def test_an_unknown_inference_is_refused_by_every_kind(kind, endpoint, inference):
    with pytest.raises(AnthologyError, match=f"unknown inference {inference!r}: use one of none"):
        open_engine(kind, root=ROOT, inference=inference, endpoint=endpoint)


@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
@pytest.mark.parametrize("kind", ["fast", "reference"])
def test_inference_with_an_endpoint_is_refused_for_queries(kind, inference):
    with pytest.raises(AnthologyError, match="applies to the local anthology, not to an endpoint"):
        open_engine(kind, root=ROOT, inference=inference, endpoint=NOWHERE)


def test_inference_with_an_endpoint_is_validations_own():
    # (as `validate --endpoint URL --inference rdfs`: pySHACL infers on the data read back)
    engine = open_engine(root=ROOT, inference="rdfs", endpoint=NOWHERE, validates=True)
    assert engine.name == "remote"


@pytest.fixture(scope="module")
def engines():
    """The same small anthology on each engine; the remote one reaches no store: each
    call below is refused before it would send a request."""
    return {
        "fast": open_engine("fast", root=ROOT),
        "reference": open_engine("reference", root=ROOT),
        "remote": open_engine(root=ROOT, endpoint=NOWHERE),
    }


BAD_PARTS = {
    "query": lambda engine: engine.query("ASK {}", parts=("data", "bogus")),
    "select": lambda engine: engine.select("SELECT * {}", parts=("bogus",)),
    "triple_count": lambda engine: engine.triple_count(("bogus",)),
    "graph": lambda engine: engine.graph("bogus"),
    "quads": lambda engine: list(engine.quads(("bogus",))),
    "a str for parts": lambda engine: engine.triple_count("data"),
}


@pytest.mark.parametrize("kind", ["fast", "reference", "remote"])
@pytest.mark.parametrize("call", BAD_PARTS)
def test_an_unknown_part_names_the_parts_there_are_on_every_engine(engines, kind, call):
    with pytest.raises(AnthologyError) as refused:
        BAD_PARTS[call](engines[kind])
    bad = "d" if call == "a str for parts" else "bogus"
    said = f"no part {bad!r} in an anthology: its parts are data, ontology, shapes"
    assert refused.value.message == said


@pytest.mark.parametrize("kind", ["fast", "reference"])
@pytest.mark.parametrize("text", ["ASK {}", "CONSTRUCT WHERE { ?s ?p ?o }"])
def test_select_refuses_another_form_on_both_engines(engines, kind, text):
    with pytest.raises(AnthologyError, match="not a SELECT query"):
        engines[kind].select(text)


@pytest.mark.parametrize("kind", ["fast", "reference"])
@pytest.mark.parametrize("value", [None, 5, "text"])
def test_a_binding_that_is_no_rdf_term_is_refused_on_both_engines(engines, kind, value):
    with pytest.raises(AnthologyError, match=r"cannot bind \?s to .*: not an RDF term"):
        run_local(engines[kind], "SELECT * { ?s ?p ?o }", {"s": value})


@pytest.mark.parametrize("kind", ["fast", "reference", "remote"])
def test_a_blank_node_binding_is_refused_by_name_on_every_engine(engines, kind):
    """SPARQL's VALUES block takes no blank node, and a blank node written in a query is
    a variable: the fast engine said 'SPARQL syntax error at column 39' of the caller's
    36 characters, the reference engine answered (hunt20 #11)."""
    from rdflib import BNode

    said = "cannot bind ?y to the blank node _:b1: a query takes an IRI or a literal"
    text, bindings = "SELECT ?x WHERE { BIND(?y AS ?x) }", {"y": BNode("b1")}
    for call in (run_local, type(engines[kind]).query):  # (the engine's own too)
        with pytest.raises(AnthologyError) as refused:
            call(engines[kind], text, bindings)
        assert (refused.value.message, refused.value.line) == (said, None)


def test_a_blank_node_is_never_written_into_a_values_block():
    from rdflib import BNode

    from anthology_kg.sparql_text import with_values

    with pytest.raises(AnthologyError, match=r"cannot bind \?y to the blank node _:b1"):
        with_values("SELECT ?x WHERE { BIND(?y AS ?x) }", {"y": BNode("b1")})


def test_a_root_given_as_text_is_read_as_a_path():
    assert open_engine(root=str(ROOT)).root == ROOT.resolve()
    assert open_engine("reference", root=str(ROOT)).root == ROOT.resolve()
    assert load_anthology(str(ROOT)).root == ROOT.resolve()


def test_an_unknown_engine_and_a_timeout_that_is_no_number_are_input_errors():
    with pytest.raises(AnthologyError, match="unknown engine 'turbo': use one of fast"):
        open_engine("turbo", root=ROOT)
    with pytest.raises(AnthologyError, match="a number of seconds above 0"):
        Connection(timeout="5")  # type: ignore[arg-type]
