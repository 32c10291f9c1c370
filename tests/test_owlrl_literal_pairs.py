"""benchmarks/bench_inference.py --grouped-literal-pairs: owlrl's RDFS closure with its
literal pairs found by grouping on the value gives exactly owlrl's own closure, so the
100,000-entry comparison it makes possible compares with owlrl."""

import importlib.util
from pathlib import Path

import pytest
from owlrl import DeductiveClosure
from owlrl.RDFSClosure import RDFS_Semantics
from rdflib import XSD, Graph, Literal, Namespace

SCRIPT = Path(__file__).parents[1] / "benchmarks" / "bench_inference.py"

# Literals of equal value under different lexical forms and datatypes, ill-typed ones
# (no value), NaN (a value unequal to itself), language tags, and an XML literal.
TRICKY = """
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:a ex:p "1"^^xsd:integer, "01"^^xsd:integer, "1.0"^^xsd:decimal, "1.0E0"^^xsd:double,
    "true"^^xsd:boolean, "1"^^xsd:boolean, "1"^^xsd:long, "2"^^xsd:int .
ex:b ex:q "abc", "abc"@en, "abc"@EN-gb, "x"^^xsd:integer, "y"^^xsd:integer, "NaN"^^xsd:double,
    "NaN"^^xsd:float, "INF"^^xsd:double, "2020-01-01"^^xsd:date,
    "2020-01-01T00:00:00Z"^^xsd:dateTime, "2020-01-01T00:00:00+00:00"^^xsd:dateTime,
    "0A"^^xsd:hexBinary, "0a"^^xsd:hexBinary, "<b>x</b>"^^rdf:XMLLiteral, "1" .
ex:c ex:p "1"^^xsd:short ; ex:r "abc"^^xsd:string .
ex:p rdfs:range ex:Value ; rdfs:subPropertyOf ex:s .
"""


def _bench_inference():
    spec = importlib.util.spec_from_file_location("bench_inference", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _closure(asserted: Graph, grouped: bool, monkeypatch) -> set:
    if grouped:
        step = _bench_inference().literal_pairs_grouped
        monkeypatch.setattr(RDFS_Semantics, "one_time_rules", step)
    graph = Graph()
    graph += asserted  # the same blank nodes in both closures
    DeductiveClosure(RDFS_Semantics).expand(graph)
    monkeypatch.undo()
    return set(graph)


@pytest.mark.parametrize("source", ["tricky", "bundled"])
def test_grouped_literal_pairs_give_owlrls_own_rdfs_closure(source, monkeypatch):
    if source == "tricky":
        text = TRICKY
    else:
        root = Path(__file__).parents[1]
        text = "\n".join(p.read_text() for p in sorted((root / "data").glob("*.ttl")))
    asserted = Graph().parse(data=text, format="turtle")
    theirs = _closure(asserted, grouped=False, monkeypatch=monkeypatch)
    ours = _closure(asserted, grouped=True, monkeypatch=monkeypatch)
    assert ours == theirs
    # The tricky graph does exercise the copies: a value's triples reach its other forms.
    if source == "tricky":
        ex = Namespace("http://example.org/")
        assert (ex.c, ex.p, Literal("true", datatype=XSD.boolean)) in theirs
        assert (ex.c, ex.p, Literal("2", datatype=XSD.int)) not in theirs
